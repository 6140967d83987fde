//! Chu Shogi as a [`Game`], and the game end under each rule set (RULES.md §2.7): losing the
//! last royal or having no move loses; bare king (lishogi's algorithm, JCSA's 駒枯れ, or
//! CHU.RUL's "bare the opposing King on the following move"); repetition (lishogi R1 for
//! `lishogi` and `churul`, whose text is silent; JCSA R0 for `jcsa`). Mate is not a game end:
//! a royal must actually be captured (RULES.md §6 row 5).

use super::position::Position;
use super::{ChuRules, Kind};
use crate::rules::bitboard::Bitboard;
use crate::rules::game::{inherent_game_methods, Game, Outcome};
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};

/// How many times a position must occur for the repetition rules.
const REPETITIONS_TO_END: usize = 4;

impl Game for Position {
    inherent_game_methods!(Position, decisions);

    fn outcome(&self) -> Option<Outcome> {
        let us = self.side_to_move();
        if self.royals(us).is_empty() || !self.has_legal_move() {
            return Some(Outcome::Win(us.flip()));
        }
        self.bare_king_outcome()
            .or_else(|| self.repetition_outcome())
    }
}

impl Position {
    /// `color`'s unpromoted Pawns and Lances on its last rank, which can never move.
    fn immobile(&self, color: Color) -> crate::rules::bitboard::Bb192 {
        (self.pieces(color, Kind::Pawn) | self.pieces(color, Kind::Lance))
            & self.tables().last_rank[color.index()]
    }

    /// Can the side to move take the piece on `sq` with a legal move?
    fn can_capture(&self, sq: crate::rules::geometry::Square) -> bool {
        let mut moves = MoveList::new();
        self.generate_legal(&mut moves);
        moves
            .iter()
            .any(|m| (m.to() == sq && m.from() != Some(sq)) || m.mid() == Some(sq))
    }

    /// The bare-king result under the position's rule set, if any.
    pub fn bare_king_outcome(&self) -> Option<Outcome> {
        let us = self.side_to_move();
        match self.rules() {
            ChuRules::Lishogi => {
                if self.lishogi_bared(us) {
                    Some(Outcome::Win(us.flip()))
                } else if self.lishogi_bared(us.flip()) {
                    Some(Outcome::Win(us))
                } else if self.lishogi_dead_draw() {
                    Some(Outcome::Draw)
                } else {
                    None
                }
            }
            ChuRules::Jcsa => {
                let bare = |c: Color| {
                    self.royals(c).count() == 1
                        && self
                            .pieces_of(c)
                            .and_not(self.royals(c) | self.immobile(c))
                            .is_empty()
                };
                // Pieces that count for the side with material: not unpromoted Pawns or
                // Go-Betweens (they must promote first), not immobile Lances.
                let extras = |c: Color| {
                    self.pieces_of(c).and_not(
                        self.royals(c)
                            | self.pieces_of_kind(Kind::Pawn)
                            | self.pieces_of_kind(Kind::GoBetween)
                            | self.immobile(c),
                    )
                };
                self.bare_outcome(bare, extras)
            }
            ChuRules::Churul => {
                let bare = |c: Color| self.pieces_of(c).and_not(self.royals(c)).is_empty();
                let extras = |c: Color| self.pieces_of(c).and_not(self.royals(c));
                self.bare_outcome(bare, extras)
            }
        }
    }

    /// JCSA and CHU.RUL: both bare is a draw; a bare side loses unless it is to move and can
    /// take the opponent's one remaining counted piece (which then bares the opponent too).
    fn bare_outcome(
        &self,
        bare: impl Fn(Color) -> bool,
        extras: impl Fn(Color) -> crate::rules::bitboard::Bb192,
    ) -> Option<Outcome> {
        let us = self.side_to_move();
        match (bare(us), bare(us.flip())) {
            (true, true) => Some(Outcome::Draw),
            (true, false) => {
                let theirs = extras(us.flip());
                match theirs.count() {
                    0 => None,
                    1 if self.can_capture(theirs.lowest().expect("one piece")) => None,
                    _ => Some(Outcome::Win(us.flip())),
                }
            }
            (false, true) => (extras(us).any()).then_some(Outcome::Win(us)),
            (false, false) => None,
        }
    }

    /// lishogi's bare-king test for `color` ([S-SCALASHOGI] `bareKing`, which the server
    /// applies; it asks the opponent for at least one royal where shogiops asks for one).
    fn lishogi_bared(&self, color: Color) -> bool {
        let them = color.flip();
        let t = self.tables();
        let ours = self.pieces_of(color).and_not(self.immobile(color));
        let theirs = self.pieces_of(them).and_not(
            self.pieces_of_kind(Kind::Pawn)
                | self.pieces_of_kind(Kind::GoBetween)
                | (self.pieces_of_kind(Kind::Lance) & t.last_rank[them.index()]),
        );
        let our_royal = self.royals(color);
        ours.count() == 1
            && our_royal.count() == 1
            && theirs.count() > 1
            && self.royals(them).any()
            && !self.in_check(them)
            && (theirs.count() > 2
                || (t.neighbours(our_royal.lowest().expect("one royal")) & theirs).is_empty())
    }

    /// lishogi's `isDraw`: a lone royal each (immobile last-rank Pawns and Lances aside) and
    /// neither in check.
    fn lishogi_dead_draw(&self) -> bool {
        let left = self
            .occupied()
            .and_not(self.immobile(Color::Sente) | self.immobile(Color::Gote));
        left.count() == 2
            && Color::BOTH
                .iter()
                .all(|c| self.royals(*c).count() == 1 && !self.in_check(*c))
    }

    /// Was the last move of `replay` "attacking" ([S-SCALASHOGI] `isAttacked`): after it,
    /// is the opponent in check, or could the moved piece take an enemy piece from where it
    /// stands (a Lion not counting protected Lions it could not lawfully take)?
    fn was_attacking(replay: &Position) -> bool {
        let mover = replay.side_to_move().flip();
        let last = replay.history().last().expect("a move");
        let to = last.mv.to();
        let piece = replay.piece_at(to).expect("the moved piece");
        let occupied = replay.occupied();
        let mut targets =
            replay.tables().attacks(piece, to, occupied) & replay.pieces_of(mover.flip());
        if piece.kind().is_lion() {
            for lion in (targets & replay.lions(mover.flip())).squares() {
                if super::tables::distance(to, lion) > 1
                    && replay
                        .attackers_to(lion, mover.flip(), occupied.without(to))
                        .any()
                {
                    targets = targets.without(lion);
                }
            }
        }
        replay.in_check(mover.flip()) || targets.any()
    }

    /// Whether the last move played was "attacking" for lishogi's repetition rule; false at
    /// the start and after a search's null move (which leaves no moved piece).
    pub fn last_move_was_attacking(&self) -> bool {
        match self.history().last() {
            Some(last) if !(last.mv.from() == Some(last.mv.to()) && last.mv.mid().is_none()) => {
                Position::was_attacking(self)
            }
            _ => false,
        }
    }

    /// Would `mv` recreate a position that occurred earlier (since the last irreversible
    /// move) with the same side to move? Under the HaChu / Wikipedia rule R2 (RULES.md §2.7)
    /// such a move is illegal; no rule set here applies R2 itself, this serves a caller that
    /// plays against an engine that does.
    pub fn repeats_earlier_position(&mut self, mv: Move) -> bool {
        self.play(mv);
        let now = self.hash();
        let mut repeats = false;
        for back in 1..=self.history().len() {
            let undo = &self.history()[self.history().len() - back];
            if back % 2 == 0 && undo.hash_before == now {
                repeats = true;
                break;
            }
            if undo.is_irreversible() {
                break;
            }
        }
        self.unplay();
        repeats
    }

    /// The result if the current position has now occurred for the fourth time since the
    /// last irreversible move (the identity is the board, the side to move and SFEN field 3).
    pub fn repetition_outcome(&self) -> Option<Outcome> {
        let now = self.hash();
        let mut earlier = Vec::new();
        for back in 1..=self.history().len() {
            let undo = &self.history()[self.history().len() - back];
            if back % 2 == 0 && undo.hash_before == now {
                earlier.push(back);
            }
            if undo.is_irreversible() {
                break;
            }
        }
        if earlier.len() + 1 < REPETITIONS_TO_END {
            return None;
        }
        let cycle = *earlier.last().expect("three earlier occurrences");
        // Walk back to the first occurrence, noting per side whether all its moves checked,
        // whether all attacked, whether any attacked, and which side passed first.
        let mut replay = self.clone();
        let mut all_attacking = [true; 2];
        let mut all_checking = [true; 2];
        let mut any_attacking = [false; 2];
        let mut all_passes = true;
        let mut first_pass = None;
        for _ in 0..cycle {
            let mover = replay.side_to_move().flip();
            let attacking = Position::was_attacking(&replay);
            let checking = replay.in_check(mover.flip());
            let undo = replay.history().last().expect("a move");
            let pass = undo.mv.mid().is_some()
                && undo.mv.from() == Some(undo.mv.to())
                && undo.captured_mid.is_none();
            if pass {
                first_pass = Some(mover);
            } else {
                all_passes = false;
            }
            all_attacking[mover.index()] &= attacking;
            all_checking[mover.index()] &= checking;
            any_attacking[mover.index()] |= attacking;
            replay.unplay();
        }
        let one_side = |flags: [bool; 2]| match flags {
            [true, false] => Some(Color::Sente),
            [false, true] => Some(Color::Gote),
            _ => None,
        };
        match self.rules() {
            ChuRules::Lishogi | ChuRules::Churul => match one_side(all_attacking) {
                Some(attacker) => Some(Outcome::Win(attacker.flip())),
                None => Some(Outcome::Draw),
            },
            ChuRules::Jcsa => {
                // R0: the side that started the repetition loses.
                let starter = one_side(all_checking)
                    .or_else(|| one_side(any_attacking))
                    .or(if all_passes { first_pass } else { None })
                    .unwrap_or(self.side_to_move());
                Some(Outcome::Win(starter.flip()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(sfen: &str, rules: ChuRules) -> Position {
        Position::from_sfen_with(sfen, rules).unwrap()
    }

    fn after(sfen: &str, rules: ChuRules, moves: &[&str]) -> Position {
        let mut pos = at(sfen, rules);
        for text in moves {
            let mv = pos.parse_usi_move(text).unwrap_or_else(|e| panic!("{e}"));
            pos.play(mv);
        }
        pos
    }

    #[test]
    fn losing_one_royal_is_not_the_end_but_losing_the_last_is() {
        // Gote Lion 6d; sente King 6e and Crown Prince 5f side by side, and a gold.
        let sfen = "11k/12/12/6n5/6K5/7+E4/12/12/12/12/12/G11 w - 1";
        for rules in ChuRules::ALL {
            assert_eq!(at(sfen, rules).outcome(), None);
            assert_eq!(after(sfen, rules, &["6d6e"]).outcome(), None, "{rules:?}");
            assert_eq!(
                after(sfen, rules, &["6d6e5f"]).outcome(),
                Some(Outcome::Win(Color::Gote)),
                "the Lion takes both royals in one move"
            );
        }
    }

    #[test]
    fn no_legal_move_loses() {
        // The sente King on 12a is walled in by its own immobile or blocked Pawns.
        let walled = "KP10/PP10/12/12/12/12/12/12/12/12/12/11k b - 1";
        for rules in ChuRules::ALL {
            assert_eq!(
                at(walled, rules).outcome(),
                Some(Outcome::Win(Color::Gote)),
                "{rules:?}"
            );
        }
    }

    /// Gote has bared sente's King and wins.
    const GOTE_WINS: Option<Outcome> = Some(Outcome::Win(Color::Gote));

    /// Asserts the outcome of each `(sfen, outcome)` under `rules`.
    fn assert_outcomes(rules: ChuRules, cases: &[(&str, Option<Outcome>)]) {
        for &(sfen, outcome) in cases {
            assert_eq!(at(sfen, rules).outcome(), outcome, "{rules:?} {sfen}");
        }
    }

    #[test]
    fn bare_king_lishogi() {
        assert_outcomes(
            ChuRules::Lishogi,
            &[
                // King against King, two golds and a pawn: bared.
                ("12/6kg4/5g2p3/12/12/12/12/12/6K5/12/12/12 b - 1", GOTE_WINS),
                // King against King and one gold far away: bared; next to the King: not yet.
                ("12/6kg4/12/12/12/12/12/12/6K5/12/12/12 b - 1", GOTE_WINS),
                ("12/6k5/12/12/12/12/12/7g4/6K5/12/12/12 b - 1", None),
                // King against King and pawns only: pawns do not count.
                ("12/6k5/5ppp4/12/12/12/12/12/6K5/12/12/12 b - 1", None),
                // The opponent may have two royals (the server's rule: at least one).
                ("12/6k+e4/12/12/9g2/12/12/12/6K5/12/12/12 b - 1", GOTE_WINS),
                // Lone royals (an immobile last-rank pawn aside): a draw.
                (
                    "12/6k5/12/12/12/12/12/12/6K5/12/12/8p3 b - 1",
                    Some(Outcome::Draw),
                ),
            ],
        );
    }

    #[test]
    fn bare_king_jcsa() {
        assert_outcomes(
            ChuRules::Jcsa,
            &[
                // One extra gold next to the bare King, which is to move and can take it:
                // play on.
                ("12/6k5/12/12/12/12/12/7g4/6K5/12/12/12 b - 1", None),
                // The same gold out of reach: the side with the gold wins.
                ("12/6kg4/12/12/12/12/12/12/6K5/12/12/12 b - 1", GOTE_WINS),
                // An unpromoted pawn must promote first; a tokin counts.
                ("12/6k5/9p2/12/12/12/12/12/6K5/12/12/12 b - 1", None),
                ("12/6k5/9+p2/12/12/12/12/12/6K5/12/12/12 b - 1", GOTE_WINS),
                // Two extra pieces win even if one can be taken.
                ("12/6kg4/12/12/12/12/12/7g4/6K5/12/12/12 b - 1", GOTE_WINS),
                (
                    "12/6k5/12/12/12/12/12/12/6K5/12/12/12 b - 1",
                    Some(Outcome::Draw),
                ),
            ],
        );
    }

    #[test]
    fn bare_king_churul() {
        let churul = ChuRules::Churul;
        // Every piece counts, pawns too.
        let pawn = "12/6k5/9p2/12/12/12/12/12/6K5/12/12/12 b - 1";
        assert_eq!(at(pawn, churul).outcome(), Some(Outcome::Win(Color::Gote)));
        // The bare King may bare the opposing King on its move: play on, then a draw.
        let near = "12/6k5/12/12/12/12/12/7p4/6K5/12/12/12 b - 1";
        assert_eq!(at(near, churul).outcome(), None);
        assert_eq!(
            after(near, churul, &["6i5h"]).outcome(),
            Some(Outcome::Draw)
        );
        // If it does not, it loses.
        assert_eq!(
            after(near, churul, &["6i6j"]).outcome(),
            Some(Outcome::Win(Color::Gote))
        );
        // lishogi ignores the pawn: no result there.
        assert_eq!(at(pawn, ChuRules::Lishogi).outcome(), None);
    }

    /// Kings and a gold each; the kings shuffle.
    const QUIET: &str = "g10k/12/12/12/12/12/12/12/12/12/12/K10G b - 1";

    #[test]
    fn quiet_repetition_draws_in_r1_and_loses_for_the_side_to_move_in_r0() {
        let cycle = ["12l11l", "1a2a", "11l12l", "2a1a"];
        let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
        for rules in [ChuRules::Lishogi, ChuRules::Churul] {
            assert_eq!(after(QUIET, rules, &moves[..11]).outcome(), None);
            assert_eq!(after(QUIET, rules, &moves[..8]).outcome(), None);
            assert_eq!(after(QUIET, rules, &moves).outcome(), Some(Outcome::Draw));
        }
        assert_eq!(after(QUIET, ChuRules::Jcsa, &moves[..11]).outcome(), None);
        assert_eq!(
            after(QUIET, ChuRules::Jcsa, &moves).outcome(),
            Some(Outcome::Win(Color::Gote)),
            "R0: the side to move at the repeated position started it"
        );
    }

    #[test]
    fn r2_helper_spots_a_move_that_recreates_a_position() {
        let mut pos = after(QUIET, ChuRules::Lishogi, &["12l11l", "1a2a"]);
        let back = pos.parse_usi_move("11l12l").unwrap();
        let other = pos.parse_usi_move("11l10l").unwrap();
        assert!(
            !pos.repeats_earlier_position(back),
            "gote's king is on 2a now"
        );
        assert!(!pos.repeats_earlier_position(other));
        let mut pos = after(QUIET, ChuRules::Lishogi, &["12l11l", "1a2a", "11l12l"]);
        let gote_back = pos.parse_usi_move("2a1a").unwrap();
        assert!(pos.repeats_earlier_position(gote_back));
        assert_eq!(pos.moves_played(), 3, "the helper takes its move back");
    }

    #[test]
    fn perpetual_attacker_loses() {
        // The sente rook checks on rank a and rank b in turn; the gote king steps 1a/1b.
        let sfen = "g10k/6R5/12/12/12/12/12/12/12/12/12/K11 b - 1";
        let cycle = ["6b6a", "1a1b", "6a6b", "1b1a"];
        let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
        for rules in ChuRules::ALL {
            assert_eq!(after(sfen, rules, &moves[..11]).outcome(), None);
            assert_eq!(
                after(sfen, rules, &moves).outcome(),
                Some(Outcome::Win(Color::Gote)),
                "{rules:?}"
            );
        }
    }

    #[test]
    fn repetition_counts_from_the_last_irreversible_move_and_field_three_is_identity() {
        let sfen = "g10k/12/12/12/12/12/12/12/12/12/6P5/K10G b - 1";
        let cycle = ["12l11l", "2a1a", "11l12l", "1a2a"];
        let mut moves = vec!["6k6j", "1a2a"];
        moves.extend(cycle.iter().cycle().take(12));
        // The position right after the pawn move (gote to move) recurs at plies 5, 9, 13.
        assert_eq!(after(sfen, ChuRules::Lishogi, &moves[..12]).outcome(), None);
        assert_eq!(
            after(sfen, ChuRules::Lishogi, &moves[..13]).outcome(),
            Some(Outcome::Draw)
        );
        let a = at(sfen, ChuRules::Lishogi);
        let b = at(&sfen.replace(" - ", " 5e "), ChuRules::Lishogi);
        assert_ne!(a.hash(), b.hash());
        assert_ne!(a, b);
    }
}
