//! The threads of one search: the rayon pool they run on ([`SearchPool`], also lent to the
//! chance search), how they share the work ([`ParallelMode`]: Lazy SMP helpers or root
//! split), and which move is played when they disagree ([`vote`]).
//!
//! Every thread runs the same iterative deepening on its own position copy with its own
//! killers, history and counter-moves; they share only the lock-free transposition table,
//! the node count and the abort flag. The main thread alone keeps time, obeys the depth and
//! node limits and reports progress (with the nodes of all threads); when it is done it
//! raises the abort flag, which every helper polls with its node count. Then each thread's
//! deepest completed iteration votes for its move, weighted by depth and score.

use super::alphabeta::{self, RootSplit, Shared, Timer, Worker, MATE_BOUND};
use super::game::SearchGame;
use super::Info;
use crate::rules::moves::Move;
use std::cell::Cell;
use std::sync::atomic::Ordering;
use std::sync::Mutex;

/// Stack size of every search thread, the USI, CECP and `serve` searches alike (the searches
/// recurse with move lists on the stack).
pub const STACK_BYTES: usize = 64 << 20;

thread_local! {
    /// Set on threads started by [`spawn_with_search_stack`].
    static ON_SEARCH_STACK: Cell<bool> = const { Cell::new(false) };
}

/// Starts a scoped thread with the search's stack size. A search started on it runs its main
/// thread right there (reporting its progress when it ends) instead of starting a thread of
/// its own for every search: for callers that search many short searches in a row and read
/// only the result, such as `shishi gensfen`.
pub fn spawn_with_search_stack<'scope, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    name: String,
    body: impl FnOnce() -> T + Send + 'scope,
) -> std::io::Result<std::thread::ScopedJoinHandle<'scope, T>> {
    std::thread::Builder::new()
        .name(name)
        .stack_size(STACK_BYTES)
        .spawn_scoped(scope, move || {
            ON_SEARCH_STACK.with(|flag| flag.set(true));
            body()
        })
}

/// Whether this thread was started by [`spawn_with_search_stack`].
pub fn on_search_stack() -> bool {
    ON_SEARCH_STACK.with(Cell::get)
}

/// How more than one thread share a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ParallelMode {
    /// Every thread searches the whole tree (helpers skip depths by a pattern so they run
    /// ahead of the main thread), sharing the transposition table; the move is voted on.
    /// The default (measurements in `scripts/threads.sh`).
    #[default]
    LazySmp,
    /// The root moves after the first are split across the threads, with a shared alpha
    /// (young brothers wait); while the first root move is searched, the other threads search
    /// it too, Lazy SMP style, to fill the table. Applies to single-PV searches; MultiPV falls
    /// back to Lazy SMP.
    RootSplit,
}

impl ParallelMode {
    /// Every mode, in the order the `ParallelMode` option lists them.
    pub const ALL: [ParallelMode; 2] = [ParallelMode::LazySmp, ParallelMode::RootSplit];

    /// The mode's name as the USI option and the command line spell it.
    pub fn name(self) -> &'static str {
        match self {
            ParallelMode::LazySmp => "lazysmp",
            ParallelMode::RootSplit => "rootsplit",
        }
    }

    /// Parses a name (case-insensitive).
    pub fn from_name(name: &str) -> Option<ParallelMode> {
        match name.to_ascii_lowercase().as_str() {
            "lazysmp" => Some(ParallelMode::LazySmp),
            "rootsplit" => Some(ParallelMode::RootSplit),
            _ => None,
        }
    }
}

/// A rayon pool of search threads (large stacks), kept between searches and rebuilt only
/// when the number of threads changes. One thread needs no pool.
#[derive(Default)]
pub struct SearchPool {
    pool: Option<(usize, rayon::ThreadPool)>,
}

impl SearchPool {
    /// A pool for a search on `threads` threads that all run on the pool (the caller waits);
    /// `None` for one thread or when the threads cannot be had (the search then runs on one
    /// thread, with a warning).
    pub fn get(&mut self, threads: usize) -> Option<&rayon::ThreadPool> {
        if threads <= 1 {
            return None;
        }
        self.sized(threads)
    }

    /// A pool of exactly `threads` threads (at least one), built now if need be.
    fn sized(&mut self, threads: usize) -> Option<&rayon::ThreadPool> {
        let threads = threads.max(1);
        if self.pool.as_ref().map(|(n, _)| *n) != Some(threads) {
            self.pool = None;
            match rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .stack_size(STACK_BYTES)
                .thread_name(|i| format!("search-{i}"))
                .build()
            {
                Ok(pool) => self.pool = Some((threads, pool)),
                Err(err) => log::warn!("no thread pool ({err}); searching on one thread"),
            }
        }
        self.pool.as_ref().map(|(_, pool)| pool)
    }

    /// The pool `job` runs on: Lazy SMP runs the main thread on the caller's thread and the
    /// helpers on the pool (one thread fewer to wake at the start and to wait for at the
    /// end); root split runs every thread on the pool.
    pub fn for_job<G: SearchGame>(&mut self, job: &Job<'_, '_, G>) -> Option<&rayon::ThreadPool> {
        match job.threads {
            0 | 1 => None,
            n if job.splits_root() => self.sized(n),
            n => self.sized(n - 1),
        }
    }
}

/// What one thread would play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadChoice {
    pub mv: Move,
    /// The PV, legal from the root.
    pub line: Vec<Move>,
    /// The iteration the choice comes from.
    pub depth: i32,
    pub seldepth: usize,
    pub score: i32,
    /// The thread's number (0: the main thread).
    pub thread: usize,
}

/// Everything the threads of one search need.
pub struct Job<'s, 'a, G: SearchGame> {
    pub position: &'s G,
    pub root: &'s [Move],
    pub shared: &'s Shared<'a, G>,
    pub timer: Timer,
    pub max_depth: i32,
    pub multipv: usize,
    pub threads: usize,
    pub mode: ParallelMode,
}

impl<G: SearchGame> Job<'_, '_, G> {
    /// Whether the root moves are split over the threads (root split, one PV line).
    fn splits_root(&self) -> bool {
        self.mode == ParallelMode::RootSplit && self.multipv == 1
    }
}

/// Runs `job` on the caller's thread and `pool`'s (from [`SearchPool::for_job`]), and returns the
/// main thread's choice and the helpers' (their deepest completed iterations within the
/// depth limit). `reports` carries the main thread's progress reports.
pub fn run<G: SearchGame>(
    job: &Job<'_, '_, G>,
    pool: Option<&rayon::ThreadPool>,
    reports: crossbeam_channel::Sender<Info>,
) -> (ThreadChoice, Vec<ThreadChoice>) {
    let helper_choices = Mutex::new(Vec::new());
    let main_choice = match pool {
        None => main_thread(job, None, reports),
        Some(pool) if job.splits_root() => pool.install(|| main_thread(job, Some(pool), reports)),
        Some(pool) => pool.in_place_scope(|scope| {
            let helper_choices = &helper_choices;
            for id in 1..job.threads {
                scope.spawn(move |_| {
                    if let Some(choice) = helper_thread(job, id) {
                        helper_choices
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push(choice);
                    }
                });
            }
            main_thread(job, None, reports)
        }),
    };
    let helpers = helper_choices
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    (main_choice, helpers)
}

/// The main thread: keeps time, reports, and stops the helpers when done. With `split`
/// (root-split mode), the other threads serve its root splits.
fn main_thread<G: SearchGame>(
    job: &Job<'_, '_, G>,
    split_pool: Option<&rayon::ThreadPool>,
    reports: crossbeam_channel::Sender<Info>,
) -> ThreadChoice {
    let mut send = |info: &Info| {
        let _ = reports.send(info.clone());
    };
    let shared = job.shared;
    let mut worker = Worker::new(job.position.clone(), shared, 0, job.root);
    worker.timer = Some(job.timer);
    let split = split_pool.map(|pool| RootSplit {
        pool,
        helpers: (1..job.threads)
            .map(|id| Mutex::new(Worker::new(job.position.clone(), shared, id, &[])))
            .collect(),
    });
    worker.iterate(job.max_depth, job.multipv, Some(&mut send), split.as_ref());
    shared.abort.store(true, Ordering::SeqCst);
    worker.poll();
    // The move of the unfinished iteration if it beat the completed one's best (the main
    // thread has reported it so).
    let rm = &worker.root_moves[0];
    ThreadChoice {
        mv: rm.mv,
        line: alphabeta::legal_prefix(&worker.pos, &rm.pv),
        depth: worker.completed_depth,
        seldepth: rm.seldepth,
        score: rm.score,
        thread: 0,
    }
}

/// A Lazy SMP helper: iterates (past the depth limit) until the abort flag rises; returns
/// its deepest completed iteration within the limit, if any.
fn helper_thread<G: SearchGame>(job: &Job<'_, '_, G>, id: usize) -> Option<ThreadChoice> {
    let mut worker = Worker::new(job.position.clone(), job.shared, id, job.root);
    worker.iterate(job.max_depth, 1, None, None);
    worker.poll();
    let (depth, rm) = worker.completed_best.take()?;
    Some(ThreadChoice {
        mv: rm.mv,
        line: alphabeta::legal_prefix(&worker.pos, &rm.pv),
        depth,
        seldepth: rm.seldepth,
        score: rm.score,
        thread: id,
    })
}

/// How much a completed iteration counts in the vote: deeper and better-scored iterations
/// count more. Scores are offset by the worst score among the choices, so every weight is
/// positive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct VoteWeight(i64);

/// The score margin that keeps the weight of the worst-scored choice above zero.
const VOTE_SCORE_FLOOR: i64 = 20;

fn vote_weight(choice: &ThreadChoice, worst_score: i32) -> VoteWeight {
    let score = (choice.score - worst_score) as i64 + VOTE_SCORE_FLOOR;
    VoteWeight(score * choice.depth.max(0) as i64)
}

/// Picks the move to play from the threads' choices (`choices[0]` is the main thread's):
/// a proven win is taken at once (the shortest); otherwise each move collects the weights
/// of the threads that chose it, and the most-voted move is played, from the thread that
/// searched it deepest (then the best score). Choices of no completed iteration do not
/// vote unless nothing else does.
///
/// Apart from a proven win, a helper votes only if it completed a deeper iteration than the
/// main thread. The main thread's choice carries what its unfinished iteration learnt (a
/// best move that failed low there has been replaced); a helper's iteration of the same
/// depth has not learnt it, and its score, from an iteration that ended earlier, is not
/// comparable. In Chu Shogi at 10 s + 0.1 s such stale helper choices outvoted the main
/// thread's refutation of its own best move and played it anyway (scripts/threads.sh).
pub fn vote(choices: &[ThreadChoice]) -> &ThreadChoice {
    let completed: Vec<&ThreadChoice> = choices.iter().filter(|c| c.depth > 0).collect();
    if let Some(win) = completed
        .iter()
        .filter(|c| c.score >= MATE_BOUND)
        .max_by_key(|c| (c.score, c.depth))
    {
        return win;
    }
    let main_depth = choices.first().map_or(0, |c| c.depth);
    let voters: Vec<&ThreadChoice> = completed
        .into_iter()
        .filter(|c| c.thread == 0 || c.depth > main_depth)
        .collect();
    let Some(&first) = voters.first() else {
        return &choices[0];
    };
    let worst = voters.iter().map(|c| c.score).min().unwrap_or(0);
    let mut tally: Vec<(Move, VoteWeight)> = Vec::new();
    for choice in &voters {
        let weight = vote_weight(choice, worst);
        match tally.iter_mut().find(|(mv, _)| *mv == choice.mv) {
            Some((_, total)) => total.0 += weight.0,
            None => tally.push((choice.mv, weight)),
        }
    }
    // Ties go to the move listed first: the main thread's.
    let mut winner = tally[0];
    for &(mv, weight) in &tally[1..] {
        if weight > winner.1 {
            winner = (mv, weight);
        }
    }
    voters
        .iter()
        .filter(|c| c.mv == winner.0)
        .fold(first, |best, &c| {
            if best.mv != winner.0 || (c.depth, c.score) > (best.depth, best.score) {
                c
            } else {
                best
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Square;

    fn choice(to: u8, depth: i32, score: i32, thread: usize) -> ThreadChoice {
        let mv = Move::normal(Square(60), Square(to), false);
        ThreadChoice {
            mv,
            line: vec![mv],
            depth,
            seldepth: depth as usize,
            score,
            thread,
        }
    }

    #[test]
    fn one_thread_plays_its_own_move() {
        let main = choice(50, 7, -30, 0);
        assert_eq!(vote(std::slice::from_ref(&main)), &main);
    }

    #[test]
    fn a_deeper_better_helper_outvotes_the_main_thread() {
        let choices = [choice(50, 10, 0, 0), choice(51, 11, 80, 1)];
        assert_eq!(vote(&choices).thread, 1);
    }

    #[test]
    fn two_threads_agreeing_outvote_a_slightly_better_one() {
        // Move 50: (0+20)*9 + (10+20)*10 = 480; move 51: (25+20)*10 = 450.
        let choices = [
            choice(50, 9, 0, 0),
            choice(51, 10, 25, 1),
            choice(50, 10, 10, 2),
        ];
        let chosen = vote(&choices);
        assert_eq!((chosen.mv.to(), chosen.thread), (Square(50), 2));
    }

    #[test]
    fn a_helper_no_deeper_than_the_main_thread_does_not_outvote_it() {
        // The main thread's best of depth 6 failed low in its unfinished depth-7 iteration
        // and was replaced (score -56); a helper that completed depth 6 earlier still
        // believes the refuted move wins a piece.
        let choices = [choice(50, 6, -56, 0), choice(51, 6, 2815, 1)];
        assert_eq!(vote(&choices).thread, 0);
        // A helper that completed a deeper iteration does vote.
        let deeper = [choice(50, 6, -56, 0), choice(51, 7, 40, 1)];
        assert_eq!(vote(&deeper).thread, 1);
    }

    #[test]
    fn the_shortest_proven_win_is_played() {
        let choices = [
            choice(50, 12, 100, 0),
            choice(51, 9, alphabeta::MATE - 9, 1),
            choice(52, 7, alphabeta::MATE - 5, 2),
        ];
        assert_eq!(vote(&choices).thread, 2);
    }

    #[test]
    fn threads_without_a_completed_iteration_do_not_vote() {
        let choices = [choice(50, 6, 0, 0), choice(51, 0, 500, 1)];
        assert_eq!(vote(&choices).thread, 0);
        let nobody = [choice(50, 0, 0, 0)];
        assert_eq!(vote(&nobody).thread, 0);
    }
}

#[cfg(test)]
mod search_tests {
    use crate::rules::moves::MoveList;
    use crate::rules::variants::shogi::Position;
    use crate::search::{
        Bound, Config, Control, Decision, Info, Limits, ParallelMode, Score, Searcher,
    };

    /// Sente mates in three plies (pawn takes knight and promotes, king to 2a, gold drop).
    const MATE_IN_THREE: &str = "8k/9/8n/8P/9/8L/9/9/K8 b 2GP 1";

    fn search(sfen: &str, depth: u32, threads: usize) -> (Decision, Vec<Info>, u64) {
        let pos = Position::from_sfen(sfen).unwrap();
        let mut searcher = Searcher::new(8);
        let config = Config {
            threads,
            parallel: ParallelMode::LazySmp,
            ..Config::default()
        };
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let mut infos = Vec::new();
        let decision = searcher.search(&pos, &limits, &config, &Control::new(false), &mut |i| {
            infos.push(i.clone())
        });
        (decision, infos, searcher.last_nodes())
    }

    #[test]
    fn lazy_smp_plays_the_mate_one_thread_finds() {
        let best = |decision: Decision| match decision {
            Decision::Move { best, .. } => best,
            other => panic!("{other:?}"),
        };
        let one = best(search(MATE_IN_THREE, 6, 1).0);
        for threads in [2, 3] {
            let (many, infos, _) = search(MATE_IN_THREE, 6, threads);
            assert_eq!(best(many), one, "{threads} threads");
            let last = infos
                .iter()
                .rev()
                .find(|i| i.bound == Bound::Exact)
                .unwrap();
            assert_eq!(last.score, Score::Mate(3), "{threads} threads");
        }
    }

    #[test]
    fn helpers_never_report_or_play_beyond_the_depth_limit() {
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        for depth in [1, 3, 6] {
            let (decision, infos, nodes) = search(start, depth, 3);
            assert!(infos.iter().all(|i| i.depth <= depth), "depth {depth}");
            assert!(infos
                .iter()
                .any(|i| i.depth == depth && i.bound == Bound::Exact));
            // The nodes reported are those of every thread, counted when all are done.
            assert!(infos.iter().all(|i| i.nodes <= nodes), "depth {depth}");
            let Decision::Move { best, .. } = decision else {
                panic!("{decision:?}");
            };
            let mut legal = MoveList::new();
            Position::from_sfen(start)
                .unwrap()
                .generate_legal(&mut legal);
            assert!(legal.contains(&best));
        }
    }
}
