//! Which actions are legal in a Shogammon position (RULES.md §4.3–4.4).
//!
//! A *die action* for value v moves a free piece whose type maps to v (a single, or the upper
//! piece of a point) as in shogi, with sliders stopped by any piece, onto an empty square, a
//! friendly single (making a point) or an enemy single (capturing it); or drops a hand piece
//! whose type maps to v on an empty square (nifu counting pawns inside points, no dead
//! drops, no uchifuzume). Moving onto an enemy point is the first half of a point capture
//! and is a die action only if the other die of the turn can then bring a second piece there.
//!
//! Legality of one atomic decision follows §4.3 ("in the order the player chooses, each die
//! must be used if it can be"): every die action of every die still to use is legal, and
//! `pass` is legal when some die left has no die action; it loses the largest such die.
//! After the first half of a point capture, only its completions are legal. Under
//! [`DiceUse::Maximal`] the first decision of a turn keeps only the actions that begin a
//! sequence using both dice (or capturing the king) if there is one, else those of the larger
//! usable die (or `pass`, when only one die can be used at all).

use super::dice::{DiceUse, Die, Roll};
use super::position::{PendingCapture, Position};
use super::Geo;
use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::Square;
use crate::rules::moves::{Move, MoveList};
use crate::rules::variants::shogi::{Kind, Piece};

impl Position {
    /// Appends every legal action: the 21 rolls when a turn starts, otherwise the die actions
    /// and `pass` as the module header says. Nothing once a king has been captured.
    pub fn generate_legal(&self, out: &mut MoveList) {
        if self.winner().is_some() {
            return;
        }
        if self.awaiting_roll() {
            out.extend(Roll::all().map(Roll::to_move));
            return;
        }
        let dice = self.dice_left();
        if let Some(pending) = self.pending_capture() {
            let die = dice
                .dice()
                .next()
                .expect("the second die of a point capture");
            self.completions(pending, die, out);
            return;
        }
        if self.dice_use() == DiceUse::Maximal && dice.dice().count() == 2 {
            self.first_actions_using_most_dice(out);
            return;
        }
        let mut some_die_unusable = false;
        let mut previous = None;
        for die in dice.dice() {
            if previous == Some(die) {
                continue;
            }
            previous = Some(die);
            let before = out.len();
            self.die_actions(die, dice.other_than(die), out);
            some_die_unusable |= out.len() == before;
        }
        if some_die_unusable {
            out.push(Move::pass());
        }
    }

    /// [`DiceUse::Maximal`] at the first decision of a turn: the ordered rule's actions,
    /// kept if they begin a sequence that uses both dice (or captures the king); failing
    /// that, the larger usable die's actions, with `pass` when only one die is usable at all.
    fn first_actions_using_most_dice(&self, out: &mut MoveList) {
        let dice = self.dice_left();
        let mut usable = Vec::new();
        let mut first_of_two = MoveList::new();
        let mut probe = self.clone();
        let mut previous = None;
        for die in dice.dice() {
            if previous == Some(die) {
                continue;
            }
            previous = Some(die);
            let mut actions = MoveList::new();
            self.die_actions(die, dice.other_than(die), &mut actions);
            if !actions.is_empty() {
                usable.push((die, actions.clone()));
            }
            for &action in actions.iter() {
                probe.play(action);
                let mut next = MoveList::new();
                probe.generate_legal(&mut next);
                if probe.winner().is_some() || next.iter().any(|a| !a.is_pass()) {
                    first_of_two.push(action);
                }
                probe.unplay();
            }
        }
        if !first_of_two.is_empty() {
            out.extend(first_of_two);
            return;
        }
        // `usable` is in descending die order: the larger die first.
        match usable.first() {
            None => out.push(Move::pass()),
            Some((larger_die, larger)) => {
                out.extend(larger.iter().copied());
                // One die usable, the other not: losing the other first also uses one die.
                if usable.len() == 1 && dice.dice().any(|d| d != *larger_die) {
                    out.push(Move::pass());
                }
            }
        }
    }

    /// The number of legal actions.
    pub fn count_legal(&self) -> u64 {
        let mut out = MoveList::new();
        self.generate_legal(&mut out);
        out.len() as u64
    }

    /// The die `pass` would lose: the largest die left with no die action (`None` if every
    /// die left can be used, or a point capture waits for its second half).
    pub fn die_to_pass(&self) -> Option<Die> {
        if self.pending_capture().is_some() || self.winner().is_some() {
            return None;
        }
        let dice = self.dice_left();
        dice.dice().find(|die| {
            let mut out = MoveList::new();
            self.die_actions(*die, dice.other_than(*die), &mut out);
            out.is_empty()
        })
    }

    /// Every die action for `die`, given the die `other` still to use after it (which can
    /// complete a point capture).
    fn die_actions(&self, die: Die, other: Option<Die>, out: &mut MoveList) {
        let us = self.side_to_move();
        let t = self.tables();
        let table = self.dice_table();
        let occupied = self.occupied();
        let ours = self.squares_of(us);
        let enemy_points = self.points().and_not(ours);
        let closed = ours & self.points();
        for from in ours.squares() {
            let piece = self.top(from).expect("an occupied square has a top piece");
            if table.die_of(piece.kind()) != die {
                continue;
            }
            let targets = t.attacks(piece, from, occupied).and_not(closed);
            for to in targets.squares() {
                if enemy_points.contains(to)
                    && !other.is_some_and(|second| self.can_complete(from, to, second))
                {
                    continue;
                }
                self.push_with_promotions(piece, from, to, out);
            }
        }
        let empty = t.board.all.and_not(occupied);
        for kind in Kind::HAND {
            if self.hand(us).count(kind) == 0 || table.die_of(kind) != die {
                continue;
            }
            let mut targets = empty & t.board.alive[us.index()][kind.index()];
            if kind == Kind::Pawn {
                for sq in ours.squares() {
                    let pawn = Piece::new(us, Kind::Pawn);
                    if self.top(sq) == Some(pawn) || self.bottom(sq) == Some(pawn) {
                        targets = targets.and_not(t.board.file[sq.file::<Geo>().0 as usize]);
                    }
                }
            }
            for to in targets.squares() {
                out.push(Move::drop(kind.id(), to));
            }
        }
    }

    /// True if, after the piece on `from` moves onto the enemy point on `to`, another of the
    /// mover's free pieces whose type maps to `second` can move onto `to`.
    fn can_complete(&self, from: Square, to: Square, second: Die) -> bool {
        let us = self.side_to_move();
        let t = self.tables();
        let table = self.dice_table();
        let freed = self.bottom(from);
        let occupied = if freed.is_some() {
            self.occupied()
        } else {
            self.occupied().without(from)
        };
        let reaches = |piece: Piece, sq: Square| {
            table.die_of(piece.kind()) == second && t.attacks(piece, sq, occupied).contains(to)
        };
        if freed.is_some_and(|lower| reaches(lower, from)) {
            return true;
        }
        self.squares_of(us)
            .without(from)
            .squares()
            .any(|sq| reaches(self.top(sq).expect("occupied"), sq))
    }

    /// The second halves of a point capture: moves with `die` onto the pending square.
    fn completions(&self, pending: PendingCapture, die: Die, out: &mut MoveList) {
        let t = self.tables();
        let occupied = self.occupied();
        for from in self.squares_of(self.side_to_move()).squares() {
            let piece = self.top(from).expect("occupied");
            if self.dice_table().die_of(piece.kind()) == die
                && t.attacks(piece, from, occupied).contains(pending.square)
            {
                self.push_with_promotions(piece, from, pending.square, out);
            }
        }
    }

    /// The move `from`→`to`, promoting where the shogi rule allows and/or requires.
    fn push_with_promotions(&self, piece: Piece, from: Square, to: Square, out: &mut MoveList) {
        let us = piece.color();
        let kind = piece.kind();
        let t = self.tables();
        let may_promote = kind.can_promote()
            && (t.board.in_zone[us.index()][from.index()]
                || t.board.in_zone[us.index()][to.index()]);
        if may_promote {
            out.push(Move::normal(from, to, true));
        }
        let may_stay = !kind.can_promote() || t.board.alive[us.index()][kind.index()].contains(to);
        if may_stay {
            out.push(Move::normal(from, to, false));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::bitboard::Bb128;
    use crate::rules::game::{sorted_action_texts, Game};

    /// Squares as a bitboard.
    fn bb(squares: &[&str]) -> Bb128 {
        squares.iter().fold(Bb128::EMPTY, |b, s| {
            b.with(Square::from_usi::<Geo>(s).expect("square"))
        })
    }

    fn actions(pos: &Position) -> Vec<String> {
        sorted_action_texts(pos, |m| pos.action_to_usi(m))
    }

    fn after(sfen: &str, tokens: &[&str]) -> Position {
        let mut pos = Position::from_sfen(sfen).unwrap();
        for token in tokens {
            let action = pos
                .parse_action(token)
                .unwrap_or_else(|e| panic!("{token}: {e}"));
            pos.play(action);
        }
        pos
    }

    #[test]
    fn start_position_rolls_then_die_actions() {
        let pos = Position::startpos();
        assert_eq!(actions(&pos).len(), 21);
        // 6-1: the king to 4h, 5h, 6h or onto either gold (a point), and nine pawn pushes.
        let pos = after(super::super::notation::START_SFEN, &["r:61"]);
        let a = actions(&pos);
        assert_eq!(a.len(), 14, "{a:?}");
        assert!(a.contains(&"5i5h".to_string()) && a.contains(&"7g7f".to_string()));
        assert!(!a.contains(&"pass".to_string()));
    }

    #[test]
    fn stacking_onto_the_king_makes_the_six_unusable() {
        // Sente king 5e with a pawn behind it on 5f; the roll is 6-1 (RULES.md §4.3's example).
        let sfen = "4k4/9/9/9/4K4/4P4/9/9/9 b - 1";
        let king_first = after(sfen, &["r:61", "5e5d"]);
        assert_eq!(actions(&king_first), vec!["5f5e"]);
        let stacked = after(sfen, &["r:61", "5f5e"]);
        assert_eq!(actions(&stacked), vec!["pass"]);
        let e5 = Square::from_usi::<Geo>("5e").unwrap();
        assert_eq!(stacked.top(e5).map(|p| p.kind()), Some(Kind::Pawn));
        assert_eq!(stacked.bottom(e5).map(|p| p.kind()), Some(Kind::King));
        let mut done = stacked.clone();
        done.play(Move::pass());
        assert!(done.awaiting_roll());
        assert_eq!(done.side_to_move(), crate::rules::geometry::Color::Gote);
        assert_eq!(bb(&["5e"]), done.points());
        assert!(done.outcome().is_none());
    }

    #[test]
    fn maximal_dice_use_keeps_sequences_using_both_dice_else_the_larger() {
        use super::super::DiceUse;
        let maximal = |sfen: &str, tokens: &[&str]| {
            let mut pos = Position::from_sfen(sfen).unwrap();
            pos.set_dice_use(DiceUse::Maximal);
            for token in tokens {
                let action = pos.parse_action(token).unwrap();
                pos.play(action);
            }
            pos
        };
        // 6-1, king 5e with a pawn behind: stacking either piece onto the other wastes a die.
        let sfen = "4k4/9/9/9/4K4/4P4/9/9/9 b - 1";
        let ordered = actions(&after(sfen, &["r:61"]));
        assert!(ordered.contains(&"5f5e".to_string()) && ordered.contains(&"5e5f".to_string()));
        let most = actions(&maximal(sfen, &["r:61"]));
        assert_eq!(
            most,
            vec!["5e4d", "5e4e", "5e4f", "5e5d", "5e6d", "5e6e", "5e6f"]
        );
        // King 1h and pawn 1i, hemmed in by points: either die but not both; the larger wins.
        let sfen = "4k4/9/9/9/9/9/7(GS)(GS)/7(SG)K/7(SG)P b - 1";
        assert_eq!(actions(&after(sfen, &["r:61"])), vec!["1h1i", "1i1h"]);
        assert_eq!(actions(&maximal(sfen, &["r:61"])), vec!["1h1i"]);
        assert_eq!(actions(&maximal(sfen, &["r:61", "1h1i"])), vec!["pass"]);
        // Only one die usable at all: its actions, or losing the other die first.
        let lone = "4k4/9/9/9/9/9/4P4/9/4K4 b - 1";
        assert_eq!(actions(&maximal(lone, &["r:21"])), vec!["5g5f", "pass"]);
        assert_eq!(actions(&maximal(lone, &["r:22"])), vec!["pass"]);
        // Capturing the king counts as using every die.
        let regicide = maximal("9/9/9/9/4k4/4G4/8P/9/4K4 b - 1", &["r:41"]);
        assert!(actions(&regicide).contains(&"5f5e".to_string()));
    }
}
