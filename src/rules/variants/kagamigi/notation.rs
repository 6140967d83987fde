//! SFEN and USI move text for Chu Kagamigi: its start position. Reading, writing and
//! validation are the family's (`rules::dropshogi::notation`); what they accept here (RULES.md §0.2, §0.4, §3.2, §3.4): the letters
//! of §3.2 with `+` for promoted pieces, runs of up to 12 empty squares, the shogi hand
//! field, and two-digit files in moves (`12a`, `U*10e`).
//!
//! Parsing validates as well as reads: a position is refused if it could not arise under
//! the rules (two kings of one colour, more pieces than the set holds, a pawn, lance or
//! knight where it could never move, nifu, or the side not to move in check). A move string
//! is accepted only if it names a legal move.
//!
//! The SFEN is read strictly (the shared grammar in `rules::notation`): 3 or 4 fields; twelve
//! ranks of exactly twelve squares with runs `1`–`12` (no `0`, no `01`, no `13`); side `b` or
//! `w`; hands `-` or groups of the hand letters (each side's kind once, counts from 2 without
//! a leading zero, in any order), never more of a kind in both hands and on the board than
//! the set holds (`Kind::SET_COUNT`, 24 pawns); a move number of 1 to 1,000,000 in plain
//! digits.

/// The reconstructed start position (RULES.md §3.4; the original diagram is lost).
pub const START_SFEN: &str = "lfxsgakgsofl/jd1rwiemb1ch/1tyvn2nuyq1/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/1QYUN2NVYT1/HC1BMEIWR1DJ/LFOSGKAGSXFL b - 1";

#[cfg(test)]
mod tests {
    use super::super::{Geo, Kind, Position};
    use super::*;
    use crate::rules::bitboard::Bitboard;
    use crate::rules::geometry::{Color, Square};
    use crate::rules::notation_checks::*;

    #[test]
    fn start_position_is_the_reconstruction() {
        let pos = Position::startpos();
        assert_eq!(pos.to_sfen(), START_SFEN);
        // 42 pieces a side, every kind used, gote's camp the 180° rotation of sente's.
        for color in Color::BOTH {
            assert_eq!(pos.pieces_of(color).count(), 42);
        }
        for kind in &Kind::ALL[..=Kind::King as usize] {
            for color in Color::BOTH {
                assert!(pos.pieces(color, *kind).any(), "{kind:?}");
            }
        }
        for sq in Square::all::<Geo>() {
            let rotated = Square(143 - sq.0);
            let a = pos.piece_at(sq).map(|p| (p.color(), p.kind()));
            let b = pos.piece_at(rotated).map(|p| (p.color().flip(), p.kind()));
            assert_eq!(a, b, "{sq:?}");
        }
        let king = pos.king_square(Color::Sente).unwrap();
        assert_eq!(king.to_usi::<Geo>(), "7l");
        assert_eq!(
            pos.piece_at(Square::from_usi::<Geo>("6l").unwrap())
                .map(|p| p.kind()),
            Some(Kind::BurningChariot)
        );
    }

    #[test]
    fn sfen_round_trips() {
        assert_sfens_round_trip(
            Position::from_sfen,
            Position::to_sfen,
            // The start position's SFEN is checked by `start_position_is_the_reconstruction`.
            &[
                "5k6/12/12/12/12/12/12/12/12/12/12/5K6 b ADCTQJHWMVUOXRBIEYFGSNLPad 1",
                "5k6/12/+P11/12/4+u7/12/12/12/12/12/12/5K6 w 10Pr3p 12",
                "5k6/12/12/12/12/12/12/12/12/12/12/5K6 w 24P 3",
            ],
        );
    }

    #[test]
    fn bad_sfens_are_refused_with_a_reason() {
        assert_refused_with_reason(
            Position::from_sfen,
            [
                ("", "fields"),
                ("12/12/12 b - 1", "ranks"),
                (
                    "5k6/12/12/12/12/12/12/12/12/12/12/5K5 b - 1",
                    "squares, expected 12",
                ),
                ("5k6/13/12/12/12/12/12/12/12/12/12/5K6 b - 1", "count 13"),
                ("5k6/12/12/12/12/12/12/12/12/12/12/5K6 x - 1", "side"),
                ("5k6/12/12/12/12/12/12/12/12/12/12/5K6 b Z 1", "hand"),
                ("5k6/12/12/12/12/12/12/12/12/12/12/5K6 b K 1", "hand"),
                (
                    "5k6/12/12/12/12/12/12/12/12/12/12/5K6 b 3R 1",
                    "more than 2",
                ),
                ("5k6/12/12/12/12/12/12/12/12/12/12/5K6 b 25P 1", "too large"),
                ("5k6/12/12/12/12/12/12/12/12/12/12/5K6 b - 0", "move number"),
                ("5k6/12/12/12/12/12/12/12/12/12/12/5Z6 b - 1", "letter"),
                ("P4k6/12/12/12/12/12/12/12/12/12/12/5K6 b - 1", "never move"),
                ("5k6/N11/12/12/12/12/12/12/12/12/12/5K6 b - 1", "never move"),
                (
                    "5k6/12/12/12/12/12/12/12/5P6/5P6/12/5K6 b - 1",
                    "two sente pawns",
                ),
                ("5k6/5R6/12/12/12/12/12/12/12/12/12/5K6 b - 1", "in check"),
                ("5k6/12/12/12/12/12/12/12/12/12/12/4KK6 b - 1", "two kings"),
                (
                    "5k6/12/12/12/12/12/12/12/12/12/12/5+K6 b - 1",
                    "cannot be promoted",
                ),
                (
                    "5k6/12/12/12/12/12/12/12/12/12/12/5+C6 b - 1",
                    "cannot be promoted",
                ),
                (
                    "5k6/12/12/12/12/12/12/12/12/12/12/5K5+ b - 1",
                    "end of a rank",
                ),
            ],
        );
    }

    /// Issue 12: hands are bounded by the set however they are written, and the reading is
    /// strict (zero and leading-zero runs and counts, repeated letters, lenient move numbers
    /// were accepted or overflowed).
    #[test]
    fn lenient_or_oversized_text_is_refused() {
        let ranks = |fifth: &str| format!("5k6/12/12/12/{fifth}/12/12/12/12/12/12/5K6");
        assert_bad_ranks_refused(Position::from_sfen, 12, 'P', ranks);
        let (pawns, rooks) = ("p".repeat(25), "R".repeat(3));
        let more = [
            "13p12p",
            "12P12P",
            pawns.as_str(),
            rooks.as_str(),
            "012P",
            "K",
        ];
        assert_bad_hands_refused(Position::from_sfen, &ranks("12"), &more);
        assert_bad_move_numbers_refused(Position::from_sfen, &format!("{} b -", ranks("12")));
        let ok = Position::from_sfen(&format!("{} b 12p12P 1000000", ranks("12"))).unwrap();
        assert_eq!(ok.to_sfen(), format!("{} b 12P12p 1000000", ranks("12")));
    }

    #[test]
    fn moves_print_and_parse() {
        let pos = Position::startpos();
        for text in ["12i12h", "1i1h", "8j9h", "5j4h", "10j10k"] {
            let mv = pos
                .parse_usi_move(text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(pos.move_to_usi(mv), text);
        }
        for bad in [
            "12i12g", "P*5e", "12i", "1212ih", "12i12h+", "K*5e", "", "13a12a", "12i12h++", "0i1h",
        ] {
            assert!(pos.parse_usi_move(bad).is_err(), "{bad}");
        }
        let hand = Position::from_sfen("5k6/12/12/12/12/12/12/12/12/12/12/5K6 b UC 1").unwrap();
        assert!(hand.parse_usi_move("U*10e").is_ok());
        assert!(hand.parse_usi_move("C*1a").is_ok());
        assert!(hand.parse_usi_move("u*10e").is_err());
        assert!(hand.parse_usi_move("+U*10e").is_err());
        let promo = Position::from_sfen("5k6/12/12/12/P11/12/12/12/12/12/12/5K6 b - 1").unwrap();
        assert_promotion_suffixes(&promo, "12e12d");
    }
}
