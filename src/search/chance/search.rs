//! The chance searcher: iterative deepening over a tree of decision and chance nodes, PVS
//! (fail-soft negamax) at decision nodes and Star1/Star2 at chance nodes (docs/ARCHITECTURE.md,
//! "The chance search"), with a two-bound transposition table, move ordering (table move,
//! captures, history), limits and a stop flag.
//!
//! Every recursive call returns its node's value from the point of view `pov` it was given
//! (see the module header of `chance`). Decision results are stored in the table from the
//! mover's point of view, chance results from Sente's. Win scores are stored relative to the
//! node (`±W` itself means "no information" and is stored as is).
//!
//! This module owns the searcher's state, its public entry points, the limits and node
//! counting, and the dispatch of a node to its kind. The rest lives in the submodules:
//! `root` (iterative deepening, chance roots), `decision` (PVS and move ordering), `chance_node`
//! (Star1/Star2), `table` (the table's keys, bounds and score form), `principal` (the lines
//! reported) and `parallel` (root splitting over a thread pool). The entry points search a
//! copy of the game wrapped in a [`NetBoard`], which keeps the accumulator of the game's net
//! (the Madness's shogi board's, Shogammon's) from node to node; the values of the leaves a
//! search has evaluated are kept in a `LeafCache` (`chance::leaf_cache`).

use super::leaf_cache::LeafCache;
use super::net_board::NetBoard;
use super::reference::expectimax_at_ply;
use super::tt::ChanceTable;
use super::{
    static_value, terminal_value, ChanceGame, ChanceLimits, ChanceResult, ChanceSettings, Depth,
    LeafEvaluators, OutcomeLine, TableReuse, Value,
};
use crate::eval::nnue::Network;
use crate::rules::game::{NodeKind, Weight};
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};
use crate::rules::zobrist::KeyStream;
use chance_node::OutcomeSlot;
use decision::{Candidate, HISTORY_SIZE};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

mod chance_node;
mod decision;
mod parallel;
mod principal;
mod root;
mod table;

const WIN: i32 = Value::WIN.0;
const LOSS: i32 = Value::LOSS.0;
const MAX_PLY: usize = Value::MAX_PLY as usize;
/// The principal variation is tracked this many plies deep.
const PV_PLIES: usize = 64;

/// The long-lived state of the chance search (table, history, scratch stacks). One per
/// thread; generic over nothing, its search methods are monomorphised per game.
pub struct ChanceSearcher {
    settings: ChanceSettings,
    /// Shared with the helpers of a parallel search.
    table: Arc<ChanceTable>,
    /// Searchers of the other threads of a parallel search (kept between searches).
    helpers: Vec<ChanceSearcher>,
    /// Per colour and folded action bits: how often the action caused a cutoff.
    history: Vec<i32>,
    /// Candidates of every decision node on the current path (a stack of slices).
    candidates: Vec<Candidate>,
    /// Outcomes of every chance node on the current path.
    slots: Vec<OutcomeSlot>,
    scratch: Box<MoveList>,
    pv_moves: Vec<Option<Move>>,
    pv_len: Vec<usize>,
    /// Keys folded into the table key per ply under [`TableReuse::Exact`].
    ply_keys: Vec<u64>,
    nodes: u64,
    aborted: bool,
    stop: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// In a parallel search: every thread's nodes, added in steps of `NODE_POLL`.
    shared_nodes: Option<Arc<AtomicU64>>,
    /// The evaluations handed to [`ChanceGame::evaluate`]: the shogi board's (the Madness
    /// values its board with it: the hand-written tables, or a net when one is set), and
    /// Shogammon's net when one is set.
    evals: LeafEvaluators,
    /// Values of the leaves this search has evaluated.
    leaves: LeafCache,
    /// Per root action (by its index in the root's legal actions), the value its last search
    /// in this search's iterations returned, the root mover's view (exact or a bound): the
    /// order of the next iteration's root actions after the table's move.
    root_values: Vec<Option<i32>>,
}

/// Nodes between two looks at the clock, the stop flag and the shared node count.
const NODE_POLL: u64 = 1024;

/// What one search is asked for, handed by the entry points to the iterative deepening:
/// whose point of view, the limits, the stop flag, and what to call after each completed
/// iteration.
struct Request<'a> {
    pov: Color,
    limits: &'a ChanceLimits,
    stop: &'a Arc<AtomicBool>,
    report: &'a mut dyn FnMut(&ChanceResult),
}

impl ChanceSearcher {
    pub fn new(settings: ChanceSettings) -> ChanceSearcher {
        let table = ChanceTable::new(if settings.table == TableReuse::Off {
            0
        } else {
            settings.hash_mb
        });
        ChanceSearcher::sharing(settings, Arc::new(table))
    }

    /// A searcher using `table` (shared with other threads).
    fn sharing(settings: ChanceSettings, table: Arc<ChanceTable>) -> ChanceSearcher {
        let mut keys = KeyStream::new(0xC4A2_CE5E_A2C4_0001);
        ChanceSearcher {
            settings,
            table,
            helpers: Vec::new(),
            history: vec![0; 2 * HISTORY_SIZE],
            candidates: Vec::with_capacity(1 << 14),
            slots: Vec::with_capacity(1 << 10),
            scratch: Box::new(MoveList::new()),
            pv_moves: vec![None; PV_PLIES * PV_PLIES],
            pv_len: vec![0; MAX_PLY + 2],
            ply_keys: (0..=MAX_PLY + 1).map(|_| keys.next_key()).collect(),
            nodes: 0,
            aborted: false,
            stop: None,
            deadline: None,
            node_limit: None,
            shared_nodes: None,
            evals: LeafEvaluators::standard().clone(),
            leaves: LeafCache::default(),
            root_values: Vec::new(),
        }
    }

    pub fn settings(&self) -> ChanceSettings {
        self.settings
    }

    /// Values shogi boards (the Madness's) with the net `net` from now on (`None`: with the
    /// hand-written tables). A different net forgets the table: its values came from the
    /// other evaluation (under [`TableReuse::Exact`] they would be reused as exact).
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        if !self.evals.shogi.has_net(&net) {
            self.forget();
            self.evals.shogi.net = net;
        }
    }

    /// Evaluates Shogammon with the net `net` correcting its hand-written evaluation from
    /// now on (`None`: the hand-written evaluation alone). A different net forgets the table.
    pub fn set_shogammon_network(&mut self, net: Option<Arc<Network>>) {
        if !crate::eval::nnue::same_net(&self.evals.shogammon, &net) {
            self.forget();
            self.evals.shogammon = net;
        }
    }

    /// Forgets the table and the helpers (which hold the evaluations too). The leaf values
    /// go at the next search's start.
    fn forget(&mut self) {
        self.table.clear();
        self.helpers.clear();
    }

    /// The evaluations this searcher hands to [`ChanceGame::evaluate`].
    pub fn evaluators(&self) -> &LeafEvaluators {
        &self.evals
    }

    /// Changes the settings, reallocating (and so clearing) the table if its size changed.
    pub fn set_settings(&mut self, settings: ChanceSettings) {
        let size = |s: &ChanceSettings| (s.table != TableReuse::Off).then_some(s.hash_mb);
        if size(&settings) != size(&self.settings) || self.table.is_interrupted() {
            self.helpers.clear();
            self.table = Arc::new(ChanceTable::new(0));
            self.table = Arc::new(ChanceTable::new(size(&settings).unwrap_or(0)));
        }
        for helper in &mut self.helpers {
            helper.settings = settings;
        }
        self.settings = settings;
    }

    /// Whether the table's fill was interrupted (see `table_memory::interruptible`).
    pub fn table_interrupted(&self) -> bool {
        self.table.is_interrupted()
    }

    /// The table's size in MiB if it is smaller than the settings ask because memory ran
    /// short.
    pub fn reduced_table_mib(&self) -> Option<usize> {
        self.table
            .is_reduced()
            .then(|| self.table.allocated_bytes() >> 20)
    }

    /// Per-mille fill of the table by the current search (for `info hashfull`).
    pub fn hashfull(&self) -> u32 {
        self.table.hashfull()
    }

    /// Forgets everything learned (new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.helpers.clear();
    }

    /// Searches `game` by iterative deepening until a limit or `stop`, and returns the last
    /// completed iteration's result from `pov`'s point of view (at a decision root usually
    /// the mover; before a roll, the player who will roll). `game` is left as it was.
    pub fn search<G: ChanceGame>(
        &mut self,
        game: &mut G,
        pov: Color,
        limits: &ChanceLimits,
        stop: &Arc<AtomicBool>,
    ) -> ChanceResult {
        self.search_reporting(None, game, pov, limits, stop, &mut |_| {})
    }

    /// [`ChanceSearcher::search`], calling `report` after each completed iteration, and on
    /// the threads of `pool` if one is given: at each iteration's root, a chance node's
    /// outcomes, or a decision node's actions after the first (with a shared α), are shared
    /// out over the pool, every thread with its own history and all with one table. Values
    /// stay exact under [`TableReuse::Exact`]; the node limit holds to within 1024 nodes per
    /// thread.
    pub fn search_reporting<G: ChanceGame>(
        &mut self,
        pool: Option<&rayon::ThreadPool>,
        game: &mut G,
        pov: Color,
        limits: &ChanceLimits,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&ChanceResult),
    ) -> ChanceResult {
        if let Some(pool) = pool {
            let threads = pool.current_num_threads().max(1);
            while self.helpers.len() < threads {
                let helper = ChanceSearcher::sharing(self.settings, Arc::clone(&self.table));
                self.helpers.push(helper);
            }
            self.helpers.truncate(threads);
        }
        let request = Request {
            pov,
            limits,
            stop,
            report,
        };
        // The tree is searched on a copy that keeps the accumulator of its net, if it has one.
        let mut tracked = NetBoard::new(game.clone(), &self.evals);
        self.iterate(&mut tracked, request, pool)
    }

    /// Starts a search (or a helper's part of one) under `limits`.
    fn begin(&mut self, start: Instant, limits: &ChanceLimits, stop: &Arc<AtomicBool>) {
        self.history.iter_mut().for_each(|h| *h /= 8);
        self.root_values.clear();
        self.nodes = 0;
        self.aborted = false;
        self.leaves.clear();
        self.stop = Some(Arc::clone(stop));
        self.deadline = limits.time.map(|t| start + t);
        self.node_limit = limits.nodes;
    }

    /// Nodes of this searcher and its helpers.
    fn total_nodes(&self) -> u64 {
        self.nodes + self.helpers.iter().map(|h| h.nodes).sum::<u64>()
    }

    /// Whether a limit other than depth has been reached between iterations.
    fn should_stop_iterating(&self) -> bool {
        self.stopped_by_flag()
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.node_limit.is_some_and(|n| self.total_nodes() >= n)
    }

    fn stopped_by_flag(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Counts a node and decides whether the search must stop now.
    #[inline]
    fn enter_node(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.node_limit.is_some_and(|n| self.counted_nodes() >= n) {
            self.aborted = true;
            return true;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(NODE_POLL) {
            if let Some(shared) = &self.shared_nodes {
                shared.fetch_add(NODE_POLL, Ordering::Relaxed);
            }
            if self.stopped_by_flag() || self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The nodes that count against the node limit: this thread's, or in a parallel search
    /// every thread's (to within `NODE_POLL` per thread).
    #[inline]
    fn counted_nodes(&self) -> u64 {
        match &self.shared_nodes {
            Some(shared) => shared.load(Ordering::Relaxed) + self.nodes % NODE_POLL,
            None => self.nodes,
        }
    }

    // ----- nodes -----

    /// The value of the current node from `pov`'s view, searched `depth` units deep with the
    /// window `(alpha, beta)` (fail-soft). With `probe_for == Some(c)`, a decision node of `c`
    /// tries only its first action.
    #[allow(clippy::too_many_arguments)]
    fn node<G: ChanceGame>(
        &mut self,
        game: &mut G,
        depth: i32,
        alpha: i32,
        beta: i32,
        pov: Color,
        ply: usize,
        probe_for: Option<Color>,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if self.enter_node() {
            return 0;
        }
        if let Some(outcome) = game.search_outcome() {
            return terminal_value(outcome, pov, ply).0;
        }
        if depth <= 0 || ply >= MAX_PLY {
            let evals = &self.evals;
            return self
                .leaves
                .value(game.hash(), pov, || static_value(game, pov, evals).0);
        }
        match game.node_kind() {
            NodeKind::Decision(mover) => {
                let probing = probe_for == Some(mover);
                if mover == pov {
                    self.decision(game, depth, alpha, beta, mover, ply, probing)
                } else {
                    -self.decision(game, depth, -beta, -alpha, mover, ply, probing)
                }
            }
            NodeKind::Chance(outcomes) => {
                let value = self.chance(game, &outcomes, depth, alpha, beta, pov, ply);
                if self.settings.verify_chance_nodes && !self.aborted {
                    let (truth, _) =
                        expectimax_at_ply(game, Depth(depth as u32), pov, ply, &self.evals);
                    assert_agrees_with_truth(value, truth.0, (alpha, beta));
                }
                value
            }
        }
    }
}

/// The debug oracle (docs/ARCHITECTURE.md, "The chance search"): a chance node's `value`,
/// searched with the window `(alpha, beta)`, against `truth`, plain expectimax of its subtree.
fn assert_agrees_with_truth(value: i32, truth: i32, (alpha, beta): (i32, i32)) {
    if value <= alpha {
        assert!(
            truth <= value,
            "fail low {value} (α {alpha}) above the truth {truth}"
        );
    } else if value >= beta {
        assert!(
            truth >= value,
            "fail high {value} (β {beta}) below the truth {truth}"
        );
    } else {
        assert_eq!(value, truth, "exact value in ({alpha}, {beta}) differs");
    }
}
