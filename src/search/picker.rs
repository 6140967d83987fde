//! The staged move picker: hands a node's moves to the search one at a time, best first,
//! each with the [`Stage`] it came from, doing only the work the moves reached so far need.
//!
//! A main-search node's stages: the table's move (checked for legality without generating
//! anything, where the game can), the captures ordered by victim and attacker (the static
//! exchange evaluation run only when a capture comes up; the losing ones are put aside),
//! the two killers and the counter-move, the other moves (generated only now where the game
//! can generate its captures and its other moves apart, ordered by their histories), and
//! last the losing captures. A game that cannot generate by part generates everything at
//! once and keeps the same order. Quiescence and ProbCut take the table's move, then the
//! captures by victim and attacker (they judge exchanges themselves), and in check the
//! other evasions.

use super::game::SearchGame;
use super::ordering::{Heuristics, RecentMoves};
use crate::rules::moves::{Move, MoveList, MAX_MOVES};
use crate::rules::sink::MovePart;
use arrayvec::ArrayVec;

/// Where a picked move came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The transposition table's move.
    TableMove,
    /// A capture that wins at least as much as it risks by the static exchange evaluation.
    GoodCapture,
    /// One of the ply's two killer moves.
    Killer,
    /// The move that last refuted the previous move.
    CounterMove,
    /// Any other move that captures nothing: early promotions first, then by history.
    Quiet,
    /// A capture that loses material by the static exchange evaluation.
    BadCapture,
    /// In quiescence and ProbCut: a capture, not yet judged by exchange.
    Capture,
    /// In quiescence in check: an evasion that captures nothing.
    Evasion,
}

/// A move the picker hands out, with its stage and, for a [`Stage::Quiet`] move, its
/// history score (0 otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picked {
    pub mv: Move,
    pub stage: Stage,
    pub score: i32,
}

/// The picker's next step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    TableMove,
    GenerateCaptures,
    GoodCaptures,
    Killer(usize),
    GenerateQuiets,
    Quiets,
    BadCaptures,
    /// Quiescence and ProbCut: the whole scored list in order.
    Scored,
    Done,
}

/// Above every history score: a quiet move the game wants tried early (a promotion).
const EARLY_QUIET: i32 = 1 << 20;
/// Above every other score of the quiescence list: the table's move.
const TABLE_FIRST: i32 = 1 << 30;
/// Above every evasion that captures nothing, in the quiescence list.
const CAPTURE_FIRST: i32 = 1 << 28;

/// How many quiet moves are picked by selection before the rest are sorted once.
const SELECTION_PICKS: usize = 6;

/// Hands out a node's moves in stages (see the module header).
pub struct Picker {
    step: Step,
    tt_move: Option<Move>,
    /// The killers and the counter-move, as they were handed out (each `None` once found
    /// to be no legal quiet move or a repeat of an earlier one).
    refutations: [Option<Move>; 3],
    /// Scored moves: the losing captures in `[0, bad_end)`, the captures in
    /// `[bad_end, captures_end)` (picked up to `next`), then the quiet moves.
    moves: ArrayVec<(i32, Move), MAX_MOVES>,
    next: usize,
    bad_end: usize,
    captures_end: usize,
    /// Whether every move is already in `moves` (the game generates all at once, or the
    /// moves were given).
    all_listed: bool,
    quiet_picks: usize,
    sorted: bool,
}

impl Picker {
    /// An empty picker, to be started in place (it is large; moving it costs a copy).
    #[inline(always)]
    pub fn empty() -> Picker {
        Picker {
            step: Step::Done,
            tt_move: None,
            refutations: [None; 3],
            moves: ArrayVec::new(),
            next: 0,
            bad_end: 0,
            captures_end: 0,
            all_listed: false,
            quiet_picks: 0,
            sorted: false,
        }
    }

    /// Starts the stages of a main-search node at `ply`, with the table's move `tt_move`
    /// (any move code: it is checked before it is handed out).
    pub fn start(
        &mut self,
        tt_move: Option<Move>,
        heuristics: &Heuristics,
        ply: usize,
        recent: &RecentMoves,
    ) {
        let [k0, k1] = heuristics.killers[ply];
        self.step = Step::TableMove;
        self.tt_move = tt_move;
        self.refutations = [k0, k1, heuristics.counter(recent[0])];
    }

    /// Starts the stages over the given legal `moves` (the root's), with no table move.
    pub fn start_listed<G: SearchGame>(
        &mut self,
        pos: &G,
        moves: &[Move],
        heuristics: &Heuristics,
    ) {
        self.start(None, heuristics, 0, &[None, None]);
        self.list_all(pos, moves, heuristics);
    }

    /// Lists every move of `moves` at once but the table's move: the captures, scored, then
    /// the other moves. Returns whether the table's move is among `moves` (it is legal).
    fn list_all<G: SearchGame>(
        &mut self,
        pos: &G,
        moves: &[Move],
        heuristics: &Heuristics,
    ) -> bool {
        let mut table_move_found = false;
        let mut quiets = MoveList::new();
        for &mv in moves {
            if Some(mv) == self.tt_move {
                table_move_found = true;
            } else if pos.is_capture(mv) {
                self.moves.push((capture_score(pos, mv, heuristics), mv));
            } else {
                quiets.push(mv);
            }
        }
        self.captures_end = self.moves.len();
        self.moves.extend(quiets.iter().map(|&mv| (0, mv)));
        self.all_listed = true;
        table_move_found
    }

    /// Starts the list of quiescence (or ProbCut): the captures, or in check every legal
    /// move; the table's move `tt_move` first if it is among them.
    pub fn start_captures<G: SearchGame>(
        &mut self,
        pos: &G,
        tt_move: Option<Move>,
        in_check: bool,
    ) {
        let mut moves = MoveList::new();
        if in_check {
            pos.generate_legal(&mut moves);
        } else {
            pos.generate_captures(&mut moves);
        }
        self.step = Step::Scored;
        self.tt_move = tt_move;
        for &mv in &moves {
            let score = if Some(mv) == tt_move {
                TABLE_FIRST
            } else if pos.is_capture(mv) {
                CAPTURE_FIRST + exchange_order(pos, mv)
            } else {
                pos.promotion_gain(mv) - if mv.is_drop() { 1000 } else { 0 }
            };
            self.moves.push((score, mv));
        }
    }

    /// The next move, or `None` when every stage is done.
    pub fn pick<G: SearchGame>(
        &mut self,
        pos: &G,
        heuristics: &Heuristics,
        recent: &RecentMoves,
    ) -> Option<Picked> {
        loop {
            match self.step {
                Step::TableMove => {
                    self.step = Step::GenerateCaptures;
                    let Some(mv) = self.tt_move else {
                        continue;
                    };
                    let legal = if G::GENERATES_BY_PART && !self.all_listed {
                        pos.is_legal(mv)
                    } else {
                        self.generate_all(pos, heuristics)
                    };
                    if legal {
                        return Some(picked(mv, Stage::TableMove));
                    }
                    self.tt_move = None;
                }
                Step::GenerateCaptures => {
                    self.step = Step::GoodCaptures;
                    if G::GENERATES_BY_PART && !self.all_listed {
                        let mut captures = MoveList::new();
                        pos.generate_part(MovePart::Captures, &mut captures);
                        for &mv in &captures {
                            if Some(mv) != self.tt_move {
                                self.moves.push((capture_score(pos, mv, heuristics), mv));
                            }
                        }
                        self.captures_end = self.moves.len();
                    } else {
                        self.generate_all(pos, heuristics);
                    }
                }
                Step::GoodCaptures => {
                    while self.next < self.captures_end {
                        let (score, mv) = self.select(self.next, self.captures_end);
                        self.next += 1;
                        if pos.victim_value(mv) >= pos.mover_value(mv) || pos.see(mv) >= 0 {
                            return Some(picked(mv, Stage::GoodCapture));
                        }
                        self.moves[self.bad_end] = (score, mv);
                        self.bad_end += 1;
                    }
                    self.step = Step::Killer(0);
                }
                Step::Killer(i) => {
                    self.step = if i < 2 {
                        Step::Killer(i + 1)
                    } else {
                        Step::GenerateQuiets
                    };
                    let Some(mv) = self.refutations[i] else {
                        continue;
                    };
                    let repeat =
                        Some(mv) == self.tt_move || self.refutations[..i].contains(&Some(mv));
                    if !repeat && self.is_legal_quiet(pos, mv) {
                        let stage = if i < 2 {
                            Stage::Killer
                        } else {
                            Stage::CounterMove
                        };
                        return Some(picked(mv, stage));
                    }
                    self.refutations[i] = None;
                }
                Step::GenerateQuiets => {
                    self.step = Step::Quiets;
                    self.score_quiets(pos, heuristics, recent);
                    self.next = self.captures_end;
                }
                Step::Quiets => {
                    if self.next < self.moves.len() {
                        let picks = self.quiet_picks;
                        self.quiet_picks += 1;
                        let (score, mv) = self.next_best(picks);
                        return Some(Picked {
                            mv,
                            stage: Stage::Quiet,
                            score,
                        });
                    }
                    self.step = Step::BadCaptures;
                    self.next = 0;
                }
                Step::BadCaptures => {
                    if self.next < self.bad_end {
                        let mv = self.moves[self.next].1;
                        self.next += 1;
                        return Some(picked(mv, Stage::BadCapture));
                    }
                    self.step = Step::Done;
                }
                Step::Scored => {
                    if self.next >= self.moves.len() {
                        self.step = Step::Done;
                        continue;
                    }
                    let (_, mv) = self.next_best(self.next);
                    let stage = if Some(mv) == self.tt_move {
                        Stage::TableMove
                    } else if pos.is_capture(mv) {
                        Stage::Capture
                    } else {
                        Stage::Evasion
                    };
                    return Some(picked(mv, stage));
                }
                Step::Done => return None,
            }
        }
    }

    /// Lists every legal move at once (the games that cannot generate by part), unless done.
    /// Returns whether the table's move is among them (a list given at the start has none).
    fn generate_all<G: SearchGame>(&mut self, pos: &G, heuristics: &Heuristics) -> bool {
        if self.all_listed {
            return false;
        }
        let mut moves = MoveList::new();
        pos.generate_legal(&mut moves);
        self.list_all(pos, &moves, heuristics)
    }

    /// Whether `mv` (a killer or counter-move, any move code) is a legal move here that
    /// captures nothing.
    fn is_legal_quiet<G: SearchGame>(&self, pos: &G, mv: Move) -> bool {
        if self.all_listed {
            self.moves[self.captures_end..]
                .iter()
                .any(|&(_, m)| m == mv)
        } else {
            pos.is_legal(mv) && !pos.is_capture(mv)
        }
    }

    /// Puts the scored quiet moves after the captures (generating them if not yet listed),
    /// leaving out the table's move and the refutations already handed out.
    fn score_quiets<G: SearchGame>(
        &mut self,
        pos: &G,
        heuristics: &Heuristics,
        recent: &RecentMoves,
    ) {
        let mut generated = MoveList::new();
        if !self.all_listed {
            pos.generate_part(MovePart::Quiets, &mut generated);
        } else {
            generated.extend(self.moves[self.captures_end..].iter().map(|&(_, m)| m));
            self.moves.truncate(self.captures_end);
        }
        for &mv in &generated {
            if Some(mv) == self.tt_move || self.refutations.contains(&Some(mv)) {
                continue;
            }
            let score = if pos.promotion_first(mv) {
                EARLY_QUIET + pos.promotion_gain(mv)
            } else {
                heuristics.quiet_score(pos.moved_slot(mv), mv, recent)
            };
            self.moves.push((score, mv));
        }
    }

    /// The best entry left from `next` on (taken): by selection for the first
    /// [`SELECTION_PICKS`] of a list (`picks` made so far), then from the rest sorted once.
    #[inline]
    fn next_best(&mut self, picks: usize) -> (i32, Move) {
        let best = if picks < SELECTION_PICKS {
            self.select(self.next, self.moves.len())
        } else {
            if !self.sorted {
                self.moves[self.next..].sort_by_key(|m| std::cmp::Reverse(m.0));
                self.sorted = true;
            }
            self.moves[self.next]
        };
        self.next += 1;
        best
    }

    /// Moves the best-scored entry of `[from, end)` to `from` and returns it.
    #[inline]
    fn select(&mut self, from: usize, end: usize) -> (i32, Move) {
        let range = &mut self.moves[from..end];
        // The first of the best scores wins, as a stable sort would order them.
        let (mut best, mut best_score) = (0, range[0].0);
        for (i, &(score, _)) in range.iter().enumerate().skip(1) {
            if score > best_score {
                (best, best_score) = (i, score);
            }
        }
        range.swap(0, best);
        range[0]
    }
}

#[inline]
fn picked(mv: Move, stage: Stage) -> Picked {
    Picked {
        mv,
        stage,
        score: 0,
    }
}

/// The order of captures among themselves: the most valuable victim first, then the least
/// valuable attacker, with what a promotion adds.
#[inline]
fn exchange_order<G: SearchGame>(pos: &G, mv: Move) -> i32 {
    pos.victim_value(mv) * 8 - pos.mover_value(mv) / 8 + pos.promotion_gain(mv)
}

/// A main-search capture's score: its exchange order corrected by the capture history.
#[inline]
fn capture_score<G: SearchGame>(pos: &G, mv: Move, heuristics: &Heuristics) -> i32 {
    exchange_order(pos, mv) + heuristics.capture_score(pos, mv) / 16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variants::{chu, kagamigi, shogi};
    use crate::search::ordering::OptionalTables;
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    fn heuristics<G: SearchGame>() -> Heuristics {
        let all = OptionalTables {
            continuation: true,
            captures: true,
        };
        Heuristics::new::<G>(8, all)
    }

    fn all_picks<G: SearchGame>(
        pos: &G,
        tt_move: Option<Move>,
        heuristics: &Heuristics,
        recent: &RecentMoves,
    ) -> Vec<Picked> {
        let mut picker = Picker::empty();
        picker.start(tt_move, heuristics, 0, recent);
        std::iter::from_fn(|| picker.pick(pos, heuristics, recent)).collect()
    }

    #[test]
    fn the_table_move_then_good_captures_come_first() {
        let pos = shogi::Position::from_sfen("4k4/9/4p4/9/9/9/9/4R4/4K4 b G 1").unwrap();
        let tt = pos.parse_usi_move("G*4b").unwrap();
        let picks = all_picks(
            &pos,
            Some(tt),
            &heuristics::<shogi::Position>(),
            &[None, None],
        );
        assert_eq!((picks[0].mv, picks[0].stage), (tt, Stage::TableMove));
        assert_eq!(pos.move_to_usi(picks[1].mv), "5h5c+");
        assert_eq!(picks[1].stage, Stage::GoodCapture);
        let mut legal = MoveList::new();
        pos.generate_legal(&mut legal);
        assert_eq!(picks.len(), legal.len());
    }

    #[test]
    fn killers_precede_quiets_and_losing_captures_come_last() {
        // The rook can take a pawn a silver defends (a losing capture).
        let pos = shogi::Position::from_sfen("4k4/9/3s5/4p4/9/9/9/4R4/4K4 b G 1").unwrap();
        let mut h = heuristics::<shogi::Position>();
        let killer = pos.parse_usi_move("G*1e").unwrap();
        h.add_killer(0, killer);
        let picks = all_picks(&pos, None, &h, &[None, None]);
        assert_eq!((picks[0].mv, picks[0].stage), (killer, Stage::Killer));
        let last = picks.last().unwrap();
        assert_eq!(pos.move_to_usi(last.mv), "5h5d");
        assert_eq!(last.stage, Stage::BadCapture);
        assert!(picks[1..picks.len() - 1]
            .iter()
            .all(|p| p.stage == Stage::Quiet));
    }

    /// The rank of a stage in a main-search node's order.
    fn rank(stage: Stage) -> usize {
        [
            Stage::TableMove,
            Stage::GoodCapture,
            Stage::Killer,
            Stage::CounterMove,
            Stage::Quiet,
            Stage::BadCapture,
        ]
        .iter()
        .position(|&s| s == stage)
        .expect("a main-search stage")
    }

    /// Over random games: the picker hands out every legal move exactly once, in stage
    /// order, whatever table move, killers and counter-move it is given (moves of earlier
    /// positions, legal here or not).
    fn every_move_once_in_stage_order<G: SearchGame>(start: G, games: usize, plies: usize) {
        let mut rng = StdRng::seed_from_u64(5);
        let mut h = heuristics::<G>();
        let mut checked = 0;
        for _ in 0..games {
            let mut pos = start.clone();
            let mut earlier: Vec<Move> = Vec::new();
            for _ in 0..plies {
                let mut legal = MoveList::new();
                pos.generate_legal(&mut legal);
                let Some(&chosen) = legal.choose(&mut rng) else {
                    break;
                };
                let strange = |rng: &mut StdRng| earlier.choose(rng).copied();
                // The table's move: half the time one of this position's moves, a capture
                // where there is one (the table's move is most often legal, and a capture
                // takes another path through the stages), else any move code seen before.
                let captures: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|&m| pos.is_capture(m))
                    .collect();
                let tt_move = if rng.gen_bool(0.5) {
                    captures
                        .choose(&mut rng)
                        .or(legal.choose(&mut rng))
                        .copied()
                } else {
                    strange(&mut rng)
                };
                h.add_killer(0, strange(&mut rng).unwrap_or(chosen));
                h.add_killer(0, strange(&mut rng).unwrap_or(chosen));
                let previous = Some((0, chosen));
                h.set_counter(previous, strange(&mut rng).unwrap_or(chosen));
                let recent = [previous, None];
                let picks = all_picks(&pos, tt_move, &h, &recent);
                let mut got: Vec<u32> = picks.iter().map(|p| p.mv.bits()).collect();
                let mut want: Vec<u32> = legal.iter().map(|m| m.bits()).collect();
                got.sort_unstable();
                want.sort_unstable();
                assert_eq!(got, want);
                assert!(picks
                    .windows(2)
                    .all(|w| rank(w[0].stage) <= rank(w[1].stage)));
                for p in &picks {
                    let capture = pos.is_capture(p.mv);
                    match p.stage {
                        Stage::GoodCapture | Stage::BadCapture => assert!(capture),
                        Stage::Killer | Stage::CounterMove | Stage::Quiet => assert!(!capture),
                        _ => {}
                    }
                }
                checked += 1;
                earlier.extend(legal.iter().copied());
                earlier.drain(..earlier.len().saturating_sub(400));
                pos.play(chosen);
            }
        }
        assert!(checked > games * plies / 2);
    }

    #[test]
    fn shogi_moves_come_once_in_stage_order() {
        every_move_once_in_stage_order(shogi::Position::startpos(), 10, 80);
    }

    #[test]
    fn kagamigi_moves_come_once_in_stage_order() {
        every_move_once_in_stage_order(kagamigi::Position::startpos(), 5, 60);
    }

    #[test]
    fn chu_moves_come_once_in_stage_order() {
        every_move_once_in_stage_order(chu::Position::startpos(), 2, 120);
    }

    /// A capture as the table's move comes first and once in Chu (the seventeenth session
    /// found it left out altogether when Chu generated all its moves at once,
    /// docs/STRENGTH.md; it generates by part since the twenty-sixth).
    #[test]
    fn a_chu_capture_from_the_table_comes_first() {
        let mut pos = chu::Position::startpos();
        for text in ["7i7h", "7d7e", "7h7g", "7e7f"] {
            pos.play(pos.parse_usi_move(text).unwrap());
        }
        let tt = pos.parse_usi_move("7g7f").unwrap();
        assert!(pos.is_capture(tt));
        let picks = all_picks(
            &pos,
            Some(tt),
            &heuristics::<chu::Position>(),
            &[None, None],
        );
        assert_eq!((picks[0].mv, picks[0].stage), (tt, Stage::TableMove));
        assert_eq!(picks.iter().filter(|p| p.mv == tt).count(), 1);
        let mut legal = MoveList::new();
        pos.generate_legal(&mut legal);
        assert_eq!(picks.len(), legal.len());
    }

    #[test]
    fn quiescence_takes_the_table_move_then_captures_by_victim() {
        let pos = shogi::Position::from_sfen("4k4/9/2g1p4/9/9/9/9/2R1R4/4K4 b - 1").unwrap();
        let tt = pos.parse_usi_move("5h5c+").unwrap();
        let mut picker = Picker::empty();
        picker.start_captures(&pos, Some(tt), false);
        let h = heuristics::<shogi::Position>();
        let picks: Vec<Picked> =
            std::iter::from_fn(|| picker.pick(&pos, &h, &[None, None])).collect();
        assert_eq!((picks[0].mv, picks[0].stage), (tt, Stage::TableMove));
        assert_eq!(pos.move_to_usi(picks[1].mv), "7h7c+");
        assert_eq!(picks[1].stage, Stage::Capture);
        assert_eq!(picks.len(), 2);
    }
}
