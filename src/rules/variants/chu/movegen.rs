//! Legal move generation for Chu Shogi under each rule set (RULES.md §2.3–2.7).
//!
//! There is no obligation to escape check, so a move is legal when the piece can make it and
//! no Lion rule forbids it. Single legs come from the attack tables; the Lion family's double
//! moves are generated here: the Lion and promoted Kirin take an adjacent enemy and step once
//! more (igui when they step back), the Horned Falcon does the same straight forward and the
//! Soaring Eagle along each forward diagonal; jitto (a pass through an empty adjacent square)
//! is one move per piece.
//!
//! One move is generated per distinct action: a double move whose middle square is empty is
//! the same action as the direct step or jump and is not generated twice (notation accepts
//! both spellings; [`Position::usi_spellings`] gives lishogi's count of spellings).
//!
//! The Lion capture rules ([`Position::lion_capture_allowed`]): Lion × Lion (RULES.md
//! §2.5.1 rules 1–4, the same in all three rule sets) and the counter-strike after a non-Lion
//! took a Lion (lishogi: non-Lions may not take a Lion except on the recorded square;
//! CHU.RUL: non-Lions may not take a Lion at all; JCSA: no piece may take a protected Lion,
//! bridge captures excepted).

use super::position::Position;
use super::tables::distance;
use super::{ChuRules, Kind, Piece};
use crate::rules::bitboard::{Bb192, Bitboard};
use crate::rules::geometry::{Color, Offset, Square};
use crate::rules::moves::{Move, MoveList};

type Bb = Bb192;

/// The first leg of a two-step move, as the capture rules see it.
#[derive(Clone, Copy, Debug)]
pub struct FirstLeg {
    pub square: Square,
    /// The enemy piece taken there, if any.
    pub victim: Option<Piece>,
}

impl Position {
    /// Appends every legal move of the side to move to `out`. A side that has lost its last
    /// royal has no moves.
    pub fn generate_legal(&self, out: &mut MoveList) {
        let us = self.side_to_move();
        if self.royals(us).is_empty() {
            return;
        }
        let t = self.tables();
        let occupied = self.occupied();
        let ours = self.pieces_of(us);
        let enemy_lions = self.lions(us.flip());
        for from in ours.squares() {
            let piece = self.piece_at(from).expect("a piece on an occupied square");
            let kind = piece.kind();
            let mut targets = t.attacks(piece, from, occupied).and_not(ours);
            for lion in (targets & enemy_lions).squares() {
                if !self.lion_capture_allowed(kind, from, None, lion) {
                    targets = targets.without(lion);
                }
            }
            if kind.can_promote() {
                self.push_promotable(kind, from, targets, out);
            } else {
                for to in targets.squares() {
                    out.push(Move::normal(from, to, false));
                }
            }
            match kind {
                Kind::Lion | Kind::PromotedKirin => self.push_lion_doubles(kind, from, out),
                Kind::HornedFalcon => self.push_line_doubles(kind, from, &[(1, 0)], out),
                Kind::SoaringEagle => self.push_line_doubles(kind, from, &[(1, 1), (1, -1)], out),
                _ => {}
            }
        }
    }

    /// True if the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut moves = MoveList::new();
        self.generate_legal(&mut moves);
        !moves.is_empty()
    }

    /// May a `mover` starting on `from` take the enemy Lion on `target`? `first` is the first
    /// leg when `target` is taken on the second leg of a double move.
    pub fn lion_capture_allowed(
        &self,
        mover: Kind,
        from: Square,
        first: Option<FirstLeg>,
        target: Square,
    ) -> bool {
        let them = self.side_to_move().flip();
        let bridge = first.is_some_and(|leg| leg.victim.is_some_and(|v| v.kind().is_valuable()));
        let mut occupied = self.occupied().without(from);
        if let Some(leg) = first {
            occupied = occupied.without(leg.square);
        }
        // A defender is any piece of the Lion's side attacking its square once the capturer
        // has left `from` (and the first victim its square). A doomed Pawn or Go-Between
        // taken on the first leg still defends (JCSA rule 4).
        let protected = || self.attackers_to(target, them, occupied).any();
        if mover.is_lion() && distance(from, target) > 1 && !bridge && protected() {
            return false;
        }
        let Some(recorded) = self.lion_capture() else {
            return true;
        };
        match self.rules() {
            ChuRules::Lishogi => mover.is_lion() || target == recorded,
            ChuRules::Churul => mover.is_lion(),
            ChuRules::Jcsa => (mover.is_lion() && bridge) || !protected(),
        }
    }

    /// Whether a move of a promotable `kind` from `from` to `to` may promote and may stay
    /// unpromoted, under the position's rule set (RULES.md §2.6).
    pub fn promotion_options(&self, kind: Kind, from: Square, to: Square) -> (bool, bool) {
        let us = self.side_to_move();
        let t = self.tables();
        let zone = t.zone[us.index()];
        let last = t.last_rank[us.index()].contains(to);
        let capture = self.piece_at(to).is_some();
        let (from_in, to_in) = (zone.contains(from), zone.contains(to));
        match self.rules() {
            ChuRules::Lishogi | ChuRules::Jcsa => {
                let last_rank_kind = match self.rules() {
                    ChuRules::Lishogi => matches!(kind, Kind::Pawn | Kind::Lance),
                    _ => kind == Kind::Pawn,
                };
                // Enter the zone, capture starting (so also ending) in it, or reach the last
                // rank; a capture that ends in the zone from outside is an entry.
                let can = (to_in && !from_in) || (from_in && capture) || (last_rank_kind && last);
                (can, true)
            }
            ChuRules::Churul => {
                let forced = last && matches!(kind, Kind::Pawn | Kind::Lance);
                let mut can = if kind == Kind::Pawn {
                    (!from_in && to_in) || last
                } else {
                    from_in || to_in
                };
                if self.declined(us) == Some(from) && !capture {
                    can = false;
                }
                (can || forced, !forced)
            }
        }
    }

    fn push_promotable(&self, kind: Kind, from: Square, targets: Bb, out: &mut MoveList) {
        let us = self.side_to_move();
        let t = self.tables();
        let zone = t.zone[us.index()];
        // Far from the zone nothing can promote: skip the per-square test.
        let simple = if zone.contains(from) {
            Bb::EMPTY
        } else {
            targets.and_not(zone)
        };
        for to in simple.squares() {
            out.push(Move::normal(from, to, false));
        }
        for to in targets.and_not(simple).squares() {
            let (promote, stay) = self.promotion_options(kind, from, to);
            if promote {
                out.push(Move::normal(from, to, true));
            }
            if stay {
                out.push(Move::normal(from, to, false));
            }
        }
    }

    /// Double moves of a Lion or promoted Kirin on `from`: take an adjacent enemy, then step
    /// once more (back to `from` for igui); and one jitto if an adjacent square is empty.
    fn push_lion_doubles(&self, kind: Kind, from: Square, out: &mut MoveList) {
        let us = self.side_to_move();
        let t = self.tables();
        let ours = self.pieces_of(us);
        let neighbours = t.neighbours(from);
        let enemies = neighbours & self.pieces_of(us.flip());
        if let Some(empty) = neighbours.and_not(self.occupied()).lowest() {
            out.push(Move::multi(from, empty, from));
        }
        for mid in enemies.squares() {
            let victim = self.piece_at(mid);
            if victim.is_some_and(|v| v.kind().is_lion())
                && !self.lion_capture_allowed(kind, from, None, mid)
            {
                continue;
            }
            let leg = FirstLeg {
                square: mid,
                victim,
            };
            let seconds = t.neighbours(mid).and_not(ours).with(from);
            for to in seconds.squares() {
                if to != from
                    && self.piece_at(to).is_some_and(|p| p.kind().is_lion())
                    && !self.lion_capture_allowed(kind, from, Some(leg), to)
                {
                    continue;
                }
                out.push(Move::multi(from, mid, to));
            }
        }
    }

    /// Double moves of a Horned Falcon or Soaring Eagle along each of `lines` (owner-relative
    /// unit steps): jitto through an empty first square, or take the piece there and stop
    /// back on `from` (igui) or continue one more square along the line.
    fn push_line_doubles(&self, kind: Kind, from: Square, lines: &[(i8, i8)], out: &mut MoveList) {
        let us = self.side_to_move();
        let mut passed = false;
        for &(forward, left) in lines {
            let offset = Offset::for_owner(forward, left, us);
            let Some(mid) = from.offset::<super::Geo>(offset) else {
                continue;
            };
            let victim = self.piece_at(mid);
            match victim {
                // One jitto per piece, however many empty squares it could pass through.
                None if !passed => {
                    passed = true;
                    out.push(Move::multi(from, mid, from));
                }
                None => {}
                Some(p) if p.color() == us => {}
                Some(p) => {
                    if p.kind().is_lion() && !self.lion_capture_allowed(kind, from, None, mid) {
                        continue;
                    }
                    out.push(Move::multi(from, mid, from));
                    let Some(to) = mid.offset::<super::Geo>(offset) else {
                        continue;
                    };
                    match self.piece_at(to) {
                        Some(q) if q.color() == us => {}
                        Some(q)
                            if q.kind().is_lion()
                                && !self.lion_capture_allowed(
                                    kind,
                                    from,
                                    Some(FirstLeg {
                                        square: mid,
                                        victim,
                                    }),
                                    to,
                                ) => {}
                        _ => out.push(Move::multi(from, mid, to)),
                    }
                }
            }
        }
    }

    /// How many USI strings lishogi accepts for `mv` (a legal move of this position): a
    /// direct step or jump may also be spelt through each empty square between, and jitto
    /// through each empty adjacent square in the piece's lion directions. lishogi's perft
    /// counts every spelling; ours counts the move once.
    pub fn usi_spellings(&self, mv: Move) -> u64 {
        let Some(from) = mv.from() else { return 1 };
        let Some(piece) = self.piece_at(from) else {
            return 1;
        };
        let kind = piece.kind();
        if !kind.has_lion_power() {
            return 1;
        }
        let t = self.tables();
        let empty = t.all.and_not(self.occupied());
        let to = mv.to();
        match (kind.is_lion(), mv.mid()) {
            (_, Some(mid)) if self.piece_at(mid).is_some() => 1,
            (true, Some(_)) => (t.neighbours(from) & empty).count() as u64,
            (false, Some(_)) => self
                .lion_lines(kind, piece.color())
                .iter()
                .filter(|o| {
                    from.offset::<super::Geo>(**o)
                        .is_some_and(|mid| empty.contains(mid))
                })
                .count() as u64,
            (true, None) => 1 + (t.neighbours(from) & t.neighbours(to) & empty).count() as u64,
            (false, None) => {
                let through_empty = self.lion_lines(kind, piece.color()).iter().any(|&offset| {
                    from.offset::<super::Geo>(offset).is_some_and(|mid| {
                        empty.contains(mid) && mid.offset::<super::Geo>(offset) == Some(to)
                    })
                });
                1 + through_empty as u64
            }
        }
    }

    /// The board directions in which a Horned Falcon or Soaring Eagle of `color` has lion
    /// power (none for other kinds; the Lion has it in all eight).
    fn lion_lines(&self, kind: Kind, color: Color) -> Vec<Offset> {
        let lines: &[(i8, i8)] = match kind {
            Kind::HornedFalcon => &[(1, 0)],
            Kind::SoaringEagle => &[(1, 1), (1, -1)],
            _ => &[],
        };
        lines
            .iter()
            .map(|&(f, l)| Offset::for_owner(f, l, color))
            .collect()
    }

    /// Is `mover` of `color` on `from` a piece whose lion power runs through `mid` and on
    /// to `to`? (The shape of a two-step move, whatever stands on the squares.)
    pub fn is_lion_path(
        &self,
        mover: Kind,
        color: Color,
        from: Square,
        mid: Square,
        to: Square,
    ) -> bool {
        let t = self.tables();
        if mover.is_lion() {
            return t.neighbours(from).contains(mid) && t.neighbours(mid).contains(to);
        }
        let lines: &[(i8, i8)] = match mover {
            Kind::HornedFalcon => &[(1, 0)],
            Kind::SoaringEagle => &[(1, 1), (1, -1)],
            _ => return false,
        };
        lines.iter().any(|&(f, l)| {
            let offset = Offset::for_owner(f, l, color);
            from.offset::<super::Geo>(offset) == Some(mid)
                && (to == from || mid.offset::<super::Geo>(offset) == Some(to))
        })
    }
}

/// Perft counted the way lishogi (shogiops) counts: every USI spelling of every move, so a
/// jump that can also be spelt through an empty square counts twice (RULES.md §2.3).
/// [`crate::rules::perft::perft`] counts each distinct action once.
pub fn perft_usi_spellings(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.generate_legal(&mut moves);
    let mut total = 0;
    for mv in moves {
        let spellings = pos.usi_spellings(mv);
        if depth == 1 {
            total += spellings;
        } else {
            pos.play(mv);
            total += spellings * perft_usi_spellings(pos, depth - 1);
            pos.unplay();
        }
    }
    total
}
