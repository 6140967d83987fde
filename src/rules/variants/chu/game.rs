//! Chu Shogi as a [`Game`], and the game end under each rule set (RULES.md §2.7): losing the
//! last royal or having no move loses; bare king (lishogi's algorithm, JCSA's 駒枯れ, or
//! CHU.RUL's "bare the opposing King on the following move"); repetition (lishogi R1 for
//! `lishogi` and `churul`, whose text is silent; JCSA R0 for `jcsa`). Mate is not a game end:
//! a royal must actually be captured (RULES.md §6 row 5).

use super::position::Position;
use super::{ChuRules, Kind};
use crate::rules::bitboard::Bitboard;
use crate::rules::game::{Game, NodeKind, Outcome};
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};

/// How many times a position must occur for the repetition rules.
const REPETITIONS_TO_END: usize = 4;

impl Game for Position {
    #[inline]
    fn node_kind(&self) -> NodeKind {
        NodeKind::Decision(self.side_to_move())
    }

    #[inline]
    fn legal_actions(&self, out: &mut MoveList) {
        self.generate_legal(out);
    }

    #[inline]
    fn play(&mut self, action: Move) {
        Position::play(self, action);
    }

    #[inline]
    fn unplay(&mut self) {
        Position::unplay(self);
    }

    #[inline]
    fn hash(&self) -> u64 {
        Position::hash(self)
    }

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

    /// lishogi's `isBareKing` for `color` ([S-SCALASHOGI] `bareKing`).
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
            && self.royals(them).count() == 1
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

    /// Was the move `back` moves ago (1 = the last move) "attacking": after it, did the mover
    /// give check or could the moved piece take an enemy piece from where it stands?
    fn was_attacking(replay: &Position) -> bool {
        let mover = replay.side_to_move().flip();
        let last = replay.history.last().expect("a move");
        let to = last.mv.to();
        let piece = replay.piece_at(to).expect("the moved piece");
        replay.in_check(mover.flip())
            || (replay.tables().attacks(piece, to, replay.occupied())
                & replay.pieces_of(mover.flip()))
            .any()
    }

    /// The result if the current position has now occurred for the fourth time since the
    /// last irreversible move (the identity is the board, the side to move and SFEN field 3).
    pub fn repetition_outcome(&self) -> Option<Outcome> {
        let now = self.hash();
        let mut earlier = Vec::new();
        for back in 1..=self.history.len() {
            let undo = &self.history[self.history.len() - back];
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
            let undo = replay.history.last().expect("a move");
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
