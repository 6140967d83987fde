//! The search proper, run by every thread. This module owns a thread's state ([`Worker`]:
//! its position copy, search stack, PV lines and heuristics), what the threads of one search
//! share ([`Shared`]: the transposition table, the stop and recall flags, the node count),
//! the main thread's clock ([`Timer`]), node counting and stop polling, and the incremental
//! evaluation along the path. The search itself lives in the submodules:
//!
//! * `root`: iterative deepening with aspiration windows over the root move list (with
//!   MultiPV), the search of each root move, the stop judgement between iterations, reports;
//! * `split`: the root split (young brothers wait) over a pool of helper workers;
//! * `node`: principal-variation search of an inner node with null-move pruning, internal
//!   iterative reduction, drop mates in one, late-move reductions, futility, move-count,
//!   history and SEE pruning, ProbCut, threats, check and singular extensions, the capture
//!   history, mate-distance pruning (the techniques not yet accepted are switched by
//!   `search::params`);
//! * `quiescence`: the search of captures (entered only after a look for a drop mate in one,
//!   which captures alone never see);
//! * `repetition`: repetition and perpetual-check scoring;
//! * `score`: the score scale and its conversions;
//! * `table`: when a transposition table entry settles a window, and how results are stored.
//!
//! Scores are centipawns for the side to move; mates are `MATE - plies` (positive when the
//! side to move mates). A [`Worker`] owns its position copy and heuristics; the transposition
//! table and the stop flag are shared with the other threads.

mod node;
mod quiescence;
mod repetition;
mod root;
mod score;
mod split;
mod table;

pub use score::{to_score, INFINITE, MATE, MATE_BOUND, PERPETUAL_WIN};
pub use split::RootSplit;

use super::game::SearchGame;
use super::ordering::{Heuristics, OptionalTables, PreviousMove, Shelf};
use super::params::SearchParams;
use super::time::Budget;
use super::tt::{TranspositionTable, TtHit};
use super::Control;
use crate::rules::game::walk_legal_prefix;
use crate::rules::moves::Move;
use arrayvec::ArrayVec;
use repetition::REPETITION_WINDOW;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The deepest ply the search reaches (iterations stop well before).
pub const MAX_PLY: usize = 128;

/// State shared by all threads of one search.
pub struct Shared<'a, G: SearchGame> {
    pub tt: &'a TranspositionTable,
    /// Set when every thread must return.
    pub abort: AtomicBool,
    /// Nodes flushed by all threads.
    pub nodes: AtomicU64,
    pub control: &'a Control,
    pub evaluator: &'a G::Evaluator,
    /// Plies after which the game is drawn (0 = never), counted from the game start.
    pub max_moves_to_draw: u32,
    /// Look for quiet mates in one (shogi: drop mates) where the main search hands over to
    /// quiescence.
    pub drop_mates: bool,
    /// Calls the root-split helpers back from the first root move (the main thread is done).
    pub recall: AtomicBool,
    /// The search's tunable numbers.
    pub params: SearchParams,
    /// Where threads leave their heuristics for the next search (with `Search_KeepHistory`).
    pub shelf: &'a Shelf,
}

/// The main thread's clock keeping.
#[derive(Clone, Copy, Debug)]
pub struct Timer {
    pub start: Instant,
    pub budget: Budget,
    pub infinite: bool,
    pub pondering: bool,
    pub node_limit: Option<u64>,
}

impl Timer {
    /// Polls the ponder flag; at ponderhit the clock restarts.
    pub fn poll_ponder(&mut self, control: &Control) {
        if self.pondering && !control.is_pondering() {
            self.pondering = false;
            self.start = Instant::now();
        }
    }

    /// True while no time limit applies.
    pub fn untimed(&self) -> bool {
        self.infinite || self.pondering
    }

    pub fn past_hard(&self) -> bool {
        !self.untimed() && self.budget.hard.is_some_and(|h| self.start.elapsed() >= h)
    }
}

/// One root move and what the last search said about it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub previous_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
    /// The nodes this thread spent on the move in the current iteration.
    pub nodes: u64,
}

/// A root move's search result: its PV (from the move) and selective depth.
#[derive(Clone, Debug)]
struct Searched {
    seldepth: usize,
    pv: Vec<Move>,
}

#[derive(Clone, Copy, Default)]
struct Frame<T> {
    in_check: bool,
    /// Whether the move that led here was forcing for the repetition rules.
    forcing: bool,
    static_eval: i32,
    /// The move played from this ply (`None` for a null move or not yet).
    current: Option<Move>,
    /// The piece (its `SearchGame` slot) that `current` put on its square.
    moved: Option<usize>,
    /// The move a singular-extension search at this ply leaves out (`None` otherwise).
    excluded: Option<Move>,
    /// Whether the node at this ply is marked PV in the table (`Search_TtPv`): searched as
    /// a PV node now or before. Stored with its result.
    tt_pv: bool,
    /// Plies since the last null move (bounded by the game history at the root).
    plies_from_null: usize,
    /// The evaluation totals of this ply's position.
    totals: T,
}

type Line = ArrayVec<Move, MAX_PLY>;

/// One search thread.
pub struct Worker<'a, G: SearchGame> {
    pub pos: G,
    shared: &'a Shared<'a, G>,
    pub id: usize,
    pub nodes: u64,
    unflushed: u64,
    pub seldepth: usize,
    heuristics: Heuristics,
    stack: Vec<Frame<G::Totals>>,
    pv: Vec<Line>,
    /// Whether each position before the root was in check (index 1 = one ply back).
    game_checks: Vec<bool>,
    pub root_moves: Vec<RootMove>,
    root_depth: i32,
    stopped: bool,
    /// The main thread keeps time; helpers only watch the abort flag.
    pub timer: Option<Timer>,
    /// Time limits are ignored until one iteration has completed.
    pub completed_depth: i32,
    /// The best root move of the deepest completed iteration no deeper than the search's
    /// depth limit, and that depth: what this thread offers the vote for the move played.
    pub completed_best: Option<(i32, RootMove)>,
    /// The best score of the last completed iteration and of the one before.
    best_scores: [Option<i32>; 2],
    /// The weight of the best move's recent changes between iterations, in hundredths
    /// (`time::best_move_changes`).
    best_move_changes: i32,
    /// The nodes this thread spent on the last completed iteration.
    iteration_nodes: u64,
    reductions: Vec<[u8; 64]>,
    /// While a null move's cut is verified (`Search_NullMoveVerifyDepth`), no null move is
    /// tried before this ply.
    null_move_min_ply: usize,
}

impl<'a, G: SearchGame> Worker<'a, G> {
    pub fn new(pos: G, shared: &'a Shared<'a, G>, id: usize, root: &[Move]) -> Worker<'a, G> {
        let mut replay = pos.clone();
        let mut game_checks = vec![replay.last_move_was_forcing()];
        for _ in 0..REPETITION_WINDOW.min(replay.moves_played()) {
            replay.unplay();
            game_checks.push(replay.moves_played() > 0 && replay.last_move_was_forcing());
        }
        let root_moves = root
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                previous_score: -INFINITE,
                pv: vec![mv],
                seldepth: 0,
                nodes: 0,
            })
            .collect();
        let mut reductions = vec![[0u8; 64]; 64];
        let divisor = f64::from(shared.params.lmr_divisor) / 100.0;
        let base = f64::from(shared.params.lmr_base) / 100.0;
        for (d, row) in reductions.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as u8;
            }
        }
        let plies_from_null = pos.moves_played().min(REPETITION_WINDOW);
        let mut stack = vec![Frame::default(); MAX_PLY + 4];
        stack[0].plies_from_null = plies_from_null;
        stack[0].totals = pos.eval_totals(shared.evaluator);
        Worker {
            pos,
            shared,
            id,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            heuristics: kept_heuristics(shared, id).unwrap_or_else(|| {
                Heuristics::new::<G>(MAX_PLY, OptionalTables::of(&shared.params))
            }),
            stack,
            pv: vec![Line::new(); MAX_PLY + 2],
            game_checks,
            root_moves,
            root_depth: 0,
            stopped: false,
            timer: None,
            completed_depth: 0,
            completed_best: None,
            best_scores: [None; 2],
            best_move_changes: 0,
            iteration_nodes: 0,
            reductions,
            null_move_min_ply: 0,
        }
    }

    /// Nodes of all threads so far (this one's unflushed count included).
    pub fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Ordering::Relaxed) + self.unflushed
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    /// Counts a node and, now and then, looks at the clock and the stop flags.
    #[inline]
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= 256 || (self.unflushed >= 64 && self.has_node_limit()) {
            self.poll();
        }
        self.stopped
    }

    #[inline]
    fn has_node_limit(&self) -> bool {
        self.timer.as_ref().is_some_and(|t| t.node_limit.is_some())
    }

    /// Checks every stop condition; the main thread raises the shared abort flag.
    pub fn poll(&mut self) {
        self.flush_nodes();
        if self.stopped {
            return;
        }
        let control = self.shared.control;
        if let Some(timer) = &mut self.timer {
            timer.poll_ponder(control);
            let out_of_nodes = timer
                .node_limit
                .is_some_and(|n| self.shared.nodes.load(Ordering::Relaxed) >= n);
            let out_of_time = self.completed_depth > 0 && timer.past_hard();
            if control.is_stopped() || out_of_nodes || out_of_time {
                self.shared.abort.store(true, Ordering::Relaxed);
            }
        }
        if self.shared.abort.load(Ordering::Relaxed) || control.is_stopped() {
            self.stopped = true;
        }
        if self.id > 0 && self.shared.recall.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    pub fn is_stopped(&self) -> bool {
        self.stopped
    }
    /// What every node (below the root) does first: clears its PV line, counts itself (and
    /// breaks with 0 when the search must stop), notes the selective depth, breaks with the
    /// mated score when the side to move has lost (and with the mating score when it can
    /// take the other side's last royal), and records whether it is in check.
    /// Continues with that check flag.
    #[inline(always)]
    fn enter(&mut self, ply: usize) -> ControlFlow<i32, bool> {
        self.pv[ply].clear();
        if self.visit() {
            return ControlFlow::Break(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if self.pos.has_lost() {
            return ControlFlow::Break(-MATE + ply as i32);
        }
        if self.pos.left_royal_en_prise() {
            // The side to move takes the last royal: it wins at the next ply.
            return ControlFlow::Break(MATE - ply as i32 - 1);
        }
        let in_check = self.pos.in_check();
        self.stack[ply].in_check = in_check;
        self.stack[ply].forcing = self.forcing(in_check);
        ControlFlow::Continue(in_check)
    }

    /// Plays the searched move `mv` from the node at `ply`: notes it and the piece it lands
    /// in the node's frame (for the histories of the plies below), counts a ply since the
    /// last null move, and makes it.
    #[inline]
    fn make_searched(&mut self, mv: Move, ply: usize) {
        let landed = self.pos.landed_slot(mv);
        self.make_noting(mv, ply, landed);
    }

    /// [`Worker::make_searched`] with the piece slot `noted` in the frame instead of the
    /// landed piece's (the root notes the moving piece).
    #[inline]
    fn make_noting(&mut self, mv: Move, ply: usize, noted: usize) {
        self.stack[ply].current = Some(mv);
        self.stack[ply].moved = Some(noted);
        self.stack[ply + 1].plies_from_null = self.stack[ply].plies_from_null + 1;
        self.make(mv, ply);
    }

    /// Plays `mv` from the position at `ply`, carrying the evaluation totals along.
    #[inline]
    fn make(&mut self, mv: Move, ply: usize) {
        let e = self.shared.evaluator;
        let change = self.pos.eval_change(e, mv, &self.stack[ply].totals);
        self.pos.play(mv);
        self.shared.tt.prefetch(self.pos.hash());
        let (before, after) = self.stack.split_at_mut(ply + 1);
        self.pos
            .eval_apply(e, change, &before[ply].totals, &mut after[0].totals);
    }

    /// The static evaluation of the position at `ply`. Debug builds check the totals kept
    /// move by move against totals computed from scratch.
    #[inline]
    fn static_eval(&self, ply: usize) -> i32 {
        let e = self.shared.evaluator;
        let side = self.pos.side_to_move();
        let totals = &self.stack[ply].totals;
        debug_assert_eq!(*totals, self.pos.eval_totals(e));
        G::eval_score(e, totals, side)
    }

    /// The static evaluation of the position at `ply`, taken from its table entry `hit` where
    /// that holds one (the evaluation is a function of the position, so the stored number is
    /// the one [`Worker::static_eval`] would compute), else computed. Debug builds still check
    /// the totals kept move by move, and, where a hit matches the whole key, that the stored
    /// number is the computed one.
    #[inline]
    fn static_eval_or_table(&self, ply: usize, hit: Option<&TtHit>) -> i32 {
        match hit.and_then(|h| h.eval) {
            Some(stored) => {
                #[cfg(debug_assertions)]
                {
                    let computed = self.static_eval(ply);
                    assert!(
                        stored == computed || !self.shared.tt.verifies_whole_key(),
                        "the table's evaluation {stored} is not the position's {computed}"
                    );
                }
                stored
            }
            None => self.static_eval(ply),
        }
    }

    /// The move played `back` plies before the node at `ply` and the piece it left on its
    /// square (`None` before the root, or for a null move).
    #[inline]
    fn played_before(&self, ply: usize, back: usize) -> PreviousMove {
        let frame = &self.stack[ply.checked_sub(back)?];
        Some((frame.moved?, frame.current?))
    }

    /// Whether `mv` is a capture or a promotion from the current position (not quiet).
    #[inline]
    fn is_noisy(&self, mv: Move) -> bool {
        mv.is_promotion() || self.pos.is_capture(mv)
    }

    #[inline]
    fn reduction(&self, depth: i32, move_count: usize) -> i32 {
        self.reductions[(depth as usize).min(63)][move_count.min(63)] as i32
    }
}

/// Thread `id`'s heuristics from the last search, aged, when they are kept and fit.
fn kept_heuristics<G: SearchGame>(shared: &Shared<'_, G>, id: usize) -> Option<Heuristics> {
    let params = &shared.params;
    if !SearchParams::on(params.keep_history) {
        return None;
    }
    let mut kept = shared.shelf.take(id)?;
    if !kept.fits::<G>(OptionalTables::of(params)) {
        return None;
    }
    kept.age();
    Some(kept)
}

impl<G: SearchGame> Drop for Worker<'_, G> {
    /// Leaves the heuristics for the next search when they are kept.
    fn drop(&mut self) {
        if SearchParams::on(self.shared.params.keep_history) {
            let heuristics = std::mem::take(&mut self.heuristics);
            self.shared.shelf.put(self.id, heuristics);
        }
    }
}

/// The longest prefix of `line` that is legal from `pos`.
pub fn legal_prefix<G: SearchGame>(pos: &G, line: &[Move]) -> Vec<Move> {
    let mut out = Vec::new();
    walk_legal_prefix(pos, line, G::generate_legal, G::play, |_, mv| out.push(mv));
    out
}
