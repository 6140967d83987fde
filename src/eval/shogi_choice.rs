//! The evaluation the standard shogi search uses: the hand-written tables ([`Evaluator`]) or,
//! when one is loaded, a net ([`Network`]: a file, or the built-in one when
//! [`EvalChoice`] says so); and the state it carries from ply to ply
//! ([`ShogiTotals`]: the tables' totals, or the net's accumulator).
//!
//! A net needs both kings on the board; a position without one (a composed problem) is
//! evaluated by the tables, and so is every position searched from it (kings are never
//! taken).

use super::nnue::features::{self, Changes, NetGame};
use super::nnue::{Accumulator, Network};
use super::shogi::Evaluator;
use super::Totals;
use crate::rules::geometry::Color;
use crate::rules::moves::Move;
use crate::rules::variants::shogi::Position;
use std::sync::{Arc, OnceLock};

/// A game's choice of evaluation when no net file is named: the hand-written tables or the
/// net built into the engine. Standard shogi (`ShogiEval`), the Central Madness's board
/// (`MadnessEval`), Chu Shogi (`ChuEval`), Chu Kagamigi (`KagamigiEval`) and Shogammon
/// (`ShogammonEval`) choose apart, each with its own default ([`EvalChoice::SHOGI_DEFAULT`],
/// [`EvalChoice::MADNESS_DEFAULT`], [`EvalChoice::CHU_DEFAULT`],
/// [`EvalChoice::KAGAMIGI_DEFAULT`], [`EvalChoice::SHOGAMMON_DEFAULT`]): each is the one that
/// won on the clock (docs/NNUE.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalChoice {
    HandWritten,
    Net,
}

impl EvalChoice {
    /// Every choice, in the order the options list them.
    pub const ALL: [EvalChoice; 2] = [EvalChoice::HandWritten, EvalChoice::Net];

    /// Standard shogi's default: the built-in net (it beats the hand-written evaluation at
    /// byoyomi 0.1 s, docs/NNUE.md).
    pub const SHOGI_DEFAULT: EvalChoice = EvalChoice::Net;

    /// The Madness's default: its built-in net, fine-tuned on Madness games (it beats the
    /// hand-written evaluation at 100 ms a move, docs/NNUE.md).
    pub const MADNESS_DEFAULT: EvalChoice = EvalChoice::Net;

    /// Chu Shogi's default: its built-in net over the tables (it beats the tables alone at
    /// byoyomi 0.1 s, docs/NNUE.md, "Quiet positions only, and labels searched again").
    pub const CHU_DEFAULT: EvalChoice = EvalChoice::Net;

    /// Chu Kagamigi's default: its built-in net over its tables (it beats the tables alone at
    /// byoyomi 0.1 s, docs/NNUE.md).
    pub const KAGAMIGI_DEFAULT: EvalChoice = EvalChoice::Net;

    /// Shogammon's default: the hand-written evaluation. Its built-in net beats it at 5 000
    /// nodes a move but not at 50 000, nor on the clock (docs/NNUE.md, "A Shogammon net that
    /// learned the results too").
    pub const SHOGAMMON_DEFAULT: EvalChoice = EvalChoice::HandWritten;

    /// The choice's name as the options spell it (const: the option table's defaults are the
    /// names of the `*_DEFAULT` constants above).
    pub const fn name(self) -> &'static str {
        match self {
            EvalChoice::Net => "net",
            EvalChoice::HandWritten => "hand-written",
        }
    }

    /// Parses a name (case-insensitive).
    pub fn from_name(name: &str) -> Option<EvalChoice> {
        Self::ALL
            .into_iter()
            .find(|choice| choice.name().eq_ignore_ascii_case(name))
    }

    /// `game`'s built-in net under this choice (`None`: the hand-written evaluation).
    pub fn built_in(self, game: NetGame) -> Option<Arc<Network>> {
        match self {
            EvalChoice::HandWritten => None,
            EvalChoice::Net => Some(crate::eval::nnue::builtin::network_of(game)),
        }
    }

    /// The net the Madness values its board with under this choice, given `named`, the net
    /// file the user named for standard shogi (`EvalFile`, `EvalDir`, `--eval-file`): that
    /// one when there is one, else the Madness's built-in net; `None` (the hand-written
    /// evaluation) when the choice is [`EvalChoice::HandWritten`].
    pub fn madness_net(self, named: Option<&Arc<Network>>) -> Option<Arc<Network>> {
        match self {
            EvalChoice::HandWritten => None,
            EvalChoice::Net => Some(
                named
                    .cloned()
                    .unwrap_or_else(crate::eval::nnue::builtin::madness_network),
            ),
        }
    }
}

/// The tables, and the net that replaces them when there is one.
#[derive(Clone)]
pub struct ShogiEvaluator {
    pub tables: &'static Evaluator,
    pub net: Option<Arc<Network>>,
}

impl ShogiEvaluator {
    /// The hand-written evaluation with the standard weights.
    pub fn standard() -> &'static ShogiEvaluator {
        static STANDARD: OnceLock<ShogiEvaluator> = OnceLock::new();
        STANDARD.get_or_init(|| ShogiEvaluator {
            tables: Evaluator::standard(),
            net: None,
        })
    }

    /// The standard tables with `net` (`None`: the tables alone).
    pub fn with_net(net: Option<Arc<Network>>) -> ShogiEvaluator {
        ShogiEvaluator {
            net,
            ..ShogiEvaluator::standard().clone()
        }
    }

    /// The standard tables with the net built into the engine (for tests).
    #[cfg(test)]
    pub fn builtin_net() -> ShogiEvaluator {
        ShogiEvaluator::with_net(Some(crate::eval::nnue::builtin::network()))
    }

    /// Whether `self` evaluates with the very net `net` (the same allocation; both without
    /// a net counts as the same).
    pub fn has_net(&self, net: &Option<Arc<Network>>) -> bool {
        super::nnue::same_net(&self.net, net)
    }

    /// The net, if one is loaded and fits `pos`.
    #[inline]
    fn net_for(&self, pos: &Position) -> Option<&Network> {
        self.net.as_deref().filter(|_| Network::fits(pos))
    }

    /// The totals of `pos` from scratch.
    pub fn totals(&self, pos: &Position) -> ShogiTotals {
        match self.net_for(pos) {
            Some(net) => ShogiTotals {
                tables: Totals::default(),
                net: Some(net.accumulate(pos)),
            },
            None => ShogiTotals {
                tables: self.tables.totals(pos),
                net: None,
            },
        }
    }

    /// What `mv` (not yet played) changes in the totals `before` of `pos`.
    #[inline]
    pub fn change(&self, pos: &Position, mv: Move, before: &ShogiTotals) -> ShogiChange {
        if before.net.is_some() {
            ShogiChange::Net(features::changes(pos, mv))
        } else {
            ShogiChange::Tables(self.tables.update(pos, mv, before.tables))
        }
    }

    /// Writes into `after` the totals of `pos`, reached by a move with `change` from a
    /// position whose totals are `before`.
    #[inline]
    pub fn apply(
        &self,
        pos: &Position,
        change: ShogiChange,
        before: &ShogiTotals,
        after: &mut ShogiTotals,
    ) {
        match change {
            ShogiChange::Net(changes) => match (&before.net, self.net.as_deref()) {
                (Some(acc), Some(net)) => {
                    let out = after.net.get_or_insert_with(Accumulator::default);
                    net.update(pos, &changes, acc, out);
                }
                _ => *after = self.totals(pos),
            },
            ShogiChange::Tables(totals) => {
                after.tables = totals.unwrap_or_else(|| self.tables.totals(pos));
                after.net = None;
            }
        }
    }

    /// The score of `totals` for `side_to_move`.
    #[inline]
    pub fn score(&self, totals: &ShogiTotals, side_to_move: Color) -> i32 {
        match (&totals.net, self.net.as_deref()) {
            (Some(acc), Some(net)) => net.score(acc, side_to_move),
            _ => self.tables.score(totals.tables, side_to_move),
        }
    }

    /// The static evaluation of `pos` for the side to move, from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.score(&self.totals(pos), pos.side_to_move())
    }
}

/// The evaluation state of a shogi position: the tables' totals, or the net's accumulator
/// (then the totals are left at zero).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShogiTotals {
    pub tables: Totals,
    pub net: Option<Accumulator>,
}

/// What a move changes: the tables' totals after it (`None`: recount), or the net's
/// feature changes.
#[derive(Clone, Copy, Debug)]
pub enum ShogiChange {
    Tables(Option<Totals>),
    Net(Changes),
}
