//! Search: finding the best move of a position under limits, reporting progress as it goes.
//!
//! This module owns the interface the protocol layers (`usi`, `cli`) talk to: the limits of a
//! search, its control flags (stop, ponder), the progress reports and the result. The
//! algorithms live in the submodules: `alphabeta` (iterative deepening, PVS, quiescence),
//! written once against `game::SearchGame` and implemented per variant in `variants`
//! (exchange values, check detection, evaluation hooks), `ordering` (killers, history,
//! counter-moves, the move picker), `tt` (the shared transposition table), `time` (time
//! budgets), `mate` (the shogi `go mate` solver) and `threads` (the thread pool, the
//! parallel modes and the vote that picks one move from the threads' results).

pub mod alphabeta;
pub mod chance;
pub mod game;
pub mod mate;
pub mod memory_hints;
pub mod ordering;
pub mod params;
pub mod picker;
pub mod table_memory;
pub mod table_slot;
pub mod threads;
pub mod time;
pub mod time_text;
pub mod tt;
pub mod variants;

use crate::eval::board12_choice::Board12Evaluator;
use crate::eval::nnue::features::NetGame;
use crate::eval::nnue::Network;
use crate::eval::shogi::Evaluator;
use crate::eval::shogi_choice::ShogiEvaluator;
use crate::rules::moves::{Move, MoveList};
use crate::rules::variants::{chu, kagamigi};
use alphabeta::{Shared, Timer, MAX_PLY};
use game::SearchGame;
use ordering::{Heuristics, OptionalTables, Shelf};
use picker::{Picked, Picker};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
pub use threads::ParallelMode;
use threads::SearchPool;
use tt::TranspositionTable;

/// A side's clock as sent by `go` (milliseconds; all optional in USI).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Remaining main time per colour (index = `Color::index()`).
    pub time_left: [Option<Duration>; 2],
    /// Fischer increment per colour.
    pub increment: [Option<Duration>; 2],
    /// Byoyomi (per-move allowance once main time is spent).
    pub byoyomi: Option<Duration>,
    /// Moves to play, this one included, before the clock is filled again (CECP's
    /// `level MPS …` sessions); `None`: the time left is for the rest of the game.
    pub moves_to_go: Option<u32>,
}

/// What bounds a search. Absent limits do not limit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub clock: Clock,
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Search until stopped (`go infinite`).
    pub infinite: bool,
    /// Restrict the root to these moves (`searchmoves`).
    pub root_moves: Vec<Move>,
}

/// Settings that persist between searches (from USI options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub threads: usize,
    /// How threads beyond the first are used.
    pub parallel: ParallelMode,
    pub multipv: usize,
    /// Average transport latency subtracted from planned times (ms).
    pub network_delay: Duration,
    /// Worst-case latency used for the hard limit.
    pub network_delay2: Duration,
    /// Plies after which the game is a draw (0 = no limit).
    pub max_moves_to_draw: u32,
    /// The deepest iteration any search may reach (0 = no cap), whatever `go` says: a
    /// handicap, and a fixed-depth player for matches (`DepthLimit`).
    pub depth_limit: u32,
    /// How the chance games' search treats chance nodes (`ChanceAlgorithm`).
    pub chance_algorithm: chance::ChanceAlgorithm,
    /// The alpha-beta search's tunable numbers (hidden `Search_…` options).
    pub params: params::SearchParams,
}

impl Config {
    /// `go`'s depth limit under the `DepthLimit` cap.
    pub fn capped_depth(&self, requested: Option<u32>) -> Option<u32> {
        match (requested, self.depth_limit) {
            (r, 0) => r,
            (Some(r), cap) => Some(r.min(cap)),
            (None, cap) => Some(cap),
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 1,
            parallel: ParallelMode::default(),
            multipv: 1,
            network_delay: Duration::from_millis(120),
            network_delay2: Duration::from_millis(1120),
            max_moves_to_draw: 0,
            depth_limit: 0,
            chance_algorithm: chance::ChanceAlgorithm::default(),
            params: params::SearchParams::default(),
        }
    }
}

/// Flags the protocol thread uses to steer a running search.
#[derive(Clone, Debug, Default)]
pub struct Control {
    stop: Arc<AtomicBool>,
    pondering: Arc<AtomicBool>,
}

impl Control {
    pub fn new(pondering: bool) -> Control {
        let control = Control::default();
        control.pondering.store(pondering, Ordering::SeqCst);
        control
    }
    /// The stop flag itself, for searches that poll a flag of their own (the chance search).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }
    /// Asks the search to finish as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// The opponent played the expected move: the clock now counts.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::SeqCst);
    }
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (a pawn is about 100).
    Cp(i32),
    /// Mate in this many plies: positive when the side to move mates, negative when mated.
    Mate(i32),
}

/// Whether a reported score is exact or only a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One progress report (one `info` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Transposition-table fill, per mille.
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// What a finished search decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play this move; `ponder` is the expected reply, if any.
    Move { best: Move, ponder: Option<Move> },
    /// No legal move: resign.
    Resign,
    /// Declare a win by entering king.
    DeclareWin,
}

/// The engine's long-lived search state (transposition table, thread pool).
pub struct Searcher {
    hash_mb: usize,
    tt: TranspositionTable,
    pool: SearchPool,
    last_nodes: u64,
    /// The value of the move the last search chose, from the side to move's view.
    last_score: Option<Score>,
    /// The standard shogi evaluation: the tables (replaced for self-play experiments) and
    /// the net, when one is loaded.
    shogi_evaluator: ShogiEvaluator,
    /// The 12×12 games' evaluations: their tables, or a net when one is loaded.
    chu_evaluator: Board12Evaluator<chu::Position>,
    kagamigi_evaluator: Board12Evaluator<kagamigi::Position>,
    /// Look for drop mates in one at the quiescence horizon.
    pub drop_mates: bool,
    /// The threads' heuristics between searches (`Search_KeepHistory`).
    shelf: Shelf,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            hash_mb,
            tt: TranspositionTable::new(hash_mb),
            pool: SearchPool::default(),
            last_nodes: 0,
            last_score: None,
            shogi_evaluator: ShogiEvaluator::standard().clone(),
            chu_evaluator: Board12Evaluator::with_net(None),
            kagamigi_evaluator: Board12Evaluator::with_net(None),
            drop_mates: true,
            shelf: Shelf::default(),
        }
    }

    /// Resizes the transposition table (memory stays within `hash_mb` MiB); a table whose
    /// fill was interrupted is made again even at the same size.
    pub fn set_hash_size(&mut self, hash_mb: usize) {
        if hash_mb != self.hash_mb || self.tt.is_interrupted() {
            self.hash_mb = hash_mb;
            // Free the old table before allocating the new one.
            self.tt = TranspositionTable::new(0);
            self.tt = TranspositionTable::new(hash_mb);
        }
    }

    /// Whether the table's fill was interrupted (see `table_memory::interruptible`).
    pub fn table_interrupted(&self) -> bool {
        self.tt.is_interrupted()
    }

    /// The table's size in MiB if it is smaller than `hash_mb` because memory ran short.
    pub fn reduced_table_mib(&self) -> Option<usize> {
        self.tt
            .is_reduced()
            .then(|| self.tt.allocated_bytes() >> 20)
    }

    /// Forgets everything learned (new game, `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.shelf.clear();
    }

    /// Searches standard shogi with another evaluation (for comparing evaluation settings
    /// by self-play).
    pub fn set_evaluator(&mut self, evaluator: &'static Evaluator) {
        self.shogi_evaluator.tables = evaluator;
    }

    /// Searches standard shogi with the net `net` (`None`: with the tables). A different
    /// net forgets the table and the histories: their bounds came from the other evaluation.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        if !self.shogi_evaluator.has_net(&net) {
            self.clear();
            self.shogi_evaluator.net = net;
        }
    }

    /// Searches `game` with the net `net` (`None`: with its hand-written evaluation). A
    /// different net forgets the table and the histories. Shogammon is the chance searcher's
    /// (`ChanceSearcher::set_shogammon_network`): nothing changes here.
    pub fn set_game_network(&mut self, game: NetGame, net: Option<Arc<Network>>) {
        debug_assert!(net.as_ref().is_none_or(|n| n.features.game() == game));
        let changed = match game {
            NetGame::Shogi => return self.set_network(net),
            NetGame::Shogammon => return,
            NetGame::Chu => !self.chu_evaluator.has_net(&net),
            NetGame::Kagamigi => !self.kagamigi_evaluator.has_net(&net),
        };
        if changed {
            self.clear();
            match game {
                NetGame::Chu => self.chu_evaluator = Board12Evaluator::with_net(net),
                _ => self.kagamigi_evaluator = Board12Evaluator::with_net(net),
            }
        }
    }

    /// Nodes visited by all threads in the last search.
    pub fn last_nodes(&self) -> u64 {
        self.last_nodes
    }

    /// The value of the move the last search chose (side to move's view); `None` before
    /// any search and after one that found no move.
    pub fn last_score(&self) -> Option<Score> {
        self.last_score
    }

    /// The transposition table's size in bytes.
    pub fn hash_bytes(&self) -> usize {
        self.tt.allocated_bytes()
    }

    /// Searches `position` (whose history is the game so far) and returns the decision.
    /// `report` is called for each progress line; `control` can stop the search at any time.
    /// Returns only after `control` has been stopped when the search is `infinite` or
    /// pondering (USI: no `bestmove` before `stop`/`ponderhit`).
    pub fn search<G: SearchGame>(
        &mut self,
        position: &G,
        limits: &Limits,
        config: &Config,
        control: &Control,
        report: &mut dyn FnMut(&Info),
    ) -> Decision {
        let evaluators = (
            self.shogi_evaluator.clone(),
            self.chu_evaluator.clone(),
            self.kagamigi_evaluator.clone(),
        );
        let evaluator = evaluator_for::<G>(&evaluators);
        self.search_with(position, evaluator, limits, config, control, report)
    }

    /// [`Searcher::search`] with the given evaluation tables.
    fn search_with<G: SearchGame>(
        &mut self,
        position: &G,
        evaluator: &G::Evaluator,
        limits: &Limits,
        config: &Config,
        control: &Control,
        report: &mut dyn FnMut(&Info),
    ) -> Decision {
        let start = Instant::now();
        let mut legal = MoveList::new();
        position.generate_legal(&mut legal);
        let mut root: Vec<Move> = if limits.root_moves.is_empty() {
            legal.to_vec()
        } else {
            let chosen: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| limits.root_moves.contains(m))
                .collect();
            if chosen.is_empty() {
                legal.to_vec()
            } else {
                chosen
            }
        };
        self.last_score = None;
        if root.is_empty() {
            wait_for_stop(limits, control);
            return Decision::Resign;
        }
        // A first ordering: captures and promotions first.
        let heuristics = Heuristics::new::<G>(1, OptionalTables::default());
        let mut picker = Picker::empty();
        picker.start_listed(position, &root, &heuristics);
        root.clear();
        while let Some(Picked { mv, .. }) = picker.pick(position, &heuristics, &[None, None]) {
            root.push(mv);
        }

        let threads = config.threads.max(1);
        self.tt.new_search();
        let us = position.side_to_move();
        let game_ply = position.move_number().saturating_sub(1);
        let budget = time::budget(limits, config, us, game_ply);
        let shared = Shared {
            tt: &self.tt,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            control,
            evaluator,
            max_moves_to_draw: config.max_moves_to_draw,
            drop_mates: self.drop_mates,
            recall: AtomicBool::new(false),
            params: config
                .params
                .for_game(G::TREE_SETTING, G::evaluates_by_net(evaluator)),
            shelf: &self.shelf,
        };
        let timer = Timer {
            start,
            budget,
            infinite: limits.infinite,
            pondering: control.is_pondering(),
            node_limit: limits.nodes,
        };
        let max_depth = config
            .capped_depth(limits.depth)
            .map_or(MAX_PLY as i32 - 8, |d| {
                (d as i32).clamp(1, MAX_PLY as i32 - 8)
            });
        let multipv = config.multipv.max(1);
        let job = threads::Job {
            position,
            root: &root,
            shared: &shared,
            timer,
            max_depth,
            multipv,
            threads,
            mode: config.parallel,
        };
        let pool = self.pool.for_job(&job);
        let (sender, receiver) = crossbeam_channel::unbounded::<Info>();
        // The search runs on threads with large stacks; this thread relays its reports.
        let (main, helpers) = std::thread::scope(|scope| {
            let job = &job;
            let inline_sender = sender.clone();
            let spawned = if threads::on_search_stack() {
                None
            } else {
                Some(
                    std::thread::Builder::new()
                        .name("search-main".to_string())
                        .stack_size(threads::STACK_BYTES)
                        .spawn_scoped(scope, move || threads::run(job, pool, sender)),
                )
            };
            match spawned {
                Some(Ok(handle)) => {
                    drop(inline_sender);
                    for info in receiver.iter() {
                        report(&info);
                    }
                    handle.join().expect("the search thread finished")
                }
                Some(Err(err)) => {
                    // Out of memory for a thread: search on this one, alone.
                    log::error!("no search thread ({err}): searching on the caller's thread");
                    let result = threads::run(job, None, inline_sender);
                    for info in receiver.try_iter() {
                        report(&info);
                    }
                    result
                }
                None => {
                    // This thread already has a search's stack.
                    let result = threads::run(job, pool, inline_sender);
                    for info in receiver.try_iter() {
                        report(&info);
                    }
                    result
                }
            }
        });
        self.last_nodes = shared.nodes.load(Ordering::SeqCst);
        // With one PV line, the threads vote; MultiPV plays the main thread's first line.
        let best = if multipv == 1 && !helpers.is_empty() {
            let mut choices = vec![main];
            choices.extend(helpers);
            let chosen = threads::vote(&choices).clone();
            if chosen.thread != 0 {
                // Say which line is played.
                report(&Info {
                    depth: chosen.depth as u32,
                    seldepth: chosen.seldepth.max(chosen.depth as usize) as u32,
                    multipv: 1,
                    score: alphabeta::to_score(chosen.score),
                    bound: Bound::Exact,
                    nodes: self.last_nodes,
                    elapsed: start.elapsed(),
                    hashfull: self.tt.hashfull(),
                    pv: chosen.line.clone(),
                });
            }
            chosen
        } else {
            main
        };
        wait_for_stop(limits, control);
        self.last_score = Some(alphabeta::to_score(best.score));
        let threads::ThreadChoice { mv: best, line, .. } = best;
        let mut after = position.clone();
        after.play(best);
        let ponder = line.get(1).copied().filter(|&reply| {
            let mut replies = MoveList::new();
            after.generate_legal(&mut replies);
            replies.contains(&reply)
        });
        Decision::Move { best, ponder }
    }
}

/// The evaluation for `G`: shogi's or a 12×12 game's as the searcher holds them
/// (`evaluators`), every other game's standard one.
fn evaluator_for<G: SearchGame>(
    evaluators: &(
        ShogiEvaluator,
        Board12Evaluator<chu::Position>,
        Board12Evaluator<kagamigi::Position>,
    ),
) -> &G::Evaluator {
    let (shogi, chu, kagamigi) = evaluators;
    let held: [&dyn std::any::Any; 3] = [shogi, chu, kagamigi];
    held.into_iter()
        .find_map(|e| e.downcast_ref::<G::Evaluator>())
        .unwrap_or_else(|| G::default_evaluator())
}

/// Blocks while the search is infinite or pondering and not yet stopped.
fn wait_for_stop(limits: &Limits, control: &Control) {
    while (limits.infinite || control.is_pondering()) && !control.is_stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[cfg(test)]
pub(crate) mod tests;
