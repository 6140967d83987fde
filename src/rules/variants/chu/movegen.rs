//! Legal move generation for Chu Shogi under each rule set (RULES.md §2.3–2.7).
//!
//! There is no obligation to escape check, so a move is legal when the piece can make it and
//! no Lion rule forbids it. Single legs come from the attack tables; the Lion family's double
//! moves are generated here: the Lion and promoted Kirin take an adjacent enemy and step once
//! more (igui when they step back), the Horned Falcon does the same straight forward and the
//! Soaring Eagle along each forward diagonal; jitto (a pass through an empty adjacent square)
//! is one move per piece.
//!
//! The search asks for the moves in two parts ([`Position::generate_part`]: those that take
//! something, then the others) and checks a single move by its piece's moves alone
//! ([`Position::is_legal`]); both list the moves in the full list's order.
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
use crate::rules::sink::MovePart;
use arrayvec::ArrayVec;

type Bb = Bb192;

/// The owner-relative (forward, left) lines along which the Horned Falcon and the Soaring
/// Eagle have lion power (RULES.md §2.3).
const LION_LINES: [(Kind, &[(i8, i8)]); 2] = [
    (Kind::HornedFalcon, &[(1, 0)]),
    (Kind::SoaringEagle, &[(1, 1), (1, -1)]),
];

/// What move generation reads of the two sides, once per position.
struct Sides {
    occupied: Bb,
    ours: Bb,
    enemies: Bb,
    enemy_lions: Bb,
    /// The side to move has lost its last royal: it has no moves.
    has_no_royal: bool,
}

impl Sides {
    #[inline]
    fn of(pos: &Position) -> Sides {
        let us = pos.side_to_move();
        Sides {
            occupied: pos.occupied(),
            ours: pos.pieces_of(us),
            enemies: pos.pieces_of(us.flip()),
            enemy_lions: pos.lions(us.flip()),
            has_no_royal: pos.royals(us).is_empty(),
        }
    }
}

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
        self.generate(None, out);
    }

    /// Appends the legal moves of one part, in the order [`Position::generate_legal`] lists
    /// them: those that take something (a Lion's or a lion-line piece's double move does
    /// when its first leg does), or the others (steps and jumps to empty squares, jitto).
    /// The search lists a node's quiet moves only when it reaches them, and quiescence
    /// never.
    pub fn generate_part(&self, part: MovePart, out: &mut MoveList) {
        self.generate(Some(part), out);
    }

    /// Whether `mv`, any move code, is a legal move here: looked up among the moves of the
    /// piece it starts from alone.
    pub fn is_legal(&self, mv: Move) -> bool {
        let Some(from) = mv.from() else {
            return false;
        };
        let sides = Sides::of(self);
        if !sides.ours.contains(from) || sides.has_no_royal {
            return false;
        }
        let mut moves = MoveList::new();
        self.generate_from(from, &sides, None, &mut moves);
        moves.contains(&mv)
    }

    /// The legal moves of `part` (`None`: all), piece by piece.
    fn generate(&self, part: Option<MovePart>, out: &mut MoveList) {
        let sides = Sides::of(self);
        if sides.has_no_royal {
            return;
        }
        for from in sides.ours.squares() {
            self.generate_from(from, &sides, part, out);
        }
    }

    /// The legal moves of `part` (`None`: all) of the side to move's piece on `from`.
    #[inline]
    fn generate_from(
        &self,
        from: Square,
        sides: &Sides,
        part: Option<MovePart>,
        out: &mut MoveList,
    ) {
        let piece = self.piece_at(from).expect("a piece on an occupied square");
        let kind = piece.kind();
        let reach = self.tables().attacks(piece, from, sides.occupied);
        let mut targets = match part {
            None => reach.and_not(sides.ours),
            Some(MovePart::Captures) => reach & sides.enemies,
            Some(MovePart::Quiets) => reach.and_not(sides.occupied),
        };
        for lion in (targets & sides.enemy_lions).squares() {
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
            Kind::Lion | Kind::PromotedKirin => self.push_lion_doubles(kind, from, part, out),
            Kind::HornedFalcon | Kind::SoaringEagle => {
                self.push_line_doubles(kind, from, part, out)
            }
            _ => {}
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
    fn push_lion_doubles(
        &self,
        kind: Kind,
        from: Square,
        part: Option<MovePart>,
        out: &mut MoveList,
    ) {
        let us = self.side_to_move();
        let t = self.tables();
        let ours = self.pieces_of(us);
        let neighbours = t.neighbours(from);
        let enemies = neighbours & self.pieces_of(us.flip());
        if part != Some(MovePart::Captures) {
            if let Some(empty) = neighbours.and_not(self.occupied()).lowest() {
                out.push(Move::multi(from, empty, from));
            }
        }
        if part == Some(MovePart::Quiets) {
            return;
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

    /// Double moves of a Horned Falcon or Soaring Eagle along each of its lion lines
    /// ([`LION_LINES`]): one jitto through an empty first square, or take the piece there
    /// and stop back on `from` (igui) or continue one more square along the line.
    fn push_line_doubles(
        &self,
        kind: Kind,
        from: Square,
        part: Option<MovePart>,
        out: &mut MoveList,
    ) {
        let us = self.side_to_move();
        // Without the quiet moves, no jitto: as if one had been listed already.
        let mut passed = part == Some(MovePart::Captures);
        for offset in self.lion_lines(kind, us) {
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
                Some(_) if part == Some(MovePart::Quiets) => {}
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
    fn lion_lines(&self, kind: Kind, color: Color) -> ArrayVec<Offset, 2> {
        LION_LINES
            .iter()
            .filter(|(k, _)| *k == kind)
            .flat_map(|(_, lines)| lines.iter())
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
        self.lion_lines(mover, color).iter().any(|&offset| {
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
    for &mv in moves.iter() {
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

#[cfg(test)]
mod tests {
    use super::super::{ChuRules, Position};
    use crate::rules::game::sorted_action_texts;
    use crate::rules::moves::MoveList;

    fn legal_usi(sfen: &str, rules: ChuRules) -> Vec<String> {
        let pos = Position::from_sfen_with(sfen, rules).unwrap();
        let mut text = sorted_action_texts(&pos, |m| pos.move_to_usi(m));
        let before = text.len();
        text.dedup();
        assert_eq!(before, text.len(), "a move generated twice in {sfen}");
        text
    }

    /// Asserts, for every rule set, which of `present` / `absent` are legal.
    fn check(sfen: &str, rules: &[ChuRules], present: &[&str], absent: &[&str]) {
        for r in rules {
            let moves = legal_usi(sfen, *r);
            for m in present {
                assert!(
                    moves.contains(&m.to_string()),
                    "{m} should be legal ({r:?}) in {sfen}"
                );
            }
            for m in absent {
                assert!(
                    !moves.contains(&m.to_string()),
                    "{m} should be illegal ({r:?}) in {sfen}"
                );
            }
        }
    }

    const ALL: [ChuRules; 3] = ChuRules::ALL;

    #[test]
    fn lone_lion_has_24_legs_and_one_jitto() {
        let moves = legal_usi(
            "11k/12/12/12/12/6N5/12/12/12/12/12/K11 b - 1",
            ChuRules::Lishogi,
        );
        let lion: Vec<&String> = moves.iter().filter(|m| m.starts_with("6f")).collect();
        assert_eq!(lion.len(), 25, "{lion:?}");
        assert!(moves.contains(&"6f4d".to_string()) && moves.contains(&"6f8e".to_string()));
        assert_eq!(lion.iter().filter(|m| m.len() == 6).count(), 1, "one jitto");
    }

    #[test]
    fn lion_double_moves_igui_and_no_passing_through_own_pieces() {
        // Sente Lion 6f; gote pawn 6e, gold 5e, silver 7g; sente pawn 5f, rook 7e.
        let sfen = "11k/12/12/12/5Rpg4/6NP4/5s6/12/12/12/12/K11 b - 1";
        check(
            sfen,
            &ALL,
            &[
                "6f6e5e", "6f6e6f", "6f6e6d", "6f7g6f", "6f7g8h", "6f7g6g", "6f5e4d", "6f6e7f",
            ],
            &["6f5f4f", "6f6e7e", "6f6e5f", "6f6e6e", "6f6f"],
        );
    }

    #[test]
    fn lion_takes_an_adjacent_lion_even_if_protected() {
        let sfen = "11k/12/12/6g5/6n5/6N5/12/4G7/12/12/12/K11 b - 1";
        check(sfen, &ALL, &["6f6e", "6f6e6d", "6f6e6f"], &[]);
    }

    #[test]
    fn lion_may_not_jump_to_a_protected_lion_but_may_to_an_unprotected_one() {
        // Lion 6g vs gote Lion 6e guarded by the gold on 6d; Lion 9g vs lone gote Lion 11e.
        let sfen = "11k/12/12/6g5/1n4n5/12/3N2N5/12/12/12/12/K11 b - 1";
        check(sfen, &ALL, &["9g11e", "6g6f"], &["6g6e"]);
    }

    #[test]
    fn bridge_capture_takes_a_protected_lion_after_a_valuable_piece() {
        let sfen = "11k/12/12/6g5/6n5/6s5/6N5/12/12/12/12/K11 b - 1";
        check(sfen, &ALL, &["6g6f6e", "6g6f"], &["6g6e"]);
    }

    #[test]
    fn a_go_between_taken_on_the_first_leg_still_protects() {
        // Gote Go-Between 6f guards 6e (it steps back and forth); taking it first is no bridge.
        let sfen = "11k/12/12/12/6+o5/6i5/6N5/12/12/12/12/K11 b - 1";
        check(
            sfen,
            &ALL,
            &["6g6f", "6g6f5e", "6g6f6g"],
            &["6g6f6e", "6g6e"],
        );
        // With a silver as the first victim the same capture is a legal bridge.
        let bridge = "11k/12/12/12/6+o5/6s5/6N5/12/12/12/12/K11 b - 1";
        check(bridge, &ALL, &["6g6f6e"], &[]);
    }

    #[test]
    fn x_ray_protector_behind_the_lion_counts() {
        // The gote rook on 6k sees 6f once the sente Lion leaves 6h.
        let sfen = "11k/12/12/12/12/6n5/12/L5N5/12/12/6r5/K11 b - 1";
        check(sfen, &ALL, &["6h6g"], &["6h6f"]);
        let without_rook = "11k/12/12/12/12/6n5/12/L5N5/12/12/12/K11 b - 1";
        check(without_rook, &ALL, &["6h6f"], &[]);
    }

    /// Counter-strike after a non-Lion took a Lion (field 3 = 6e: the gote promoted Kirin
    /// stands there, having just taken a Lion; another gote Lion stands on 3e, protected by
    /// the gote gold on 3d; sente Rooks on 6f and 3h, sente Lion on 4f next to 3e).
    const COUNTER: &str = "11k/12/12/9g2/6+o2n2/6R1N3/12/9R2/12/12/12/K11 b 6e 1";

    #[test]
    fn counter_strike_lishogi_spares_only_the_recorded_square() {
        check(COUNTER, &[ChuRules::Lishogi], &["6f6e", "4f3e"], &["3h3e"]);
    }

    #[test]
    fn counter_strike_churul_bars_every_non_lion() {
        check(
            COUNTER,
            &[ChuRules::Churul],
            &["4f3e", "6f5f"],
            &["6f6e", "3h3e"],
        );
    }

    #[test]
    fn counter_strike_jcsa_bars_protected_lions_for_every_piece() {
        // 6e is unprotected, 3e is protected by the gold: even the adjacent Lion may not take it.
        check(
            COUNTER,
            &[ChuRules::Jcsa],
            &["6f6e"],
            &["3h3e", "4f3e", "4f3e4d"],
        );
        // A bridge capture is still allowed: take the gold on 3d first, then the Lion.
        let bridge = "11k/12/8N3/9g2/6+o2n2/6R5/12/9R2/12/12/12/K11 b 6e 1";
        check(
            bridge,
            &[ChuRules::Jcsa],
            &["4c3d3e", "4c3d"],
            &["4c3e", "3h3e"],
        );
    }

    #[test]
    fn kirin_promoting_on_a_lion_capture_and_the_recapture_per_rule_set() {
        // Sente Kirin 6e jumps to 6c taking the gote Lion and promotes; a sente gold on 6d
        // protects 6c. Gote: Rook 6a, Lion 4c.
        let sfen = "6r4k/12/6n1n3/6G5/6O5/12/12/12/12/12/12/K11 b - 1";
        for rules in ALL {
            let mut pos = Position::from_sfen_with(sfen, rules).unwrap();
            let mv = pos.parse_usi_move("6e6c+").unwrap();
            pos.play(mv);
            assert!(pos.to_sfen().contains(" w 6c "), "{}", pos.to_sfen());
            let moves: Vec<String> = {
                let mut list = MoveList::new();
                pos.generate_legal(&mut list);
                list.iter().map(|m| pos.move_to_usi(*m)).collect()
            };
            let rook_retakes = moves.contains(&"6a6c".to_string());
            let lion_retakes = moves.contains(&"4c6c".to_string());
            // lishogi spares the recorded square; CHU.RUL and JCSA (protected Lion) do not.
            assert_eq!(rook_retakes, rules == ChuRules::Lishogi, "{rules:?}");
            // A protected Lion two squares away is never fair game for a Lion.
            assert!(!lion_retakes, "{rules:?}");
        }
    }

    #[test]
    fn falcon_igui_of_a_lion_records_the_middle_square() {
        let falcon = "11k/12/12/6n5/6n5/6+H5/12/12/12/12/12/K11 b - 1";
        let mut pos = Position::from_sfen(falcon).unwrap();
        let mv = pos.parse_usi_move("6f6e6f").unwrap();
        pos.play(mv);
        assert!(pos.to_sfen().ends_with(" w 6e 2"), "{}", pos.to_sfen());
        pos.unplay();
        let mv = pos.parse_usi_move("6f6e6d").unwrap();
        pos.play(mv);
        assert!(pos.to_sfen().ends_with(" w 6d 2"), "{}", pos.to_sfen());
        // A Lion taking a Lion sets no record.
        let lions = "11k/12/12/12/6n5/6N5/12/12/12/12/12/K11 b - 1";
        let mut pos = Position::from_sfen(lions).unwrap();
        let mv = pos.parse_usi_move("6f6e").unwrap();
        pos.play(mv);
        assert!(pos.to_sfen().ends_with(" w - 2"), "{}", pos.to_sfen());
    }

    #[test]
    fn without_a_record_non_lions_take_lions_freely() {
        let sfen = COUNTER.replace(" 6e ", " - ");
        check(&sfen, &ALL, &["6f6e", "3h3e", "4f3e"], &[]);
    }

    #[test]
    fn falcon_and_eagle_double_moves() {
        // Falcon 6f with gote Lions on 6e and 6d: igui, double capture; jitto impossible.
        let falcon = "11k/12/12/6n5/6n5/6+H5/12/12/12/12/12/K11 b - 1";
        check(
            falcon,
            &ALL,
            &["6f6e", "6f6e6d", "6f6e6f", "6f6d"],
            &["6f5e4d"],
        );
        let moves = legal_usi(falcon, ChuRules::Lishogi);
        assert!(!moves
            .iter()
            .any(|m| m.len() == 6 && m.ends_with("6f") && !m.contains("6e")));
        // Eagle 6f: gote pawn on 5e, gote gold on 7e; sente gold behind 7e on 8d.
        let eagle = "11k/12/12/4G7/5g1p4/6+D5/12/12/12/12/12/K11 b - 1";
        check(
            eagle,
            &ALL,
            &["6f5e4d", "6f5e6f", "6f7e6f", "6f4d", "6f5e"],
            &["6f7e8d", "6f5e5d"],
        );
        let jitto = "11k/12/12/12/12/6+D5/12/12/12/12/12/K11 b - 1";
        let passes = legal_usi(jitto, ChuRules::Lishogi)
            .into_iter()
            .filter(|m| m.len() == 6 && m.ends_with("6f"))
            .count();
        assert_eq!(passes, 1, "one jitto for the eagle");
    }

    /// Sente Lance 3b, Pawn 7b, Silver 5e, Gold 10c below a gote pawn on 10b, Tiger 2d.
    const PROMO: &str = "11k/2p2P3L2/2G9/10T1/7S4/12/12/12/12/12/12/K11 b - 1";

    /// Which of PROMO's moves each rule set allows and which it refuses.
    #[test]
    fn promotion_under_each_rule_set() {
        let cases: [(ChuRules, &[&str], &[&str]); 3] = [
            (
                ChuRules::Lishogi,
                &[
                    "3b3a+", "3b3a", "7b7a+", "7b7a", "10c10b+", "5e5d+", "5e5d", "2d2e",
                ],
                &["2d1d+", "2d2e+", "10c9c+"],
            ),
            // The lance needs a capture on the last rank.
            (
                ChuRules::Jcsa,
                &["3b3a", "7b7a+", "10c10b+", "5e5d+"],
                &["3b3a+", "2d1d+", "2d2e+"],
            ),
            // Any move touching the zone may promote; on the last rank it must.
            (
                ChuRules::Churul,
                &[
                    "3b3a+", "7b7a+", "10c10b+", "5e5d+", "5e5d", "2d1d+", "2d2e+", "10c9c+",
                ],
                &["3b3a", "7b7a"],
            ),
        ];
        for (rules, allowed, refused) in cases {
            check(PROMO, &[rules], allowed, refused);
        }
    }

    #[test]
    fn churul_promotion_deferral_and_pawn_rule() {
        let sfen = "11k/12/12/12/7S3p/12/7P4/12/12/12/12/K11 b - 1";
        let mut pos = Position::from_sfen_with(sfen, ChuRules::Churul).unwrap();
        let play = |pos: &mut Position, text: &str| {
            let mv = pos.parse_usi_move(text).unwrap();
            pos.play(mv);
        };
        // The silver enters without promoting; on its next move it may not promote...
        play(&mut pos, "5e5d");
        play(&mut pos, "1e1f");
        let moves: Vec<String> = {
            let mut list = MoveList::new();
            pos.generate_legal(&mut list);
            list.iter().map(|m| pos.move_to_usi(*m)).collect()
        };
        assert!(moves.contains(&"5d5c".to_string()));
        assert!(!moves.contains(&"5d5c+".to_string()));
        // ...but a move later it may again.
        play(&mut pos, "5g5f");
        play(&mut pos, "1f1g");
        assert!(pos.parse_usi_move("5d5c+").is_ok());
        // The pawn that declined on entering may not promote inside the zone.
        let pawn = "11k/12/12/12/7P4/12/12/12/12/12/12/K11 b - 1";
        let mut pos = Position::from_sfen_with(pawn, ChuRules::Churul).unwrap();
        assert!(pos.parse_usi_move("5e5d+").is_ok());
        play(&mut pos, "5e5d");
        play(&mut pos, "1a2a");
        play(&mut pos, "12l11l");
        play(&mut pos, "2a1a");
        assert!(pos.parse_usi_move("5d5c+").is_err());
        assert!(pos.parse_usi_move("5d5c").is_ok());
    }

    #[test]
    fn a_side_without_royals_has_no_moves() {
        let mut pos =
            Position::from_sfen("1r9k/10Q1/12/12/12/12/12/12/12/12/12/6K5 b - 1").unwrap();
        let mv = pos.parse_usi_move("2b1a").unwrap();
        pos.play(mv);
        let mut moves = MoveList::new();
        pos.generate_legal(&mut moves);
        assert!(moves.is_empty());
    }
}
