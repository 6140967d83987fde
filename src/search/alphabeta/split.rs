//! The root split (young brothers wait): the moves of a PV line after the first are shared
//! out over a pool of helper workers, each searched with a null window around a shared alpha;
//! while the main thread searches the first move, the helpers search it too to fill the table.

use super::score::INFINITE;
use super::{Searched, Worker};
use crate::rules::moves::Move;
use crate::search::game::SearchGame;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The shallowest iteration whose root moves are shared out in root-split mode (shallower
/// ones are too quick to be worth the hand-over).
pub(super) const SPLIT_MIN_DEPTH: i32 = 4;

/// The helpers of the root-split mode: workers that search root moves handed out by the
/// main thread, on the pool the main thread runs on.
pub struct RootSplit<'a, G: SearchGame> {
    pub pool: &'a rayon::ThreadPool,
    pub helpers: Vec<Mutex<Worker<'a, G>>>,
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

impl<'a, G: SearchGame> Worker<'a, G> {
    /// The first root move of a root split, searched by this thread while the helpers search
    /// it too (Lazy SMP style, every other one a ply deeper) to fill the shared table; they
    /// are called back as soon as this thread has its score.
    pub(super) fn first_with_helpers(
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
    pub(super) fn split_search(
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
}
