//! Chu Shogi for the alpha-beta search.
//!
//! Chu has no obligation to answer a check and ends when the last royal is taken, so the
//! search sees a lost position as one without royals (or a bared king, by the rule set) and
//! "in check" means only that the side's last royal is attacked (quiescence then looks at
//! every move, not just captures); a move that leaves the last royal attacked is scored
//! lost at the next node, before its moves are generated. Repetitions are judged as
//! lishogi's rule R1 says: the side whose moves in the cycle were all attacking loses it,
//! otherwise it is a draw (the search applies that to the first repetition it meets, as it
//! does perpetual check in shogi; JCSA's rule is not modelled separately). Checks give no
//! extension. The exchange estimate is one recapture deep: what the move takes, minus the
//! moving piece if the square stays defended.

use super::super::game::SearchGame;
use crate::eval::chu::{effect, value};
use crate::rules::bitboard::Bitboard;
use crate::rules::game::Outcome;
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::rules::variants::chu::{Geo, Kind, Piece, Position};

impl SearchGame for Position {
    type Checks = ();

    forward_search_game!(kinds: Kind, board: Geo, tables and net);

    #[inline]
    fn in_check(&self) -> bool {
        last_royal_attacked(self, Position::side_to_move(self))
    }

    generation_by_part!();

    const FORCING_IS_CHECK: bool = false;

    /// lishogi's rule R1: attacking moves (a check, or a piece that can take something
    /// where it lands) are the forcing ones; the side that made only those loses the cycle.
    #[inline]
    fn last_move_was_forcing(&self) -> bool {
        self.last_move_was_attacking()
    }

    #[inline]
    fn has_lost(&self) -> bool {
        let us = Position::side_to_move(self);
        let royals = self.royals(us);
        if royals.is_empty() {
            return true;
        }
        // Only a bared side can lose by the bare-king rules; the full test is rarely needed.
        self.pieces_of(us).and_not(royals).is_empty()
            && self.bare_king_outcome() == Some(Outcome::Win(us.flip()))
    }

    /// A move that leaves the last royal attacked loses it at once (Chu has no rule against
    /// it): the search scores it without generating the capture that takes it.
    #[inline]
    fn left_royal_en_prise(&self) -> bool {
        last_royal_attacked(self, Position::side_to_move(self).flip())
    }

    #[inline]
    fn gives_check(&self, _mv: Move) -> bool {
        false
    }

    #[inline]
    fn checks(&self) {}

    #[inline]
    fn moved_slot(&self, mv: Move) -> usize {
        moved_piece(self, mv).index()
    }

    #[inline]
    fn landed_slot(&self, mv: Move) -> usize {
        moved_piece(self, mv).landing(mv).index()
    }

    #[inline]
    fn is_capture(&self, mv: Move) -> bool {
        mv.mid().is_some_and(|m| self.piece_at(m).is_some())
            || (mv.from() != Some(mv.to()) && self.piece_at(mv.to()).is_some())
    }

    #[inline]
    fn victim_value(&self, mv: Move) -> i32 {
        effect(self, mv)
            .captures
            .iter()
            .map(|&(_, k)| value(Kind::ALL[k]))
            .sum()
    }

    #[inline]
    fn mover_value(&self, mv: Move) -> i32 {
        value(moved_piece(self, mv).kind())
    }

    #[inline]
    fn promotion_gain(&self, mv: Move) -> i32 {
        if !mv.is_promotion() {
            return 0;
        }
        let kind = moved_piece(self, mv).kind();
        value(kind.promoted()) - value(kind)
    }

    fn see(&self, mv: Move) -> i32 {
        let e = effect(self, mv);
        let gain: i32 = e
            .captures
            .iter()
            .map(|&(_, k)| value(Kind::ALL[k]))
            .sum::<i32>()
            + SearchGame::promotion_gain(self, mv);
        let from = mv.from().expect("a board move");
        let mut occupied = self.occupied().without(from);
        for &(sq, _) in &e.captures {
            occupied = occupied.without(sq);
        }
        occupied = occupied.with(mv.to());
        let them = Position::side_to_move(self).flip();
        if self.attackers_to(mv.to(), them, occupied).any() {
            gain - value(Kind::ALL[e.landed])
        } else {
            gain
        }
    }
}

/// Whether `color` has a single royal left and it is attacked: in check for the search when
/// `color` is to move, lost at once when `color` has just moved.
#[inline]
fn last_royal_attacked(pos: &Position, color: Color) -> bool {
    pos.royals(color).count() == 1 && Position::in_check(pos, color)
}

/// The piece `mv` (a board move: Chu has no drops) moves.
#[inline]
fn moved_piece(pos: &Position, mv: Move) -> Piece {
    pos.piece_at(mv.from().expect("a board move"))
        .expect("a piece to move")
}

/// Whether the game is over for the search's purposes in a position the rules also judge
/// (kept beside the trait so both views can be compared in tests).
#[cfg(test)]
fn rules_say_lost(pos: &Position) -> bool {
    crate::rules::game::Game::outcome(pos) == Some(Outcome::Win(Position::side_to_move(pos).flip()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::random_games::{pick_preferring, random_games};
    use crate::rules::moves::MoveList;
    use crate::rules::sink::MovePart;

    #[test]
    fn a_lost_position_for_the_search_is_lost_by_the_rules() {
        let mut lost = 0;
        random_games(&Position::startpos(), 21, (20, 400), |pos, legal, rng| {
            if SearchGame::has_lost(pos) {
                assert!(rules_say_lost(pos), "{}", pos.to_sfen());
                lost += 1;
                return None;
            }
            // Captures first, so that games end.
            pick_preferring(legal, rng, |m| SearchGame::is_capture(pos, m))
        });
        assert!(lost > 5, "{lost}");
    }

    /// Each part of the legal moves is exactly the legal moves that take something (or the
    /// others), in the order of the full list (so the search's trees do not change with
    /// the generation by part), and `is_legal` says yes to each legal move and no to the
    /// legal moves of the position before that are not legal here (the table's and the
    /// killers' moves come from other positions), under every rule set's Lion rules, along
    /// random games with captures preferred (Lions and lion-line pieces in contact,
    /// counter-strikes recorded).
    #[test]
    fn the_parts_are_the_legal_moves_that_take_and_the_others() {
        use crate::rules::variants::chu::ChuRules;
        let (mut doubles, mut jitto, mut foreign) = (0, 0, 0);
        for (seed, rules) in (30..).zip(ChuRules::ALL) {
            let mut compared = 0;
            let mut previous = MoveList::new();
            let start = Position::startpos_with(rules);
            random_games(&start, seed, (20, 300), |pos, legal, rng| {
                for (part, takes) in [(MovePart::Captures, true), (MovePart::Quiets, false)] {
                    let mut generated = MoveList::new();
                    Position::generate_part(pos, part, &mut generated);
                    let expected: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|&m| SearchGame::is_capture(pos, m) == takes)
                        .collect();
                    assert_eq!(
                        generated.as_slice(),
                        expected.as_slice(),
                        "{}",
                        pos.to_sfen()
                    );
                }
                assert!(legal.iter().all(|&m| Position::is_legal(pos, m)));
                for &mv in previous.iter().filter(|m| !legal.contains(m)) {
                    assert!(!Position::is_legal(pos, mv), "{mv:?} in {}", pos.to_sfen());
                    foreign += 1;
                }
                let is_jitto = |m: &&Move| m.mid().is_some_and(|mid| pos.piece_at(mid).is_none());
                doubles += legal.iter().filter(|m| m.mid().is_some()).count();
                jitto += legal.iter().filter(is_jitto).count();
                compared += 1;
                previous = legal.clone();
                pick_preferring(legal, rng, |m| SearchGame::is_capture(pos, m))
            });
            assert!(compared > 1000, "{rules:?}: {compared}");
        }
        assert!(
            doubles > 100 && jitto > 100 && foreign > 10_000,
            "{doubles} {jitto} {foreign}"
        );
    }

    /// `left_royal_en_prise` says exactly whether one of the side to move's legal moves takes
    /// the other side's last royal (checked against every legal move's result).
    #[test]
    fn a_royal_left_en_prise_is_exactly_one_the_side_to_move_can_take() {
        let (mut exposed, mut checked) = (0, 0);
        random_games(&Position::startpos(), 22, (20, 300), |pos, legal, rng| {
            if SearchGame::has_lost(pos) {
                return None;
            }
            let mover = Position::side_to_move(pos).flip();
            let takes_the_last_royal = legal.iter().any(|&mv| {
                pos.play(mv);
                let taken = pos.royals(mover).is_empty();
                pos.unplay();
                taken
            });
            assert_eq!(
                SearchGame::left_royal_en_prise(pos),
                takes_the_last_royal,
                "{}",
                pos.to_sfen()
            );
            exposed += usize::from(takes_the_last_royal);
            checked += 1;
            // Captures first, so that royals come under attack.
            pick_preferring(legal, rng, |m| SearchGame::is_capture(pos, m))
        });
        assert!(exposed > 5 && checked > 1000, "{exposed} of {checked}");
    }
}
