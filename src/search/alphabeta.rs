//! The search proper, run by every thread: iterative deepening with aspiration windows over
//! a root move list (with MultiPV), principal-variation search with null-move pruning,
//! late-move reductions, futility and move-count pruning, check extensions, mate-distance
//! pruning, repetition and perpetual-check scoring, and a quiescence search of captures
//! (entered only after a look for a drop mate in one, which captures alone never see).
//!
//! Scores are centipawns for the side to move; mates are `MATE - plies` (positive when the
//! side to move mates). A [`Worker`] owns its position copy and heuristics; the transposition
//! table and the stop flag are shared with the other threads.

use super::game::SearchGame;
use super::ordering::{is_bad_capture, Heuristics, Picker};
use super::time::Budget;
use super::tt::{TranspositionTable, TtBound};
use super::{Bound, Control, Info, Score};
use crate::rules::moves::{Move, MoveList};
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The deepest ply the search reaches (iterations stop well before).
pub const MAX_PLY: usize = 128;
/// The score of delivering mate now; mate in `n` plies is `MATE - n`.
pub const MATE: i32 = 32000;
pub const INFINITE: i32 = MATE + 1;
/// Scores at or beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// The score of a repetition the opponent reached by checking on every move (they lose).
pub const PERPETUAL_WIN: i32 = 30000;
/// How far back a repetition is looked for, in plies.
const REPETITION_WINDOW: usize = 32;

/// A score of the internal scale turned into the interface's [`Score`].
pub fn to_score(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Mate(MATE - v)
    } else if v <= -MATE_BOUND {
        Score::Mate(-(MATE + v))
    } else {
        Score::Cp(v)
    }
}

#[inline]
fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

#[inline]
fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// State shared by all threads of one search.
pub struct Shared<'a, G: SearchGame> {
    pub tt: &'a TranspositionTable,
    /// Set when every thread must return.
    pub abort: AtomicBool,
    /// Nodes flushed by all threads.
    pub nodes: AtomicU64,
    pub control: &'a Control,
    pub evaluator: &'static G::Evaluator,
    /// Plies after which the game is drawn (0 = never), counted from the game start.
    pub max_moves_to_draw: u32,
    /// Look for quiet mates in one (shogi: drop mates) where the main search hands over to
    /// quiescence.
    pub drop_mates: bool,
    /// Calls the root-split helpers back from the first root move (the main thread is done).
    pub recall: AtomicBool,
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
}

/// The shallowest iteration whose root moves are shared out in root-split mode (shallower
/// ones are too quick to be worth the hand-over).
const SPLIT_MIN_DEPTH: i32 = 4;

/// The helpers of the root-split mode: workers that search root moves handed out by the
/// main thread, on the pool the main thread runs on.
pub struct RootSplit<'a, G: SearchGame> {
    pub pool: &'a rayon::ThreadPool,
    pub helpers: Vec<Mutex<Worker<'a, G>>>,
}

/// A root move's search result: its PV (from the move) and selective depth.
#[derive(Clone, Debug)]
struct Searched {
    seldepth: usize,
    pv: Vec<Move>,
}

/// The moves of one root split and what the threads share while searching them.
struct SplitTask<'m> {
    moves: &'m [Move],
    depth: i32,
    beta: i32,
    /// The best score so far: every move is first searched with a null window above it.
    alpha: AtomicI32,
    /// The index of the next move to hand out.
    next: AtomicUsize,
    /// Set on a fail high (a score at or above beta): no more moves are handed out.
    cutoff: AtomicBool,
    /// The index (within the PV line's moves) of `moves[0]`, for late-move reductions.
    offset: usize,
    /// (index in `moves`, score, result) of every completed move.
    results: Mutex<Vec<(usize, i32, Searched)>>,
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
    reductions: Vec<[u8; 64]>,
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
            })
            .collect();
        let mut reductions = vec![[0u8; 64]; 64];
        for (d, row) in reductions.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (d as f64).ln() * (m as f64).ln() / 2.2) as u8;
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
            heuristics: Heuristics::new::<G>(MAX_PLY),
            stack,
            pv: vec![Line::new(); MAX_PLY + 2],
            game_checks,
            root_moves,
            root_depth: 0,
            stopped: false,
            timer: None,
            completed_depth: 0,
            reductions,
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

    /// Whether the move into the position `back` plies before the node at `ply` was forcing
    /// (a check, in shogi).
    #[inline]
    fn was_forcing(&self, ply: usize, back: usize) -> bool {
        if back <= ply {
            self.stack[ply - back].forcing
        } else {
            self.game_checks.get(back - ply).copied().unwrap_or(false)
        }
    }

    /// Whether the move into the current position was forcing, given its check flag.
    #[inline]
    fn forcing(&self, in_check: bool) -> bool {
        if G::FORCING_IS_CHECK {
            in_check
        } else {
            self.pos.last_move_was_forcing()
        }
    }

    /// The score of the node at `ply` if its position occurred before on the game or search
    /// path: a draw, unless one side checked on every one of its moves of the cycle (it loses).
    #[inline]
    fn repetition(&self, ply: usize) -> Option<i32> {
        let limit = self.stack[ply].plies_from_null.min(REPETITION_WINDOW);
        if limit < 4 {
            return None;
        }
        let key = self.pos.hash();
        let mut back = 4;
        while back <= limit {
            if self.pos.hash_before(back) == Some(key) {
                let mut they_checked = true;
                let mut we_checked = true;
                for i in 0..back {
                    let checked = self.was_forcing(ply, i);
                    if i % 2 == 0 {
                        they_checked &= checked;
                    } else {
                        we_checked &= checked;
                    }
                }
                return Some(match (they_checked, we_checked) {
                    (true, false) => PERPETUAL_WIN - ply as i32,
                    (false, true) => -(PERPETUAL_WIN - ply as i32),
                    _ => 0,
                });
            }
            back += 2;
        }
        None
    }

    /// Searches the root moves from `pv_index` on (the earlier ones are other PV lines).
    /// With `split`, the moves after the first are shared out over its pool (root split).
    fn root_search(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        pv_index: usize,
        split: Option<&RootSplit<'a, G>>,
    ) -> i32 {
        let mut best = -INFINITE;
        self.stack[0].in_check = self.pos.in_check();
        self.stack[0].forcing = self.forcing(self.stack[0].in_check);
        for i in pv_index..self.root_moves.len() {
            if i > pv_index {
                if let Some(split) = split.filter(|_| depth >= SPLIT_MIN_DEPTH) {
                    let v = self.split_search(split, depth, alpha, beta, pv_index, i);
                    return best.max(v);
                }
            }
            let mv = self.root_moves[i].mv;
            let (v, searched) = match split.filter(|_| depth >= SPLIT_MIN_DEPTH && i == pv_index) {
                Some(split) => self.first_with_helpers(split, mv, depth, alpha, beta),
                None => self.root_move(mv, depth, alpha, beta, i - pv_index),
            };
            if self.stopped {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_index || v > alpha {
                rm.score = v;
                rm.seldepth = searched.seldepth;
                rm.pv = searched.pv;
            } else {
                rm.score = -INFINITE;
            }
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Searches one root move, the `index`-th of this PV line's moves (0: the full window).
    /// Returns the score and the move's PV and selective depth (meaningful when the score is
    /// above `alpha` or the move is the first).
    fn root_move(
        &mut self,
        mv: Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        index: usize,
    ) -> (i32, Searched) {
        let in_check = self.stack[0].in_check;
        let gives_check = self.pos.gives_check(mv);
        let captures = self.pos.is_capture(mv);
        let extension = i32::from(gives_check && self.pos.see(mv) >= 0);
        let new_depth = depth - 1 + extension;
        self.stack[0].current = Some(mv);
        self.stack[0].moved = Some(self.pos.moved_slot(mv));
        self.stack[1].plies_from_null = self.stack[0].plies_from_null + 1;
        self.make(mv, 0);
        self.seldepth = self.seldepth.max(1);
        let mut v;
        if index == 0 {
            v = -self.search(new_depth, -beta, -alpha, 1, false);
        } else {
            let quiet = !mv.is_promotion() && !captures;
            let r = if depth >= 3 && index > 3 && quiet && !in_check && !gives_check {
                (self.reduction(depth, index) - 1).clamp(0, new_depth - 1)
            } else {
                0
            };
            v = -self.search(new_depth - r, -alpha - 1, -alpha, 1, true);
            if v > alpha && r > 0 {
                v = -self.search(new_depth, -alpha - 1, -alpha, 1, true);
            }
            if v > alpha && v < beta {
                v = -self.search(new_depth, -beta, -alpha, 1, false);
            }
        }
        self.pos.unplay();
        let mut pv = Vec::with_capacity(self.pv[1].len() + 1);
        pv.push(mv);
        pv.extend_from_slice(&self.pv[1]);
        (
            v,
            Searched {
                seldepth: self.seldepth,
                pv,
            },
        )
    }

    /// The first root move of a root split, searched by this thread while the helpers search
    /// it too (Lazy SMP style, every other one a ply deeper) to fill the shared table; they
    /// are called back as soon as this thread has its score.
    fn first_with_helpers(
        &mut self,
        split: &RootSplit<'a, G>,
        mv: Move,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> (i32, Searched) {
        let timer = self.timer;
        let completed = self.completed_depth;
        let in_check = self.stack[0].in_check;
        let recall = &self.shared.recall;
        let result = split.pool.scope(|scope| {
            for helper in &split.helpers {
                scope.spawn(move |_| {
                    let Ok(mut worker) = helper.try_lock() else {
                        return;
                    };
                    if recall.load(Ordering::Relaxed) {
                        return;
                    }
                    worker.timer = timer;
                    worker.completed_depth = completed;
                    worker.root_depth = depth;
                    worker.stack[0].in_check = in_check;
                    worker.stack[0].forcing = worker.forcing(in_check);
                    worker.seldepth = 0;
                    let extra = (worker.id % 2) as i32;
                    let _ = worker.root_move(mv, depth + extra, alpha, beta, 0);
                    worker.flush_nodes();
                    // Called back, not stopped: the helper serves the next split.
                    if !worker.shared.abort.load(Ordering::Relaxed)
                        && !worker.shared.control.is_stopped()
                    {
                        worker.stopped = false;
                    }
                });
            }
            let result = self.root_move(mv, depth, alpha, beta, 0);
            recall.store(true, Ordering::Relaxed);
            result
        });
        recall.store(false, Ordering::Relaxed);
        result
    }

    /// Root split (young brothers wait): the first move of the line has been searched; the
    /// moves from `first` on are searched in parallel by this thread and the split's helpers,
    /// each with a null window around the shared alpha (raised by whoever finds better) and a
    /// full-window re-search on a fail high. Returns the best score seen.
    fn split_search(
        &mut self,
        split: &RootSplit<'a, G>,
        depth: i32,
        alpha: i32,
        beta: i32,
        pv_index: usize,
        first: usize,
    ) -> i32 {
        let moves: Vec<Move> = self.root_moves[first..].iter().map(|rm| rm.mv).collect();
        let task = SplitTask {
            moves: &moves,
            depth,
            beta,
            alpha: AtomicI32::new(alpha),
            next: AtomicUsize::new(0),
            cutoff: AtomicBool::new(false),
            offset: first - pv_index,
            results: Mutex::new(Vec::new()),
        };
        let timer = self.timer;
        let completed = self.completed_depth;
        let in_check = self.stack[0].in_check;
        let task = &task;
        split.pool.scope(|scope| {
            for helper in &split.helpers {
                scope.spawn(move |_| {
                    // A helper still busy elsewhere (it cannot be) would only be skipped.
                    if let Ok(mut worker) = helper.try_lock() {
                        worker.timer = timer;
                        worker.completed_depth = completed;
                        worker.root_depth = depth;
                        worker.stack[0].in_check = in_check;
                        worker.stack[0].forcing = worker.forcing(in_check);
                        worker.run_split(task);
                    }
                });
            }
            self.run_split(task);
        });
        self.poll();
        let mut best = -INFINITE;
        for (k, v, searched) in task.results.lock().map(|r| r.clone()).unwrap_or_default() {
            best = best.max(v);
            let rm = &mut self.root_moves[first + k];
            if v > alpha {
                rm.score = v;
                rm.seldepth = searched.seldepth;
                rm.pv = searched.pv;
            } else {
                rm.score = -INFINITE;
            }
        }
        best
    }

    /// One thread's share of a root split: takes moves until none are left.
    fn run_split(&mut self, task: &SplitTask) {
        loop {
            if self.stopped || task.cutoff.load(Ordering::Relaxed) {
                break;
            }
            let k = task.next.fetch_add(1, Ordering::Relaxed);
            let Some(&mv) = task.moves.get(k) else {
                break;
            };
            let alpha = task.alpha.load(Ordering::Relaxed);
            if alpha >= task.beta {
                break;
            }
            self.seldepth = 0;
            let (v, searched) = self.root_move(mv, task.depth, alpha, task.beta, task.offset + k);
            if self.stopped {
                break;
            }
            if v > alpha {
                task.alpha.fetch_max(v, Ordering::Relaxed);
                if v >= task.beta {
                    task.cutoff.store(true, Ordering::Relaxed);
                }
            }
            if let Ok(mut results) = task.results.lock() {
                results.push((k, v, searched));
            }
        }
        self.flush_nodes();
    }

    /// Plays `mv` from the position at `ply`, carrying the evaluation totals along.
    #[inline]
    fn make(&mut self, mv: Move, ply: usize) {
        let e = self.shared.evaluator;
        let next = self.pos.eval_update(e, mv, self.stack[ply].totals);
        self.pos.play(mv);
        self.stack[ply + 1].totals = match next {
            Some(t) => t,
            None => self.pos.eval_totals(e),
        };
    }

    /// The static evaluation of the position at `ply`.
    #[inline]
    fn static_eval(&self, ply: usize) -> i32 {
        let e = self.shared.evaluator;
        let side = self.pos.side_to_move();
        let v = G::eval_score(e, self.stack[ply].totals, side);
        debug_assert_eq!(v, G::eval_score(e, self.pos.eval_totals(e), side));
        v
    }

    #[inline]
    fn reduction(&self, depth: i32, move_count: usize) -> i32 {
        self.reductions[(depth as usize).min(63)][move_count.min(63)] as i32
    }

    /// The alpha-beta search of the node at `ply` (not the root).
    fn search(&mut self, depth: i32, mut alpha: i32, mut beta: i32, ply: usize, cut: bool) -> i32 {
        if depth <= 0 {
            if self.shared.drop_mates && ply < MAX_PLY - 4 && self.pos.quiet_mate_in_one() {
                self.nodes += 1;
                self.unflushed += 1;
                self.pv[ply].clear();
                return MATE - ply as i32 - 1;
            }
            return self.qsearch(alpha, beta, ply);
        }
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.pos.has_lost() {
            return -MATE + ply as i32;
        }
        let in_check = self.pos.in_check();
        self.stack[ply].in_check = in_check;
        self.stack[ply].forcing = self.forcing(in_check);
        if let Some(v) = self.repetition(ply) {
            return v;
        }
        if ply >= MAX_PLY - 4 {
            return self.static_eval(ply);
        }
        // Mate-distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let max_moves = self.shared.max_moves_to_draw;
        if max_moves > 0 && self.pos.move_number() > max_moves {
            // The game is drawn here, unless this is mate.
            return if in_check && !self.pos.has_legal_move() {
                -MATE + ply as i32
            } else {
                0
            };
        }
        let key = self.pos.hash();
        let hit = self.shared.tt.probe(key);
        let tt_move = hit.and_then(|h| h.mv);
        if let Some(h) = hit {
            if !pv_node && h.depth >= depth {
                let s = from_tt(h.score, ply);
                let usable = match h.bound {
                    TtBound::Exact => true,
                    TtBound::Lower => s >= beta,
                    TtBound::Upper => s <= alpha,
                };
                if usable {
                    return s;
                }
            }
        }
        let static_eval = if in_check {
            -INFINITE
        } else {
            self.static_eval(ply)
        };
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].static_eval;

        if !pv_node && !in_check {
            // Reverse futility: far above beta at low depth.
            if depth <= 6 && static_eval - 100 * depth >= beta && beta.abs() < MATE_BOUND {
                return static_eval;
            }
            // Null move (zugzwang is rare in shogi, where pieces in hand can always be
            // dropped, and in the big variants).
            if depth >= 3
                && static_eval >= beta
                && self.stack[ply - 1].current.is_some()
                && beta.abs() < MATE_BOUND
            {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                self.stack[ply].current = None;
                self.stack[ply].moved = None;
                self.stack[ply + 1].plies_from_null = 0;
                self.stack[ply + 1].totals = self.stack[ply].totals;
                self.pos.play_null();
                let v = -self.search(depth - r, -beta, -beta + 1, ply + 1, !cut);
                self.pos.unplay_null();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        // Moves are generated only now: the cut-offs above rarely need them. (A position
        // without legal moves is lost; not in check it is so rare that the pruning above
        // may miss it.)
        let mut moves = MoveList::new();
        self.pos.generate_legal(&mut moves);
        if moves.is_empty() {
            return -MATE + ply as i32;
        }
        let previous = match (self.stack[ply - 1].moved, self.stack[ply - 1].current) {
            (Some(p), Some(m)) => Some((p, m)),
            _ => None,
        };
        let mut picker = Picker::empty();
        picker.fill(&self.pos, &moves, tt_move, &self.heuristics, ply, previous);
        let checks = self.pos.checks();
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut move_count = 0usize;
        let mut quiets: ArrayVec<(usize, Move), 64> = ArrayVec::new();
        let original_alpha = alpha;
        while let Some((mv, order)) = picker.pick() {
            let quiet = !mv.is_promotion() && !self.pos.is_capture(mv);
            let gives_check = self.pos.checks_gives_check(&checks, mv);
            move_count += 1;
            let moved = self.pos.moved_slot(mv);
            if best > -MATE_BOUND && !in_check && !gives_check {
                if quiet {
                    // Move-count pruning.
                    let limit = 3 + (depth * depth) as usize * if improving { 2 } else { 1 };
                    if depth <= 5 && move_count > limit {
                        continue;
                    }
                    // Futility pruning.
                    if depth <= 4 && static_eval + 150 + 120 * depth <= alpha {
                        continue;
                    }
                } else if depth <= 4 && is_bad_capture(order) && self.pos.see(mv) < -120 * depth {
                    continue;
                }
            }
            let extension = i32::from(
                gives_check && ply < 2 * self.root_depth as usize && self.pos.see(mv) >= 0,
            );
            let new_depth = depth - 1 + extension;
            self.stack[ply].current = Some(mv);
            self.stack[ply].moved = Some(self.pos.landed_slot(mv));
            self.stack[ply + 1].plies_from_null = self.stack[ply].plies_from_null + 1;
            self.make(mv, ply);
            let mut v;
            if move_count == 1 {
                v = -self.search(new_depth, -beta, -alpha, ply + 1, !pv_node && !cut);
            } else {
                let mut r = 0;
                if depth >= 3 && move_count > 1 + usize::from(pv_node) && quiet && !in_check {
                    r = self.reduction(depth, move_count);
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if cut {
                        r += 1;
                    }
                    if order >= (1 << 25) {
                        // Killer or counter move.
                        r -= 1;
                    } else {
                        r -= order / 6000;
                    }
                    if gives_check {
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                v = -self.search(new_depth - r, -alpha - 1, -alpha, ply + 1, true);
                if v > alpha && r > 0 {
                    v = -self.search(new_depth, -alpha - 1, -alpha, ply + 1, !cut);
                }
                if pv_node && v > alpha && v < beta {
                    v = -self.search(new_depth, -beta, -alpha, ply + 1, false);
                }
            }
            self.pos.unplay();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(mv);
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let line = &mut head[ply];
                        line.clear();
                        line.push(mv);
                        let room = MAX_PLY - 1;
                        line.extend(tail[0].iter().copied().take(room));
                    }
                    if v >= beta {
                        if quiet {
                            let bonus = (depth * depth * 16).min(HISTORY_BONUS_MAX);
                            self.heuristics.add_killer(ply, mv);
                            self.heuristics.set_counter(previous, mv);
                            self.heuristics.update_history(moved, mv, bonus);
                            for &(p, q) in &quiets {
                                self.heuristics.update_history(p, q, -bonus);
                            }
                        }
                        break;
                    }
                    alpha = v;
                }
            }
            if quiet && Some(mv) != best_move {
                let _ = quiets.try_push((moved, mv));
            }
        }
        if best == -INFINITE {
            // Every move was pruned (cannot happen: the first move is always searched).
            best = alpha;
        }
        let bound = if best >= beta {
            TtBound::Lower
        } else if best > original_alpha && best_move.is_some() {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        self.shared.tt.store(
            key,
            best_move,
            to_tt(best, ply),
            if in_check { 0 } else { static_eval },
            depth,
            bound,
        );
        best
    }

    /// Quiescence search: captures only (all evasions when in check), with stand-pat.
    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.visit() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.pos.has_lost() {
            return -MATE + ply as i32;
        }
        let in_check = self.pos.in_check();
        self.stack[ply].in_check = in_check;
        self.stack[ply].forcing = self.forcing(in_check);
        if ply >= MAX_PLY - 4 {
            return self.static_eval(ply);
        }
        let key = self.pos.hash();
        let hit = self.shared.tt.probe(key);
        if let Some(h) = hit {
            let s = from_tt(h.score, ply);
            let usable = match h.bound {
                TtBound::Exact => true,
                TtBound::Lower => s >= beta,
                TtBound::Upper => s <= alpha,
            };
            if usable {
                return s;
            }
        }
        let mut moves = MoveList::new();
        let stand_pat;
        if in_check {
            self.pos.generate_legal(&mut moves);
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            stand_pat = -INFINITE;
        } else {
            stand_pat = self.static_eval(ply);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            self.pos.generate_captures(&mut moves);
        }
        let original_alpha = alpha;
        let mut best = stand_pat;
        let mut best_move = None;
        let mut picker = Picker::empty();
        picker.fill_captures(&self.pos, &moves);
        let mut searched = 0;
        while let Some((mv, _)) = picker.pick() {
            if !in_check {
                let victim = self.pos.victim_value(mv);
                if stand_pat + victim + self.pos.promotion_gain(mv) + 200 <= alpha {
                    continue;
                }
                if self.pos.mover_value(mv) > victim && self.pos.see(mv) < 0 {
                    continue;
                }
            } else if searched > 0 && mv.is_drop() && best > -MATE_BOUND {
                // Interposing drops after a real defence was found: rarely better.
                continue;
            }
            searched += 1;
            self.make(mv, ply);
            let v = -self.qsearch(-beta, -alpha, ply + 1);
            self.pos.unplay();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(mv);
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            TtBound::Lower
        } else if best > original_alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        self.shared.tt.store(
            key,
            best_move,
            to_tt(best, ply),
            if in_check { 0 } else { stand_pat },
            0,
            bound,
        );
        best
    }

    /// Iterative deepening. The main thread (`report` given) keeps time and reports; helper
    /// threads start at staggered depths and run until the abort flag rises.
    pub fn iterate(
        &mut self,
        max_depth: i32,
        multipv: usize,
        mut report: Option<&mut dyn FnMut(&Info)>,
        split: Option<&RootSplit<'a, G>>,
    ) {
        let multipv = multipv.clamp(1, self.root_moves.len().max(1));
        // The root split serves one PV line only; MultiPV searches on this thread alone.
        let split = split.filter(|_| multipv == 1);
        let mut reported_best = None;
        let mut depth = 1;
        while depth <= max_depth {
            // Helpers skip every other depth (odd helpers the even ones, even helpers the
            // odd ones past depth 4), so they run ahead of the main thread and fill the
            // shared table with deeper results instead of repeating its work.
            if self.id > 0
                && depth > 2
                && (depth as usize + self.id).is_multiple_of(2)
                && depth < max_depth
            {
                depth += 1;
                continue;
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
            }
            for pv_index in 0..multipv {
                self.seldepth = 0;
                let previous = self.root_moves[pv_index].previous_score;
                let mut delta = 35;
                let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE_BOUND {
                    (
                        (previous - delta).max(-INFINITE),
                        (previous + delta).min(INFINITE),
                    )
                } else {
                    (-INFINITE, INFINITE)
                };
                loop {
                    let v = self.root_search(depth, alpha, beta, pv_index, split);
                    self.root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                    if self.stopped {
                        break;
                    }
                    if v <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (v - delta).max(-INFINITE);
                        if let Some(report) = report.as_deref_mut() {
                            let info = self.info(depth, pv_index, v, Bound::Upper);
                            report(&info);
                        }
                    } else if v >= beta {
                        beta = (v + delta).min(INFINITE);
                        if let Some(report) = report.as_deref_mut() {
                            let info = self.info(depth, pv_index, v, Bound::Lower);
                            report(&info);
                        }
                    } else {
                        break;
                    }
                    delta += delta / 2 + 10;
                    if delta > 1000 {
                        alpha = -INFINITE;
                        beta = INFINITE;
                    }
                }
                if self.stopped {
                    // Lines before this one are complete; this one may not be: keep it out.
                    break;
                }
                let done = pv_index.min(self.root_moves.len() - 1);
                self.root_moves[..=done].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if self.stopped {
                // A move that beat the best in the unfinished iteration will be played: say so.
                if let Some(report) = report.as_deref_mut() {
                    if self.completed_depth > 0 && Some(self.root_moves[0].mv) != reported_best {
                        self.flush_nodes();
                        let info = self.info(depth, 0, self.root_moves[0].score, Bound::Lower);
                        report(&info);
                    }
                }
                break;
            }
            self.completed_depth = depth;
            if let Some(report) = report.as_deref_mut() {
                self.flush_nodes();
                for k in 0..multipv {
                    let info = self.info(depth, k, self.root_moves[k].score, Bound::Exact);
                    report(&info);
                }
                reported_best = Some(self.root_moves[0].mv);
            }
            if self.timer.is_some() && self.enough(depth) {
                break;
            }
            depth += 1;
        }
    }

    /// The main thread's judgement, after an iteration, that searching on is pointless.
    fn enough(&mut self, depth: i32) -> bool {
        let control = self.shared.control;
        let best = self.root_moves[0].score;
        let Some(timer) = &mut self.timer else {
            return false;
        };
        timer.poll_ponder(control);
        if timer.untimed() {
            return false;
        }
        if best.abs() >= MATE_BOUND && depth >= MATE - best.abs() + 2 {
            return true;
        }
        let elapsed = timer.start.elapsed();
        if let Some(soft) = timer.budget.soft {
            if self.root_moves.len() == 1 {
                return true;
            }
            if Some(soft) == timer.budget.hard {
                // Byoyomi that is lost if unused: think until the hard limit stops the
                // search; the last completed iteration's move stands if it is cut short.
                return false;
            }
            if elapsed.as_secs_f64() >= soft.as_secs_f64() * 0.55 {
                return true;
            }
        }
        false
    }

    /// A progress report of PV line `k`, with the PV cut where it stops being legal.
    pub fn info(&self, depth: i32, k: usize, score: i32, bound: Bound) -> Info {
        let rm = &self.root_moves[k];
        let elapsed = self
            .timer
            .as_ref()
            .map_or(Duration::ZERO, |t| t.start.elapsed());
        Info {
            depth: depth as u32,
            seldepth: rm.seldepth.max(depth as usize) as u32,
            multipv: k + 1,
            score: to_score(score),
            bound,
            nodes: self.total_nodes(),
            elapsed,
            hashfull: self.shared.tt.hashfull(),
            pv: legal_prefix(&self.pos, &rm.pv),
        }
    }
}

const HISTORY_BONUS_MAX: i32 = 2000;

/// The longest prefix of `line` that is legal from `pos`.
pub fn legal_prefix<G: SearchGame>(pos: &G, line: &[Move]) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for &mv in line {
        let mut legal = MoveList::new();
        pos.generate_legal(&mut legal);
        if !legal.contains(&mv) {
            break;
        }
        out.push(mv);
        pos.play(mv);
    }
    out
}
