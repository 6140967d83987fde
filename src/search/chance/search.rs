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
//! A chance node first reads what is free: terminal outcomes and (with `outcome_prepass`)
//! the table bounds of each outcome. Star2 then probes: an outcome whose decision belongs to
//! `pov` is searched on its first move only (through consecutive decisions of that player),
//! which bounds it from below, aimed at the node's fail-high threshold; an outcome whose
//! decision belongs to the other colour is probed the same way for an upper bound, aimed at
//! the fail-low threshold. Star1 finally searches every unresolved outcome with the window
//! `(max(a_i, L-1), min(b_i, U+1))`, cutting as soon as the sums prove a fail high or low.

use super::reference::expectimax_at_ply;
use super::tt::{ChanceTable, TableEntry};
use super::window::{bounds_from_result, round_div, ChanceWindow};
use super::{
    static_value, terminal_value, ChanceAlgorithm, ChanceGame, ChanceLimits, ChanceResult,
    ChanceSettings, Depth, OutcomeLine, ProbeWindow, TableReuse, Value,
};
use crate::rules::game::{NodeKind, Weight};
use crate::rules::geometry::Color;
use crate::rules::moves::{Move, MoveList};
use crate::rules::zobrist::KeyStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

mod parallel;

const WIN: i32 = Value::WIN.0;
const LOSS: i32 = Value::LOSS.0;
/// Win scores: at least this far from 0 (a terminal within `MAX_PLY` actions).
const WIN_BAND: i32 = WIN - Value::MAX_PLY;
const MAX_PLY: usize = Value::MAX_PLY as usize;
/// The principal variation is tracked this many plies deep.
const PV_PLIES: usize = 64;
const HISTORY_BITS: u32 = 18;
const HISTORY_SIZE: usize = 1 << HISTORY_BITS;
const HISTORY_MAX: i32 = 1 << 26;
const CAPTURE_BONUS: i32 = 1 << 28;

/// One action of a decision node waiting to be tried.
#[derive(Clone, Copy)]
struct Candidate {
    action: Move,
    /// Its index in the node's `legal_actions` list (what the table stores).
    index: u16,
    score: i32,
}

/// What follows an outcome of a chance node.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Successor {
    /// Decided already (terminal, or both bounds known).
    Resolved,
    Decision(Color),
    /// Another chance node.
    Chance,
}

/// One outcome of a chance node being searched, with its bounds from `pov`'s view.
#[derive(Clone, Copy)]
struct OutcomeSlot {
    outcome: Move,
    weight: i64,
    lo: i32,
    hi: i32,
    successor: Successor,
}

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
}

/// Nodes between two looks at the clock, the stop flag and the shared node count.
const NODE_POLL: u64 = 1024;

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
        }
    }

    pub fn settings(&self) -> ChanceSettings {
        self.settings
    }

    /// Changes the settings, reallocating (and so clearing) the table if its size changed.
    pub fn set_settings(&mut self, settings: ChanceSettings) {
        let size = |s: &ChanceSettings| (s.table != TableReuse::Off).then_some(s.hash_mb);
        if size(&settings) != size(&self.settings) {
            self.helpers.clear();
            self.table = Arc::new(ChanceTable::new(0));
            self.table = Arc::new(ChanceTable::new(size(&settings).unwrap_or(0)));
        }
        for helper in &mut self.helpers {
            helper.settings = settings;
        }
        self.settings = settings;
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
        self.search_reporting(game, pov, limits, stop, &mut |_| {})
    }

    /// [`ChanceSearcher::search`], calling `report` after each completed iteration.
    pub fn search_reporting<G: ChanceGame>(
        &mut self,
        game: &mut G,
        pov: Color,
        limits: &ChanceLimits,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&ChanceResult),
    ) -> ChanceResult {
        self.iterate(game, pov, limits, stop, report, None)
    }

    /// [`ChanceSearcher::search_reporting`] on the threads of `pool`: at each iteration's
    /// root, a chance node's outcomes, or a decision node's actions after the first (with a
    /// shared α), are shared out over the pool, every thread with its own history and all
    /// with one table. Values stay exact under [`TableReuse::Exact`]; the node limit holds to
    /// within 1024 nodes per thread.
    pub fn search_parallel<G: ChanceGame>(
        &mut self,
        pool: &rayon::ThreadPool,
        game: &mut G,
        pov: Color,
        limits: &ChanceLimits,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&ChanceResult),
    ) -> ChanceResult {
        let threads = pool.current_num_threads().max(1);
        while self.helpers.len() < threads {
            let helper = ChanceSearcher::sharing(self.settings, Arc::clone(&self.table));
            self.helpers.push(helper);
        }
        self.helpers.truncate(threads);
        self.iterate(game, pov, limits, stop, report, Some(pool))
    }

    /// Starts a search (or a helper's part of one) under `limits`.
    fn begin(&mut self, start: Instant, limits: &ChanceLimits, stop: &Arc<AtomicBool>) {
        self.history.iter_mut().for_each(|h| *h /= 8);
        self.nodes = 0;
        self.aborted = false;
        self.stop = Some(Arc::clone(stop));
        self.deadline = limits.time.map(|t| start + t);
        self.node_limit = limits.nodes;
    }

    /// Nodes of this searcher and its helpers.
    fn total_nodes(&self) -> u64 {
        self.nodes + self.helpers.iter().map(|h| h.nodes).sum::<u64>()
    }

    fn iterate<G: ChanceGame>(
        &mut self,
        game: &mut G,
        pov: Color,
        limits: &ChanceLimits,
        stop: &Arc<AtomicBool>,
        report: &mut dyn FnMut(&ChanceResult),
        pool: Option<&rayon::ThreadPool>,
    ) -> ChanceResult {
        let start = Instant::now();
        self.table.new_search();
        self.begin(start, limits, stop);
        let parallel = pool.is_some() && !self.helpers.is_empty();
        self.shared_nodes = parallel.then(|| Arc::new(AtomicU64::new(0)));
        let mut helpers = std::mem::take(&mut self.helpers);
        for helper in &mut helpers {
            helper.begin(start, limits, stop);
            helper.shared_nodes = self.shared_nodes.clone();
        }
        self.helpers = helpers;
        let max_depth = limits
            .depth
            .map_or(MAX_PLY as u32 - 1, |d| d.0.clamp(1, MAX_PLY as u32 - 1));

        let mut result = ChanceResult {
            pov,
            value: if game.search_outcome().is_some() {
                game.search_outcome()
                    .map_or(Value::DRAW, |o| terminal_value(o, pov, 0))
            } else {
                static_value(game, pov)
            },
            depth: Depth(0),
            best: Vec::new(),
            pv: Vec::new(),
            outcomes: Vec::new(),
            nodes: 0,
            elapsed: start.elapsed(),
            interrupted: false,
        };
        let chance_root = matches!(game.node_kind(), NodeKind::Chance(_));
        if game.search_outcome().is_none() {
            if !chance_root {
                // Something to play even if the first iteration is cut short.
                let (best, _) = self.ordered_first_action(game);
                result.best.extend(best);
                result.pv.extend(best);
            }
            for depth in 1..=max_depth {
                if self.stopped_by_flag() {
                    result.interrupted = true;
                    break;
                }
                let outcomes = match game.node_kind() {
                    NodeKind::Chance(outcomes) => Some(outcomes),
                    NodeKind::Decision(_) => None,
                };
                let depth_units = depth as i32;
                let (value, lines) = match (outcomes, pool.filter(|_| parallel)) {
                    (Some(outcomes), None) => self.root_chance(game, &outcomes, depth_units, pov),
                    (Some(outcomes), Some(pool)) => {
                        self.root_chance_parallel(pool, game, &outcomes, depth_units, pov)
                    }
                    (None, None) => (
                        self.node(game, depth_units, LOSS - 1, WIN + 1, pov, 0, None),
                        Vec::new(),
                    ),
                    (None, Some(pool)) => (
                        self.root_decision_parallel(pool, game, depth_units, pov),
                        Vec::new(),
                    ),
                };
                if self.aborted {
                    result.interrupted = true;
                    break;
                }
                result.value = Value(value);
                result.depth = Depth(depth);
                result.outcomes = lines;
                if !chance_root {
                    let pv = self.principal_line(game, 0);
                    // Keep the earlier choice if neither the PV nor the table names one.
                    if !pv.is_empty() {
                        result.best = self.turn_prefix(game, &pv);
                        result.pv = pv;
                    }
                }
                result.nodes = self.total_nodes();
                result.elapsed = start.elapsed();
                report(&result);
                if self.should_stop_iterating() {
                    break;
                }
            }
        }
        result.nodes = self.total_nodes();
        result.elapsed = start.elapsed();
        self.stop = None;
        self.shared_nodes = None;
        for helper in &mut self.helpers {
            helper.stop = None;
            helper.shared_nodes = None;
        }
        result
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

    // ----- the table -----

    #[inline]
    fn table_key(&self, hash: u64, ply: usize) -> u64 {
        match self.settings.table {
            TableReuse::Exact => hash ^ self.ply_keys[ply],
            _ => hash,
        }
    }

    #[inline]
    fn usable(&self, entry: &TableEntry, depth: i32) -> bool {
        match self.settings.table {
            TableReuse::Off => false,
            TableReuse::Exact | TableReuse::SameDepth => entry.depth as i32 == depth,
            TableReuse::DeepEnough => entry.depth as i32 >= depth,
        }
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<TableEntry> {
        if self.settings.table == TableReuse::Off {
            None
        } else {
            self.table.probe(key)
        }
    }

    /// Stores bounds `(lower, upper)` (from `viewer`'s point of view, `ply` below the root)
    /// in the table's form: from `stored_as`'s view, win scores relative to the node.
    #[allow(clippy::too_many_arguments)]
    fn store(
        &self,
        key: u64,
        depth: i32,
        (lower, upper): (i32, i32),
        viewer: Color,
        stored_as: Color,
        ply: usize,
        best_index: Option<usize>,
        chance: bool,
    ) {
        if self.settings.table == TableReuse::Off || self.aborted {
            return;
        }
        let (lower, upper) = if viewer == stored_as {
            (lower, upper)
        } else {
            (-upper, -lower)
        };
        self.table.store(
            key,
            depth.max(0) as u32,
            to_table(lower, ply),
            to_table(upper, ply),
            best_index,
            chance,
        );
    }

    /// An entry's bounds from `viewer`'s point of view at `ply`.
    fn entry_bounds(entry: &TableEntry, stored_as: Color, viewer: Color, ply: usize) -> (i32, i32) {
        let (lower, upper) = (from_table(entry.lower, ply), from_table(entry.upper, ply));
        if viewer == stored_as {
            (lower, upper)
        } else {
            (-upper, -lower)
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
            return static_value(game, pov).0;
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
                    self.verify(game, depth, alpha, beta, pov, ply, value);
                }
                value
            }
        }
    }

    /// The debug oracle (docs/ARCHITECTURE.md, "The chance search"): the chance node's result
    /// against plain expectimax of its subtree.
    #[allow(clippy::too_many_arguments)]
    fn verify<G: ChanceGame>(
        &mut self,
        game: &mut G,
        depth: i32,
        alpha: i32,
        beta: i32,
        pov: Color,
        ply: usize,
        value: i32,
    ) {
        let (truth, _) = expectimax_at_ply(game, Depth(depth as u32), pov, ply);
        let truth = truth.0;
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

    /// A decision node of `mover` searched from `mover`'s point of view.
    #[allow(clippy::too_many_arguments)]
    fn decision<G: ChanceGame>(
        &mut self,
        game: &mut G,
        depth: i32,
        alpha: i32,
        beta: i32,
        mover: Color,
        ply: usize,
        probing: bool,
    ) -> i32 {
        let key = self.table_key(game.hash(), ply);
        let mut table_index = None;
        if let Some(entry) = self.probe(key) {
            table_index = entry.best_index;
            if self.usable(&entry, depth) {
                let (lower, upper) = Self::entry_bounds(&entry, mover, mover, ply);
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
            }
        }

        let base = self.candidates.len();
        self.scratch.clear();
        game.legal_actions(&mut self.scratch);
        if self.scratch.is_empty() {
            return static_value(game, mover).0;
        }
        for (index, &action) in self.scratch.iter().enumerate() {
            let score = self.action_score(game, mover, action, Some(index) == table_index);
            self.candidates.push(Candidate {
                action,
                index: index as u16,
                score,
            });
        }
        let count = self.candidates.len() - base;

        let mut best = LOSS - 1;
        let mut best_index = None;
        let mut floor = alpha;
        for tried in 0..count {
            let Candidate { action, index, .. } = self.pick(base + tried);
            let child_depth = depth - game.depth_cost(action).0 as i32;
            game.play(action);
            let next_probe = probing.then_some(mover);
            let value = if tried == 0 || probing {
                self.node(game, child_depth, floor, beta, mover, ply + 1, next_probe)
            } else {
                let scout = self.node(game, child_depth, floor, floor + 1, mover, ply + 1, None);
                if scout > floor && scout < beta {
                    self.node(game, child_depth, floor, beta, mover, ply + 1, None)
                } else {
                    scout
                }
            };
            game.unplay();
            if self.aborted {
                self.candidates.truncate(base);
                return 0;
            }
            if value > best {
                best = value;
                best_index = Some(index as usize);
                if value > floor {
                    floor = value;
                    if !probing {
                        self.update_pv(ply, action);
                    }
                    if value >= beta {
                        if !probing {
                            self.reward(mover, action, depth);
                        }
                        break;
                    }
                }
            }
            if probing {
                break;
            }
        }
        self.candidates.truncate(base);

        let bounds = if probing {
            // The first action's value bounds the node from below only.
            if best > alpha {
                (best, WIN)
            } else {
                return best;
            }
        } else if best <= alpha {
            (LOSS, best)
        } else if best >= beta {
            (best, WIN)
        } else {
            (best, best)
        };
        self.store(key, depth, bounds, mover, mover, ply, best_index, false);
        best
    }

    /// Moves the best-scored remaining candidate to `position` and returns it.
    #[inline]
    fn pick(&mut self, position: usize) -> Candidate {
        let mut best = position;
        for i in position + 1..self.candidates.len() {
            if self.candidates[i].score > self.candidates[best].score {
                best = i;
            }
        }
        self.candidates.swap(position, best);
        self.candidates[position]
    }

    fn reward(&mut self, mover: Color, action: Move, depth: i32) {
        let slot = &mut self.history[history_index(mover, action)];
        *slot += depth * depth;
        if *slot > HISTORY_MAX {
            self.history.iter_mut().for_each(|h| *h /= 2);
        }
    }

    fn update_pv(&mut self, ply: usize, action: Move) {
        if ply + 1 >= PV_PLIES {
            return;
        }
        let child_len = self.pv_len[ply + 1].min(PV_PLIES - 1);
        let (head, tail) = self.pv_moves.split_at_mut((ply + 1) * PV_PLIES);
        let line = &mut head[ply * PV_PLIES..];
        line[0] = Some(action);
        line[1..=child_len].copy_from_slice(&tail[..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// A chance node searched from `pov`'s point of view.
    #[allow(clippy::too_many_arguments)]
    fn chance<G: ChanceGame>(
        &mut self,
        game: &mut G,
        outcomes: &[(Move, Weight)],
        depth: i32,
        alpha: i32,
        beta: i32,
        pov: Color,
        ply: usize,
    ) -> i32 {
        let key = self.table_key(game.hash(), ply);
        if let Some(entry) = self.probe(key) {
            if self.usable(&entry, depth) {
                let (lower, upper) = Self::entry_bounds(&entry, Color::Sente, pov, ply);
                if lower >= beta || lower == upper {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
            }
        }
        let algorithm = self.settings.algorithm;
        let (alpha, beta) = if algorithm == ChanceAlgorithm::Expectimax {
            (LOSS - 1, WIN + 1)
        } else {
            (alpha, beta)
        };

        let base = self.slots.len();
        let mut total = 0i64;
        for &(outcome, Weight(weight)) in outcomes {
            if weight > 0 {
                total += weight as i64;
                self.slots.push(OutcomeSlot {
                    outcome,
                    weight: weight as i64,
                    lo: LOSS,
                    hi: WIN,
                    successor: Successor::Chance,
                });
            }
        }
        if total == 0 {
            return static_value(game, pov).0;
        }
        // Heavier outcomes first (stable: ties keep the game's order).
        self.slots[base..].sort_by_key(|slot| std::cmp::Reverse(slot.weight));
        let end = self.slots.len();
        let mut window = ChanceWindow::new(alpha, beta, total, LOSS, WIN);

        // Phase 0: terminal outcomes and the table's bounds of each outcome.
        let prepass = self.settings.outcome_prepass && self.settings.table != TableReuse::Off;
        // Each look at an outcome counts as a node visit.
        for i in base..end {
            if self.enter_node() {
                self.slots.truncate(base);
                return 0;
            }
            let slot = self.slots[i];
            game.play(slot.outcome);
            let (mut lo, mut hi) = (slot.lo, slot.hi);
            let successor;
            if let Some(result) = game.search_outcome() {
                let value = terminal_value(result, pov, ply + 1).0;
                (lo, hi, successor) = (value, value, Successor::Resolved);
            } else {
                let (stored_as, kind) = match game.node_kind() {
                    NodeKind::Decision(mover) => (mover, Successor::Decision(mover)),
                    NodeKind::Chance(_) => (Color::Sente, Successor::Chance),
                };
                successor = kind;
                if prepass {
                    let child_key = self.table_key(game.hash(), ply + 1);
                    if let Some(entry) = self.table.probe(child_key) {
                        if self.usable(&entry, depth) {
                            (lo, hi) = Self::entry_bounds(&entry, stored_as, pov, ply + 1);
                            if lo > hi {
                                (lo, hi) = (LOSS, WIN);
                            }
                        }
                    }
                }
            }
            game.unplay();
            window.update(slot.weight, (slot.lo, slot.hi), (lo, hi));
            let slot = &mut self.slots[i];
            (slot.lo, slot.hi) = (lo, hi);
            slot.successor = if lo == hi {
                Successor::Resolved
            } else {
                successor
            };
        }
        if let Some(value) = self.chance_cut(&window, key, depth, pov, ply, base) {
            return value;
        }

        // Phase 1 (Star2): probe each outcome's first action.
        if algorithm == ChanceAlgorithm::Star2 {
            for i in base..end {
                let slot = self.slots[i];
                let Successor::Decision(mover) = slot.successor else {
                    continue;
                };
                let harvest = self.settings.probe == ProbeWindow::Harvest;
                let (a, b) = if mover == pov {
                    let b = window.fail_high_threshold(slot.weight, slot.lo);
                    if harvest {
                        (slot.lo as i64 - 1, b.min(WIN as i64 + 1))
                    } else if b > slot.hi as i64 {
                        continue;
                    } else {
                        (b - 1, b)
                    }
                } else {
                    let a = window.fail_low_threshold(slot.weight, slot.hi);
                    if harvest {
                        (a.max(LOSS as i64 - 1), slot.hi as i64 + 1)
                    } else if a < slot.lo as i64 {
                        continue;
                    } else {
                        (a, a + 1)
                    }
                };
                game.play(slot.outcome);
                let value = self.node(game, depth, a as i32, b as i32, pov, ply + 1, Some(mover));
                game.unplay();
                if self.aborted {
                    self.slots.truncate(base);
                    return 0;
                }
                // The first action's value bounds the outcome from the mover's side only.
                let (lo, hi) = if mover == pov && value as i64 > a {
                    (slot.lo.max(value), slot.hi)
                } else if mover != pov && (value as i64) < b {
                    (slot.lo, slot.hi.min(value))
                } else {
                    continue;
                };
                let (lo, hi) = if lo <= hi {
                    (lo, hi)
                } else {
                    (slot.lo, slot.hi)
                };
                window.update(slot.weight, (slot.lo, slot.hi), (lo, hi));
                (self.slots[i].lo, self.slots[i].hi) = (lo, hi);
                if let Some(value) = self.chance_cut(&window, key, depth, pov, ply, base) {
                    return value;
                }
            }
        }

        // Phase 2 (Star1, or every outcome with a full window for expectimax).
        for i in base..end {
            let slot = self.slots[i];
            if slot.lo == slot.hi {
                continue;
            }
            let (a, b) = window.child_window(slot.weight, (slot.lo, slot.hi), LOSS, WIN);
            game.play(slot.outcome);
            let value = self.node(game, depth, a, b, pov, ply + 1, None);
            game.unplay();
            if self.aborted {
                self.slots.truncate(base);
                return 0;
            }
            let (found_lo, found_hi) = bounds_from_result(value, (a, b));
            let (mut lo, mut hi) = (slot.lo.max(found_lo), slot.hi.min(found_hi));
            if lo > hi {
                // Bounds from deeper table entries disagree: trust the fresh result.
                (lo, hi) = (found_lo.max(LOSS), found_hi.min(WIN));
            }
            window.update(slot.weight, (slot.lo, slot.hi), (lo, hi));
            (self.slots[i].lo, self.slots[i].hi) = (lo, hi);
            if let Some(value) = self.chance_cut(&window, key, depth, pov, ply, base) {
                return value;
            }
        }
        self.slots.truncate(base);
        let value = if window.sum_lo == window.sum_hi {
            window.exact()
        } else {
            // Only after inconsistent table bounds: the midpoint of what is known.
            debug_assert!(matches!(
                self.settings.table,
                TableReuse::DeepEnough | TableReuse::SameDepth
            ));
            round_div(window.sum_lo + window.sum_hi, 2 * window.total) as i32
        };
        self.store(
            key,
            depth,
            (value, value),
            pov,
            Color::Sente,
            ply,
            None,
            true,
        );
        value
    }

    /// If the sums prove a fail high or low, stores the bounds, pops the outcomes and returns
    /// the fail-soft bound.
    fn chance_cut(
        &mut self,
        window: &ChanceWindow,
        key: u64,
        depth: i32,
        pov: Color,
        ply: usize,
        base: usize,
    ) -> Option<i32> {
        let value = if window.fails_high() {
            window.lower_bound()
        } else if window.fails_low() {
            window.upper_bound()
        } else {
            return None;
        };
        self.slots.truncate(base);
        let bounds = (window.lower_bound(), window.upper_bound());
        self.store(key, depth, bounds, pov, Color::Sente, ply, None, true);
        Some(value)
    }

    /// A chance root: every outcome searched with a full window, for exact per-outcome values.
    fn root_chance<G: ChanceGame>(
        &mut self,
        game: &mut G,
        outcomes: &[(Move, Weight)],
        depth: i32,
        pov: Color,
    ) -> (i32, Vec<OutcomeLine>) {
        if self.enter_node() {
            return (0, Vec::new());
        }
        let mut lines = Vec::with_capacity(outcomes.len());
        for &(outcome, weight) in outcomes.iter().filter(|(_, w)| w.0 > 0) {
            match self.root_outcome(game, outcome, weight, depth, pov) {
                Some(line) => lines.push(line),
                None => return (0, Vec::new()),
            }
        }
        (self.combine_root_outcomes(game, &lines, depth, pov), lines)
    }

    /// One outcome of a chance root searched with a full window (`None` if the search
    /// stopped).
    fn root_outcome<G: ChanceGame>(
        &mut self,
        game: &mut G,
        outcome: Move,
        weight: Weight,
        depth: i32,
        pov: Color,
    ) -> Option<OutcomeLine> {
        game.play(outcome);
        let value = self.node(game, depth, LOSS - 1, WIN + 1, pov, 1, None);
        let pv = if self.aborted {
            Vec::new()
        } else {
            self.principal_line(game, 1)
        };
        game.unplay();
        (!self.aborted).then_some(OutcomeLine {
            outcome,
            weight,
            value: Value(value),
            pv,
        })
    }

    /// The value of a chance root from its outcomes' exact values (stored in the table).
    fn combine_root_outcomes<G: ChanceGame>(
        &mut self,
        game: &G,
        lines: &[OutcomeLine],
        depth: i32,
        pov: Color,
    ) -> i32 {
        let total: i64 = lines.iter().map(|l| l.weight.0 as i64).sum();
        if total == 0 {
            return static_value(game, pov).0;
        }
        let sum: i64 = lines
            .iter()
            .map(|l| l.weight.0 as i64 * l.value.0 as i64)
            .sum();
        let value = round_div(sum, total) as i32;
        let key = self.table_key(game.hash(), 0);
        self.store(key, depth, (value, value), pov, Color::Sente, 0, None, true);
        value
    }

    // ----- reporting -----

    /// The principal line from the node at `ply` (the current state of `game`) up to the
    /// first chance node: the tracked PV, extended by table moves where a table hit cut it.
    fn principal_line<G: ChanceGame>(&mut self, game: &mut G, ply: usize) -> Vec<Move> {
        let mut line: Vec<Move> = self.pv_moves[ply * PV_PLIES..]
            .iter()
            .take(self.pv_len[ply].min(PV_PLIES))
            .map_while(|m| *m)
            .collect();
        let mut played = 0;
        let mut legal = MoveList::new();
        // Replay the tracked part, checking legality.
        let mut valid = 0;
        for &action in &line {
            if game.search_outcome().is_some() || !matches!(game.node_kind(), NodeKind::Decision(_))
            {
                break;
            }
            legal.clear();
            game.legal_actions(&mut legal);
            if !legal.contains(&action) {
                break;
            }
            game.play(action);
            played += 1;
            valid += 1;
        }
        line.truncate(valid);
        // Extend by table moves.
        while line.len() < PV_PLIES && self.settings.table != TableReuse::Off {
            if game.search_outcome().is_some() || !matches!(game.node_kind(), NodeKind::Decision(_))
            {
                break;
            }
            let Some(index) = self
                .table
                .probe(self.table_key(game.hash(), ply + played))
                .and_then(|e| e.best_index)
            else {
                break;
            };
            legal.clear();
            game.legal_actions(&mut legal);
            let Some(&action) = legal.get(index) else {
                break;
            };
            game.play(action);
            played += 1;
            line.push(action);
        }
        for _ in 0..played {
            game.unplay();
        }
        line
    }

    /// The leading actions of `line` made by the mover of the current node, before any
    /// chance node or decision of the other colour.
    fn turn_prefix<G: ChanceGame>(&self, game: &mut G, line: &[Move]) -> Vec<Move> {
        let NodeKind::Decision(mover) = game.node_kind() else {
            return Vec::new();
        };
        let mut turn = Vec::new();
        for &action in line {
            if game.search_outcome().is_some() || game.node_kind() != NodeKind::Decision(mover) {
                break;
            }
            game.play(action);
            turn.push(action);
        }
        for _ in 0..turn.len() {
            game.unplay();
        }
        turn
    }

    /// The first action the ordering would try at a decision node (table move, capture,
    /// history), and how many actions there are.
    fn ordered_first_action<G: ChanceGame>(&mut self, game: &G) -> (Option<Move>, usize) {
        let NodeKind::Decision(mover) = game.node_kind() else {
            return (None, 0);
        };
        let mut legal = MoveList::new();
        game.legal_actions(&mut legal);
        let table_index = self
            .probe(self.table_key(game.hash(), 0))
            .and_then(|e| e.best_index);
        let best = legal
            .iter()
            .enumerate()
            .max_by_key(|&(index, &action)| {
                self.action_score(game, mover, action, Some(index) == table_index)
            })
            .map(|(_, &action)| action);
        (best, legal.len())
    }

    /// How early an action is tried: the table's move first, then captures, each by history.
    #[inline]
    fn action_score<G: ChanceGame>(
        &self,
        game: &G,
        mover: Color,
        action: Move,
        table_move: bool,
    ) -> i32 {
        if table_move {
            return i32::MAX;
        }
        let history = self.history[history_index(mover, action)];
        if game.is_capture(action) {
            CAPTURE_BONUS + history
        } else {
            history
        }
    }
}

/// The history slot of `action` by `mover` (action bits folded to `HISTORY_BITS`).
#[inline]
fn history_index(mover: Color, action: Move) -> usize {
    let bits = action.bits();
    mover.index() * HISTORY_SIZE + ((bits ^ (bits >> HISTORY_BITS)) as usize & (HISTORY_SIZE - 1))
}

/// A value in the table's node-relative form (win scores count from the node).
#[inline]
fn to_table(value: i32, ply: usize) -> i32 {
    if value == WIN || value == LOSS {
        value
    } else if value >= WIN_BAND {
        value + ply as i32
    } else if value <= -WIN_BAND {
        value - ply as i32
    } else {
        value
    }
}

/// A stored value back in root-relative form at `ply`.
#[inline]
fn from_table(value: i32, ply: usize) -> i32 {
    if value == WIN || value == LOSS {
        value
    } else if value >= WIN_BAND {
        (value - ply as i32).clamp(WIN_BAND, WIN - 1)
    } else if value <= -WIN_BAND {
        (value + ply as i32).clamp(LOSS + 1, -WIN_BAND)
    } else {
        value
    }
}
