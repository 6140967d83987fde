//! SFEN and USI move text for standard shogi (RULES.md §0.2, §0.4): its start position. The
//! reading, writing and validation are the family's (`rules::dropshogi::notation`): nine
//! ranks of nine squares, hands of the letters R B G S N L P (written in that order) never
//! holding more than the set's 18 pawns, 4 lances, knights, silvers and golds, 2 bishops and
//! rooks; moves `7g7f`, `8h2b+`, `7g7f=` (lishogi's explicit non-promotion), `P*5e`.

/// The standard start position (RULES.md §1.1).
pub const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

#[cfg(test)]
mod tests {
    use super::super::Position;
    use super::*;
    use crate::rules::notation_checks::*;

    #[test]
    fn sfen_round_trips() {
        assert_sfens_round_trip(
            Position::from_sfen,
            Position::to_sfen,
            &[
                START_SFEN,
                "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
                "8k/9/9/9/9/9/9/9/K8 w 2P3p 3",
                "4k4/9/4+P4/9/9/9/9/9/4K4 w RB2G2S2N2L16Prb2g2s2n2l 17",
            ],
        );
    }

    #[test]
    fn bad_sfens_are_refused_with_a_reason() {
        assert_refused_with_reason(
            Position::from_sfen,
            [
                ("", "fields"),
                ("9/9/9 b - 1", "ranks"),
                (
                    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1",
                    "squares",
                ),
                (
                    "lnsgkgsnl/1r5b1/ppppppppp/10/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                    "empty-square count",
                ),
                (
                    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
                    "side",
                ),
                (
                    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b Q 1",
                    "hand",
                ),
                (
                    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 3R 1",
                    "more than",
                ),
                (
                    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0",
                    "move number",
                ),
                (
                    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1",
                    "letter",
                ),
                ("P3k4/9/9/9/9/9/9/9/4K4 b - 1", "never move"),
                ("4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1", "two"),
                ("4k4/4R4/9/9/9/9/9/9/4K4 b - 1", "in check"),
                ("4k4/9/9/9/9/9/9/9/3KK4 b - 1", "two kings"),
                ("4k4/9/9/9/9/9/9/9/4+K4 b - 1", "cannot be promoted"),
            ],
        );
    }

    /// Issue 12: hands of more pieces than a set holds, however written, were read into the
    /// hash table's index and panicked; now they are refused before any table is indexed.
    #[test]
    fn oversized_hands_are_refused_however_written() {
        let board = "4k4/9/9/9/9/9/9/9/4K4";
        let (pawns, rooks) = ("p".repeat(19), "R".repeat(20));
        let oversized = [
            "10p10p",
            "10P9P",
            "10P9p",
            pawns.as_str(),
            rooks.as_str(),
            "19p",
            "3R",
            "RRR",
            "2Rr",
            "18P1p",
            "255P",
        ];
        assert_bad_hands_refused(Position::from_sfen, board, &oversized);
        // Board and hands together: 17 pawns on the board leave room for one in hand.
        let full = "4k4/ppppppppp/9/9/9/9/PPPPPPPP1/9/4K4";
        assert!(Position::from_sfen(&format!("{full} b P 1")).is_ok());
        let err = Position::from_sfen(&format!("{full} b 2P 1")).unwrap_err();
        assert!(err.to_string().contains("more than 18"), "{err}");
    }

    /// Issue 12: the reading is strict (the module header says what is accepted).
    #[test]
    fn lenient_spellings_are_refused() {
        assert_bad_ranks_refused(Position::from_sfen, 9, 'g', |rank| {
            format!("8k/9/9/9/{rank}/9/9/9/K8")
        });
        assert_bad_move_numbers_refused(Position::from_sfen, "8k/9/9/9/9/9/9/9/K8 b -");
        assert_bad_hands_refused(Position::from_sfen, "8k/9/9/9/9/9/9/9/K8", &[]);
        assert_all_refused(
            Position::from_sfen,
            [
                "8k/9/9/9/09/9/1gn6/9/K8 b - 1",
                "8k/9/9/9/018/9/9/9/K8 b - 1",
                "8k/9/9/9/9/9/9/9/K8 B - 1",
            ],
        );
        // What stays accepted: any group order, and the largest move number, from which moves
        // can still be played.
        let mut pos = Position::from_sfen("8k/9/9/9/9/9/9/9/K8 b pG2s 1000000").unwrap();
        assert_eq!(pos.to_sfen(), "8k/9/9/9/9/9/9/9/K8 b G2sp 1000000");
        pos.play(pos.parse_usi_move("9i9h").unwrap());
        assert_eq!(pos.move_number(), 1_000_001);
    }

    #[test]
    fn moves_print_and_parse() {
        let pos = Position::startpos();
        for text in ["7g7f", "2h1h", "5i4h"] {
            let mv = pos.parse_usi_move(text).unwrap();
            assert_eq!(pos.move_to_usi(mv), text);
        }
        for bad in [
            "7g7e", "P*5e", "7g", "77gf", "7g7f+", "K*5e", "", "10a9a", "7g7f++",
        ] {
            assert!(pos.parse_usi_move(bad).is_err(), "{bad}");
        }
        let hand = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
        assert!(hand.parse_usi_move("P*5e").is_ok());
        assert!(hand.parse_usi_move("p*5e").is_err());
        let promo = Position::from_sfen("4k4/9/P8/9/9/9/9/9/4K4 b - 1").unwrap();
        assert_promotion_suffixes(&promo, "9c9b");
    }
}
