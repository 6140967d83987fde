//! Legal move generation for Chu Kagamigi (RULES.md §3.3, with shogi's §1.3–1.5): the
//! checkers and pins of its pieces. The rest (king moves, the promotion split under the rule
//! choice, drops with nifu, dead ranks and uchifuzume) is the family's, in
//! `rules::dropshogi::movegen`.
//!
//! Only legal moves are produced, with no make/unmake: checkers and pinned pieces are found
//! first, king moves are tested against the attacks the king would face, other pieces are
//! limited to the check-blocking squares and to the segment between their king and their
//! pinner (a leaper pinned on a line may not jump past either end). A leaping checker can
//! only be captured, never blocked.

use super::position::{Kagamigi, Position};
use crate::rules::bitboard::{Bb192, Bitboard};
use crate::rules::dropshogi::movegen::PinnedPieces;
use crate::rules::geometry::{Color, DirectionIndex, Square};
use crate::rules::sink::MoveSink;
use arrayvec::ArrayVec;

type Bb = Bb192;

/// The pieces of one side pinned to its king, each with the squares it may still move to
/// (between the king and the pinner, and the pinner itself).
#[derive(Default)]
pub struct Pins {
    pub pinned: Bb,
    pub lines: ArrayVec<(Square, Bb), 8>,
}

impl Pins {
    /// Where the pinned piece on `sq` may go (`None` if it is not pinned).
    #[inline]
    pub fn allowed(&self, sq: Square) -> Option<Bb> {
        self.lines.iter().find(|(s, _)| *s == sq).map(|(_, bb)| *bb)
    }
}

/// Gives every legal move of the side to move to `out`: a leaping checker can only be
/// taken, a sliding one also blocked; a pinned piece keeps to its segment.
#[inline(always)]
pub(super) fn generate_into<S: MoveSink<Bb>>(pos: &Position, out: &mut S) {
    let t = pos.tables();
    pos.generate_with_pins(
        out,
        |king, checker| {
            let them = pos.side_to_move().flip();
            let piece = pos.piece_at(checker).expect("a checker");
            if t.leap_attacks(them, piece.kind(), checker).contains(king) {
                Bb::EMPTY
            } else {
                t.rays.between(king, checker)
            }
        },
        |us, king, occupied| pos.pins(us, king, occupied),
    );
}

/// Chu Kagamigi's pinned pieces, each held to its segment between the king and the pinner.
impl PinnedPieces<Kagamigi> for Pins {
    fn pieces(&self) -> Bb {
        self.pinned
    }

    #[inline]
    fn push_moves<S: MoveSink<Bb>>(
        &self,
        pos: &Position,
        _king: Square,
        target: Bb,
        occupied: Bb,
        out: &mut S,
    ) {
        let t = pos.tables();
        for &(from, allowed) in &self.lines {
            let piece = pos.piece_at(from).expect("a pinned piece");
            let to_set = t.attacks(piece, from, occupied) & target & allowed;
            pos.push_board_moves(piece, from, to_set, out);
        }
    }
}

impl Position {
    /// The pieces of `color` that stand alone between its king on `king` and an enemy piece
    /// reaching along that line, with occupancy `occupied`.
    pub fn pins(&self, color: Color, king: Square, occupied: Bb) -> Pins {
        let t = self.tables();
        let them = color.flip();
        let theirs = self.pieces_of(them);
        let mut pins = Pins::default();
        for d in 0..8 {
            let ray = t.rays.ray(DirectionIndex(d as u8), king);
            if (ray & theirs).is_empty() {
                continue;
            }
            let Some(first) = self.nearest(d, king, occupied) else {
                continue;
            };
            match self.piece_at(first) {
                Some(p) if p.color() == color => {}
                _ => continue,
            }
            let Some(second) = self.nearest(d, king, occupied.without(first)) else {
                continue;
            };
            let Some(pinner) = self.piece_at(second) else {
                continue;
            };
            if pinner.color() == them
                && t.reach[them.index()][pinner.kind().index()][d ^ 1] >= t.distance(king, second)
            {
                pins.pinned = pins.pinned.with(first);
                pins.lines
                    .push((first, t.rays.between(king, second).with(second)));
            }
        }
        pins
    }
}

#[cfg(test)]
mod tests {
    use super::super::Position;
    use crate::rules::game::sorted_action_texts;
    use crate::rules::moves::MoveList;

    fn legal_usi(sfen: &str) -> Vec<String> {
        let pos = Position::from_sfen(sfen).unwrap();
        let text = sorted_action_texts(&pos, |m| pos.move_to_usi(m));
        assert_eq!(pos.count_legal(), text.len() as u64);
        text
    }

    fn has(moves: &[String], m: &str) -> bool {
        moves.iter().any(|x| x == m)
    }

    #[test]
    fn pawn_drop_mate_is_refused_but_check_is_allowed() {
        // Gote king on 12a boxed in by its own knight on 11a; a pawn on 12b would be
        // defended by the gold on 11c, which also guards 11b.
        let mate = "kn10/12/1G10/12/12/12/12/12/12/12/12/11K b P 1";
        assert!(!has(&legal_usi(mate), "P*12b"));
        // Without the gold the king takes the pawn: the drop is legal.
        let check = "kn10/12/12/12/12/12/12/12/12/12/12/11K b P 1";
        assert!(has(&legal_usi(check), "P*12b"));
        // A Kirin on 10b could take the pawn by a D leap: legal.
        let kirin = "kn10/2o9/1G10/12/12/12/12/12/12/12/12/11K b P 1";
        assert!(has(&legal_usi(kirin), "P*12b"));
    }

    #[test]
    fn nifu_and_dead_ranks_limit_drops() {
        let moves = legal_usi("5k6/12/12/12/12/12/12/12/6P5/12/12/5K6 b PLN 1");
        assert!(!moves.iter().any(|m| m.starts_with("P*6")));
        assert!(!has(&moves, "P*1a") && !has(&moves, "L*1a") && !has(&moves, "N*1b"));
        assert!(has(&moves, "N*1c") && has(&moves, "P*1b") && has(&moves, "L*1b"));
    }

    #[test]
    fn zone_is_four_ranks_and_forced_promotion() {
        // Silver on 6e moving to 6d enters the zone; a pawn on 12b must promote on 12a; a
        // knight on 9c must promote on 10a/8a; a lance on 1e may stop unpromoted on 1b.
        let moves = legal_usi("5k6/P11/3N8/12/6S4L/12/12/12/12/12/12/5K6 b - 1");
        assert!(has(&moves, "6e6d+") && has(&moves, "6e6d"));
        assert!(!has(&moves, "6e7f+") && has(&moves, "6e7f"));
        assert!(has(&moves, "12b12a+") && !has(&moves, "12b12a"));
        assert!(has(&moves, "9c10a+") && !has(&moves, "9c10a"));
        assert!(has(&moves, "1e1b+") && has(&moves, "1e1b") && !has(&moves, "1e1a"));
    }

    #[test]
    fn leaving_the_zone_promotes_only_under_the_shogi_rule() {
        use super::super::{KagamigiRules, PromotionRule};
        let sfen = "5k6/12/12/6S5/12/12/12/12/12/12/12/5K6 b - 1";
        assert!(has(&legal_usi(sfen), "6d7e+"));
        let mut pos = Position::from_sfen(sfen).unwrap();
        pos.set_rules(KagamigiRules {
            promotion: PromotionRule::EndOnly,
        });
        let mut moves = MoveList::new();
        pos.generate_legal(&mut moves);
        let text: Vec<String> = moves.iter().map(|m| pos.move_to_usi(*m)).collect();
        assert!(!has(&text, "6d7e+") && has(&text, "6d7e") && has(&text, "6d6c+"));
    }

    #[test]
    fn pinned_leaper_stays_between_king_and_pinner() {
        // Sente king 12l, own Kirin on 12i pinned by a gote rook on 12f: the Kirin may leap
        // along the line (12g, 12k) but not off it.
        let moves = legal_usi("k11/12/12/12/12/r11/12/12/O11/12/12/K11 b - 1");
        assert!(has(&moves, "12i12g") && has(&moves, "12i12k"));
        assert!(!has(&moves, "12i10i") && !has(&moves, "12i11h") && !has(&moves, "12i11j"));
        // Kirin on 12g next to the rook: a leap to 12e would pass the pinner.
        let moves = legal_usi("k11/12/12/12/12/r11/O11/12/12/12/12/K11 b - 1");
        assert!(has(&moves, "12g12i") && !has(&moves, "12g12e"));
    }

    #[test]
    fn leaping_check_cannot_be_blocked() {
        // Gote Kirin on 10l checks the sente king on 12l by a D leap; 11l is empty.
        let moves = legal_usi("k11/12/12/12/12/12/12/12/12/12/12/K1o9 b G 1");
        assert!(!has(&moves, "G*11l"));
        assert!(moves.iter().all(|m| m.starts_with("12l")));
    }
}
