//! Search for games with chance nodes (dice, cards): expectiminimax with Star1/Star2 pruning.
//!
//! This module owns the interface of the chance search: what it needs from a game beyond
//! [`Game`] ([`ChanceGame`]: a bounded evaluation, optional ordering and depth-cost hooks),
//! the score scale ([`Value`]; `docs/USI.md`, "Scores"), the settings and the result.
//! The algorithms live in the submodules: `window` (integer Star1/Star2 window arithmetic),
//! `tt` (a two-bound transposition table for decision and chance nodes), `search` (iterative
//! deepening, PVS at decision nodes, Star1/Star2 at chance nodes) and `reference` (plain
//! expectimax without any pruning, the oracle for the tests), and `net_board` (the wrapper
//! the searcher puts round a game whose board the shogi net values: the net's accumulator of
//! that board kept through play and unplay, so that a leaf runs only the net's layers).
//!
//! The evaluations a search hands to its games' leaves ([`LeafEvaluators`]: the shogi
//! board's, which the Madness values its board with, and Shogammon's net) are the searcher's.
//!
//! Formulation: negamax with an explicit point of view. Every search call returns the value
//! of its node from the point of view of a colour `pov` passed down the tree. A decision node
//! of the colour `pov` maximises; a decision node of the other colour is searched as
//! `-search(node, -β, -α, other)` (one sign flip when the mover changes, none between
//! consecutive decisions by the same player). A chance node keeps its caller's `pov`: the
//! expectation commutes with negation. Chance nodes do not consume depth; each decision costs
//! [`ChanceGame::depth_cost`] units (Shogammon: a whole turn is one unit; Madness: one ply).
//! A non-terminal node reached with no depth left (chance nodes included) is evaluated
//! statically.

mod leaf_cache;
pub mod net_board;
pub mod reference;
pub mod search;
pub mod tt;
pub mod variants;
pub mod window;

#[cfg(test)]
mod tests;

use crate::eval::nnue::{Accumulator, Network, RowChanges};
use crate::eval::shogi_choice::ShogiEvaluator;
use crate::rules::game::{Game, Outcome, Weight};
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::rules::variants::shogi::Position;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

pub use crate::eval::expected::Value;
pub use search::ChanceSearcher;

/// Depth, in the game's own units (see [`ChanceGame::depth_cost`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Depth(pub u32);

/// The evaluations a chance search hands to [`ChanceGame::evaluate`]: each game takes the
/// one that is its own.
#[derive(Clone)]
pub struct LeafEvaluators {
    /// The shogi board's evaluation (the `MadnessEval` choice): the Madness values its board
    /// with it.
    pub shogi: ShogiEvaluator,
    /// Shogammon's net (`ShogammonEvalFile`), which corrects its hand-written evaluation
    /// (`None`: the hand-written evaluation alone).
    pub shogammon: Option<Arc<Network>>,
}

impl LeafEvaluators {
    /// The hand-written evaluations of every game.
    pub fn standard() -> &'static LeafEvaluators {
        static STANDARD: OnceLock<LeafEvaluators> = OnceLock::new();
        STANDARD.get_or_init(|| LeafEvaluators::with_shogi(ShogiEvaluator::standard().clone()))
    }

    /// The shogi board valued by `shogi`; the other games' hand-written evaluations.
    pub fn with_shogi(shogi: ShogiEvaluator) -> LeafEvaluators {
        LeafEvaluators {
            shogi,
            shogammon: None,
        }
    }
}

/// What the chance search needs from a game beyond the rules.
///
/// The search also relies on two properties of the [`Game`] implementation: `hash` covers
/// everything that decides the future, pending dice and cards included (it keys the table),
/// and `legal_actions` lists the actions of a state in the same order every time (the table
/// stores a best action as its index in that list).
pub trait ChanceGame: Game {
    /// A static evaluation of this (non-terminal) state from `pov`'s point of view, within
    /// ±[`Value::EVAL_MAX`] (the search clamps it there). Called at decision and at chance
    /// nodes (e.g. before a roll), so it should account for the pending event. `evals` are
    /// the evaluations the searcher was given: a game whose board is a shogi board (the
    /// Madness) may value that board with `evals.shogi`, Shogammon corrects its own with
    /// `evals.shogammon`.
    fn evaluate(&self, pov: Color, evals: &LeafEvaluators) -> Value;

    /// Whether `action` (legal here, at a decision node) captures: captures are tried first.
    fn is_capture(&self, _action: Move) -> bool {
        false
    }

    /// How many depth units playing `action` (at a decision node) uses. A node reached with
    /// no depth left is evaluated, so a game whose turn has several actions should charge the
    /// turn to the action that ends it and 0 to the others: the horizon then falls between
    /// turns (Shogammon: 1 for the turn's last die action or its pass, 0 for the first).
    /// Madness charges one per ply and 0 to its free madness steps. Chance outcomes never use
    /// depth.
    fn depth_cost(&self, _action: Move) -> Depth {
        Depth(1)
    }

    /// The end of the game as the search sees it: the rules' outcome, or a win the player
    /// to act can take at once by a declaration (the Madness's entering king), which is as
    /// certain as a mate.
    fn search_outcome(&self) -> Option<Outcome> {
        self.outcome()
    }

    /// The net among `evals` whose accumulator the searcher keeps from action to action
    /// ([`net_board`], told by [`ChanceGame::board_step`] what each action does to it);
    /// `None`: none is kept. By default the shogi net, when the game has a shogi board
    /// ([`ChanceGame::shogi_board`]); Shogammon names its own.
    fn kept_net<'a>(&self, evals: &'a LeafEvaluators) -> Option<&'a Arc<Network>> {
        self.shogi_board().and(evals.shogi.net.as_ref())
    }

    /// The shogi board that [`ChanceGame::evaluate`] values with the shogi evaluation, if the
    /// game has one (the Madness).
    fn shogi_board(&self) -> Option<&Position> {
        None
    }

    /// What `action` (legal here, not yet played) does to the board the kept net `net` reads.
    /// The default, [`BoardStep::Other`], is always correct (the accumulator is recomputed).
    fn board_step(&self, _action: Move, _net: &Network) -> BoardStep {
        BoardStep::Other
    }

    /// The accumulator of the net [`ChanceGame::kept_net`] names for this position, from
    /// scratch (`None`: the net cannot read it). By default that of the shogi board, when the
    /// net reads it (both kings on it).
    fn accumulate(&self, net: &Network) -> Option<Accumulator> {
        let board = self.shogi_board()?;
        Network::fits(board).then(|| net.accumulate(board))
    }

    /// [`ChanceGame::evaluate`] from the kept accumulator `acc` of `net` (the net
    /// [`ChanceGame::kept_net`] names), so that only the net's layers run. It must equal
    /// `evaluate(pov, evals)`; the default is that call.
    fn evaluate_with_accumulator(
        &self,
        pov: Color,
        evals: &LeafEvaluators,
        _net: &Network,
        _acc: &Accumulator,
    ) -> Value {
        self.evaluate(pov, evals)
    }
}

/// What an action does to the board a chance game's kept net reads
/// ([`ChanceGame::kept_net`]). Made and used at once by each play, never stored: the size of
/// [`BoardStep::Rows`] costs no allocation that a box would.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)]
pub enum BoardStep {
    /// Leaves it as it is (a card drawn, a roll chosen, a promotion declined, a king taken:
    /// the game ends on the board as it stood; in Shogammon a roll or a pass).
    Unchanged,
    /// Plays this shogi move or drop on the shogi board ([`ChanceGame::shogi_board`]).
    Shogi(Move),
    /// Changes these inputs of the net (Shogammon's actions).
    Rows(RowChanges),
    /// Changes it some other way (a madness effect).
    Other,
}

/// How chance nodes are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ChanceAlgorithm {
    /// Every outcome searched with a full window (alpha-beta only between chance nodes).
    Expectimax,
    /// Ballard's left-to-right window narrowing with fail-soft bounds.
    Star1,
    /// Star1 preceded by probing: the first move of each outcome's decision gives a bound.
    #[default]
    Star2,
}

impl ChanceAlgorithm {
    /// Every algorithm, in the order the `ChanceAlgorithm` option lists them.
    pub const ALL: [ChanceAlgorithm; 3] = [
        ChanceAlgorithm::Star2,
        ChanceAlgorithm::Star1,
        ChanceAlgorithm::Expectimax,
    ];

    /// The option value naming this algorithm.
    pub fn name(self) -> &'static str {
        match self {
            ChanceAlgorithm::Star2 => "star2",
            ChanceAlgorithm::Star1 => "star1",
            ChanceAlgorithm::Expectimax => "expectimax",
        }
    }

    /// Reads an option value, case-insensitively.
    pub fn from_name(text: &str) -> Option<ChanceAlgorithm> {
        let text = text.trim();
        Self::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(text))
    }
}

/// The window of a Star2 probe (the search of an outcome's first action).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ProbeWindow {
    /// A null window at the outcome's cut threshold; outcomes whose threshold lies beyond
    /// their known bounds are not probed (cheap, but rarely fires while bounds are ±W).
    Threshold,
    /// From the outcome's known bound to its cut threshold (Ballard's probing phase): every
    /// probe yields a bound, so the sums tighten even when no single probe cuts.
    #[default]
    Harvest,
}

/// When a stored transposition-table result may answer a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TableReuse {
    /// No table at all (move ordering falls back to captures and history).
    Off,
    /// Only results stored at the same remaining depth and the same distance from the root
    /// (the ply is folded into the key). A node's value depends on nothing else, so every
    /// value equals plain expectimax exactly, also with a table kept from earlier searches.
    /// The default: on the test games it searched no more nodes than the other modes. Its
    /// cost is that a table kept from the previous move's search is found only at the same
    /// ply from the root.
    #[default]
    Exact,
    /// Results stored at the same remaining depth, at any ply (win scores are stored relative
    /// to the node). Exact within one search on the test positions, but a value that averages
    /// win scores (`W - ply`) of a node reached at another ply can move by a few points: with
    /// one table kept across the race test positions, 2 of 360 values moved by 1 and 5.
    SameDepth,
    /// Results stored with at least the requested depth, at any ply (the usual alpha-beta
    /// rule). Deeper results change values: on the test positions a quarter of the race
    /// game's values differed from expectimax at the same depth.
    DeepEnough,
}

/// Settings that persist between searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChanceSettings {
    pub algorithm: ChanceAlgorithm,
    pub table: TableReuse,
    /// How Star2 probes.
    pub probe: ProbeWindow,
    /// Transposition-table size (MiB; 0 gives a one-bucket table).
    pub hash_mb: usize,
    /// Read the table's bounds of every outcome before expanding a chance node.
    pub outcome_prepass: bool,
    /// The debug oracle (docs/ARCHITECTURE.md, "The chance search"): check every chance node's
    /// result against plain expectimax of its subtree, panicking on a wrong bound (very slow;
    /// for tests, and only meaningful with [`TableReuse::Off`] or [`TableReuse::Exact`]).
    pub verify_chance_nodes: bool,
}

impl Default for ChanceSettings {
    fn default() -> Self {
        ChanceSettings {
            algorithm: ChanceAlgorithm::Star2,
            table: TableReuse::Exact,
            probe: ProbeWindow::Harvest,
            hash_mb: 16,
            outcome_prepass: true,
            verify_chance_nodes: false,
        }
    }
}

/// What bounds one search. Absent limits do not limit (a search with no limit at all stops
/// at [`Value::MAX_PLY`] depth or when stopped).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChanceLimits {
    pub depth: Option<Depth>,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
}

/// One outcome of a root chance node, searched with a full window.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeLine {
    pub outcome: Move,
    pub weight: Weight,
    /// The exact value after this outcome, from the result's point of view.
    pub value: Value,
    /// The best line after this outcome, up to the next chance node.
    pub pv: Vec<Move>,
}

/// What a search found (from its last completed iteration).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChanceResult {
    /// The colour whose point of view `value` takes.
    pub pov: Color,
    /// The exact expected value of the root at `depth`.
    pub value: Value,
    /// The deepest completed iteration (0 when none completed: `value` is then the static
    /// evaluation and `best` may hold a move from the unfinished first iteration).
    pub depth: Depth,
    /// At a decision root: the root mover's decisions up to the next chance node or the next
    /// decision of the other colour (Shogammon: the whole turn). Empty at a chance root.
    pub best: Vec<Move>,
    /// At a decision root: the principal line up to the first chance node (any colour).
    pub pv: Vec<Move>,
    /// At a chance root: every outcome with its exact value and best line. Empty otherwise.
    pub outcomes: Vec<OutcomeLine>,
    /// Nodes visited (all iterations).
    pub nodes: u64,
    pub elapsed: Duration,
    /// Whether the search ended on a limit or the stop flag inside an iteration.
    pub interrupted: bool,
    /// Whether `best` and `pv` come from that interrupted iteration (one deeper than `depth`):
    /// the best of the root actions it searched to the end before it stopped.
    pub partial: bool,
}

/// The value of an ended game `ply` actions below the root, from `pov`'s point of view.
pub fn terminal_value(outcome: Outcome, pov: Color, ply: usize) -> Value {
    match outcome {
        Outcome::Win(winner) if winner == pov => Value::win_in(ply),
        Outcome::Win(_) => Value::win_in(ply).negate(),
        Outcome::Draw => Value::DRAW,
    }
}

/// The game's static evaluation from `pov`'s point of view with the evaluations `evals`,
/// clamped to ±[`Value::EVAL_MAX`].
#[inline]
pub fn static_value<G: ChanceGame>(game: &G, pov: Color, evals: &LeafEvaluators) -> Value {
    Value(
        game.evaluate(pov, evals)
            .0
            .clamp(-Value::EVAL_MAX.0, Value::EVAL_MAX.0),
    )
}

#[cfg(test)]
mod value_tests {
    use super::*;

    #[test]
    fn the_scale_is_bounded_and_symmetric() {
        assert_eq!(Value::win_in(3), Value(9_997));
        assert_eq!(Value::win_in(10_000), Value(Value::WIN.0 - Value::MAX_PLY));
        assert_eq!(Value::win_in(3).negate(), Value(-9_997));
        assert_eq!(Value::LOSS.win_permille(), 0);
        assert_eq!(Value::DRAW.win_permille(), 500);
        assert_eq!(Value::WIN.win_permille(), 1000);
        assert_eq!(
            terminal_value(Outcome::Win(Color::Gote), Color::Sente, 4),
            Value(-9_996)
        );
        assert_eq!(terminal_value(Outcome::Draw, Color::Sente, 4), Value::DRAW);
    }
}
