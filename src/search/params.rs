//! The alpha-beta search's tunable numbers: the margins, depth limits and switches of its
//! pruning, reductions, extensions, history updates, quiescence and aspiration windows, and
//! the fractions of its time management (`Search_Time…`) ([`SearchParams`]), their defaults (the
//! search as last accepted, docs/STRENGTH.md), and the table through which `setoption` sets
//! them by name. They are hidden USI options: `usi` does not list them, so GUIs never show
//! them, but `setoption name Search_… value N` sets one (for SPSA tuning and for gating a
//! change with one binary, `shishi match --option1 Search_…=N`). Switches are 0 (off) or 1.

/// A parameter's value meaning "the game's own default" ([`SearchParams::for_game`]).
pub const GAME_DEFAULT: i32 = -1;

/// Which parameters were set by name, one bit per entry of [`SearchParams::SPECS`] (a
/// parameter set to its default is still set: under a net it keeps that value).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SetByName(u128);

impl SetByName {
    fn mark(&mut self, index: usize) {
        self.0 |= 1 << index;
    }

    fn contains(self, index: usize) -> bool {
        self.0 & (1 << index) != 0
    }
}

// One bit of `SetByName` per parameter.
const _: () = assert!(SearchParams::SPECS.len() <= u128::BITS as usize);

/// The name, default and range of one parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
}

impl ParamSpec {
    /// Whether the parameter belongs to time management (`search::time`): it changes how
    /// long a search runs, never the tree of a fixed-depth search.
    pub fn governs_time(&self) -> bool {
        self.name.starts_with("Search_Time")
    }

    /// Other values worth trying, nearest the default first: one step either side, half and
    /// double, then the extremes (all within range, none the default). For tests.
    #[cfg(test)]
    pub(crate) fn trial_values(&self) -> Vec<i32> {
        let d = self.default;
        let mut values = Vec::new();
        for v in [d + 1, d - 1, d / 2, d * 2, self.min, self.max] {
            let v = v.clamp(self.min, self.max);
            if v != d && !values.contains(&v) {
                values.push(v);
            }
        }
        values
    }
}

macro_rules! search_params {
    ($($(#[doc = $doc:literal])* $field:ident: $name:literal = $default:literal, $min:literal..=$max:literal;)*) => {
        /// Every tunable number of the alpha-beta search (see the module header).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($(#[doc = $doc])* pub $field: i32,)*
            /// Which parameters [`SearchParams::set`] named: the values tuned with a net
            /// replace only the others.
            pub(crate) set_by_name: SetByName,
        }

        impl Default for SearchParams {
            fn default() -> Self {
                SearchParams { $($field: $default,)* set_by_name: SetByName::default() }
            }
        }

        impl SearchParams {
            /// Every parameter's USI name, default and range, in declaration order.
            pub const SPECS: &'static [ParamSpec] = &[
                $(ParamSpec { name: $name, default: $default, min: $min, max: $max },)*
            ];

            /// The parameter's field for its USI name (`None` if there is no such name).
            fn field_mut(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $($name => Some(&mut self.$field),)*
                    _ => None,
                }
            }
        }
    };
}

search_params! {
    /// Late-move reductions: the reduction at depth d and move number m is
    /// ln(d)·ln(m)·100 / this.
    lmr_divisor: "Search_LmrDivisor" = 220, 100..=500;
    /// Late-move reductions: one ply less per this much quiet-move history.
    lmr_history_divisor: "Search_LmrHistoryDivisor" = 6000, 1000..=50000;
    /// Reverse futility: the deepest node it applies to.
    reverse_futility_depth: "Search_ReverseFutilityDepth" = 6, 0..=15;
    /// Reverse futility: the margin above beta, per ply of depth.
    reverse_futility_margin: "Search_ReverseFutilityMargin" = 100, 20..=400;
    /// Null move: the reduction is base + depth / divisor + min((eval − beta) / eval
    /// divisor, 3).
    null_move_base: "Search_NullMoveBase" = 3, 1..=6;
    null_move_depth_divisor: "Search_NullMoveDepthDivisor" = 4, 2..=10;
    null_move_eval_divisor: "Search_NullMoveEvalDivisor" = 200, 50..=800;
    /// Move-count pruning of quiet moves: the deepest node it applies to (−1: the game's
    /// own, [`SearchParams::for_game`]: 8 in standard shogi, 5 in the other games).
    move_count_depth: "Search_MoveCountDepth" = -1, -1..=15;
    /// Move-count pruning: the quiet moves searched at depth d are this percentage of
    /// 3 + d² (of 3 + 2d² where the evaluation improves). 50 accepted 2026-11-27
    /// (docs/STRENGTH.md): +23.3 Elo (8.1 to 38.6) over 1820 games.
    move_count_percent: "Search_MoveCountPercent" = 50, 25..=200;
    /// Futility pruning of quiet moves: the deepest node (or, with FutilityAtReducedDepth,
    /// the deepest reduced depth) it applies to.
    futility_depth: "Search_FutilityDepth" = 4, 0..=12;
    futility_base: "Search_FutilityBase" = 150, 0..=600;
    futility_margin: "Search_FutilityMargin" = 120, 20..=400;
    /// Switch: judge futility at the depth the move would be searched to after its late-move
    /// reduction, instead of the node's depth.
    futility_at_reduced_depth: "Search_FutilityAtReducedDepth" = 0, 0..=1;
    /// History pruning: a quiet move whose reduced depth is at most 3 and whose history is
    /// below −this × depth is skipped (0: off).
    history_pruning: "Search_HistoryPruning" = 0, 0..=20000;
    /// SEE pruning of quiet moves: one whose exchange loses more than this times the square
    /// of its reduced depth (at most 8) is skipped (0: off).
    quiet_see_margin: "Search_QuietSeeMargin" = 0, 0..=200;
    /// Losing captures: skipped at depth ≤ 4 when SEE is below −this × depth.
    see_capture_margin: "Search_SeeCaptureMargin" = 120, 20..=400;
    /// Internal iterative reduction: nodes at least this deep without a table move are
    /// searched a ply shallower (0: off; −1: the game's own, 4 in standard shogi, off in the
    /// other games).
    iir_depth: "Search_IirDepth" = -1, -1..=20;
    /// Switch: pruning judges the node by the table's score where its bound says the true
    /// value lies beyond the static evaluation.
    table_eval: "Search_TableEval" = 0, 0..=1;
    /// Switch: look for a drop mate in one at every inner node the table does not know
    /// (not only at the horizon).
    inner_drop_mates: "Search_InnerDropMates" = 0, 0..=1;
    /// Switch: continuation histories one and two plies back in quiet-move ordering (boards
    /// small enough for the table only: standard shogi).
    continuation_history: "Search_ContinuationHistory" = 0, 0..=1;
    /// Switch: a capture history (by mover, destination and victim) orders the captures
    /// among themselves; a cutoff rewards its capture and punishes the captures tried
    /// before it.
    capture_history: "Search_CaptureHistory" = 0, 0..=1;
    /// Switch: the table's move first in quiescence.
    quiescence_table_move: "Search_QuiescenceTableMove" = 0, 0..=1;
    /// Quiescence (not in check): after this many moves of a node (searched or pruned), the
    /// captures that are neither recaptures (onto the square the last move went to) nor
    /// checks are skipped (0: off).
    quiescence_max_moves: "Search_QuiescenceMaxMoves" = 0, 0..=16;
    /// Threats (quiet moves that attack a more valuable or undefended piece from a square
    /// they hold, `SearchGame::threatens`): escape move-count, futility and history pruning,
    /// and their late-move reduction is this many plies smaller (0: threats are not looked
    /// for).
    threat_reduction: "Search_ThreatReduction" = 0, 0..=4;
    /// Switch: each thread's histories, counter-moves (and continuation histories) are kept
    /// from one search of a game to the next, histories halved (a new game clears them).
    /// Accepted 2026-11-27 (docs/STRENGTH.md): +32.7 ± 19.3 Elo over 1173 games.
    keep_history: "Search_KeepHistory" = 1, 0..=1;
    /// Singular extensions: at nodes at least this deep (0: off) whose table move has a
    /// lower bound searched at most 3 plies shallower, the other moves are searched to half
    /// the depth against the table score less the margin below; if all fail low the table
    /// move is extended a ply. If they reach beta instead the node is cut (multi-cut), and
    /// if only the table score did, the table move is searched a ply shallower.
    singular_depth: "Search_SingularDepth" = 0, 0..=20;
    /// Singular extensions: how far below the table score, per ply of depth, the other
    /// moves must stay.
    singular_margin: "Search_SingularMargin" = 2, 0..=40;
    /// ProbCut: at non-PV nodes at least this deep (0: off), a capture whose exchange wins
    /// enough that does better than beta plus the margin below in quiescence and then at
    /// depth − 4 cuts the node.
    probcut_depth: "Search_ProbCutDepth" = 5, 0..=20;
    /// ProbCut: how far above beta the capture must score.
    probcut_margin: "Search_ProbCutMargin" = 200, 50..=600;
    /// The aspiration window's first margin (it widens on each failure).
    aspiration_delta: "Search_AspirationDelta" = 35, 5..=200;
    /// Switch: the first line's aspiration window spans the scores of the last two
    /// iterations (the side to move at the horizon alternates with the depth).
    aspiration_two_iterations: "Search_AspirationTwoIterations" = 0, 0..=1;
    /// The first iteration searched in an aspiration window (the earlier ones: full width).
    aspiration_min_depth: "Search_AspirationMinDepth" = 4, 2..=20;
    /// After a failed aspiration search the margin grows by this percentage of itself plus
    /// the constant below.
    aspiration_growth_percent: "Search_AspirationGrowth" = 50, 0..=300;
    aspiration_growth_add: "Search_AspirationGrowthAdd" = 10, 0..=200;
    /// A margin grown past this gives up the window: the next search is full width.
    aspiration_full_width: "Search_AspirationFullWidth" = 1000, 50..=10000;
    /// Null move: the shallowest node it is tried at.
    null_move_min_depth: "Search_NullMoveMinDepth" = 3, 1..=10;
    /// Null move: the most plies the evaluation's lead over beta adds to the reduction.
    null_move_eval_cap: "Search_NullMoveEvalCap" = 3, 0..=10;
    /// Razoring: at a non-PV node whose evaluation lies more than this × depth² below
    /// alpha (0: off), a quiescence search that stays below alpha is the node's value.
    razor_margin: "Search_RazorMargin" = 0, 0..=1000;
    /// Switch: the null move is tried only at expected cut nodes (not at all-nodes); −1: the
    /// game's own, on in standard shogi, off in the other games.
    null_move_cut_only: "Search_NullMoveCutOnly" = -1, -1..=1;
    /// Null-move verification: a null move's cut at a node at least this deep (0: off) is
    /// kept only if a search of the node itself to the null move's depth, with no null
    /// move for the next three quarters of that depth, also reaches beta.
    null_move_verify_depth: "Search_NullMoveVerifyDepth" = 0, 0..=30;
    /// Move-count pruning: the quiet moves searched at depth d are the percentage above of
    /// this + d² (of this + d² × the improving percentage below / 100 where the evaluation
    /// improves).
    move_count_base: "Search_MoveCountBase" = 3, 0..=20;
    move_count_improving_percent: "Search_MoveCountImproving" = 200, 100..=400;
    /// Losing captures are pruned (`Search_SeeCaptureMargin`) at nodes at most this deep.
    see_capture_depth: "Search_SeeCaptureDepth" = 4, 0..=12;
    /// SEE pruning of quiet moves: the deepest reduced depth it applies to.
    quiet_see_max_depth: "Search_QuietSeeMaxDepth" = 8, 1..=20;
    /// Late-move reductions: the shallowest node where quiet moves are reduced.
    lmr_min_depth: "Search_LmrMinDepth" = 3, 1..=10;
    /// Late-move reductions: plies less at PV nodes, more where the evaluation does not
    /// improve, more at expected cut nodes, less for killers and counter-moves and for
    /// moves that give check.
    lmr_pv_node: "Search_LmrPvNode" = 1, 0..=4;
    lmr_not_improving: "Search_LmrNotImproving" = 1, 0..=4;
    lmr_cut_node: "Search_LmrCutNode" = 1, 0..=4;
    lmr_refutation: "Search_LmrRefutation" = 1, 0..=4;
    lmr_gives_check: "Search_LmrGivesCheck" = 1, 0..=4;
    /// Root moves: the moves after this many (in the order of the last iteration) are
    /// reduced, a ply less than the table says.
    root_lmr_moves: "Search_RootLmrMoves" = 3, 1..=40;
    root_lmr_less: "Search_RootLmrLess" = 1, 0..=4;
    /// History: a cutoff at depth d rewards its quiet move (and capture) with d² × this, at
    /// most the maximum below, and punishes the moves tried before it with the malus
    /// percentage of that.
    history_bonus_scale: "Search_HistoryBonus" = 16, 1..=128;
    history_bonus_max: "Search_HistoryBonusMax" = 2000, 100..=16384;
    history_malus_percent: "Search_HistoryMalus" = 100, 0..=300;
    /// ProbCut: the reduction of its verifying search (the result is stored a ply deeper
    /// than that search).
    probcut_reduction: "Search_ProbCutReduction" = 4, 2..=8;
    /// Singular extensions: how much shallower than the node the table's lower bound may
    /// have been searched.
    singular_table_depth: "Search_SingularTableDepth" = 3, 0..=10;
    /// Quiescence delta pruning: a capture whose victim (and promotion) cannot lift the
    /// stand-pat within this margin of alpha is skipped.
    quiescence_delta: "Search_QuiescenceDelta" = 200, 0..=2000;
    /// Late-move reductions: the plies (in hundredths) added to every entry of the
    /// logarithmic table before it is rounded down (50 rounds to nearest; 100 a ply more
    /// from the table's second row and column on; −1: the game's own, 100 in standard
    /// shogi, 50 in the other games).
    lmr_base: "Search_LmrBase" = -1, -1..=300;
    /// Late-move reductions of captures and promotions: they are reduced too (past the
    /// first move, at nodes at least `Search_LmrMinDepth` deep), by the table's reduction
    /// less this many plies (a losing capture, `Stage::BadCapture`, by the whole table's
    /// reduction); 0 leaves them unreduced.
    lmr_noisy_less: "Search_LmrNoisyLess" = 0, 0..=4;
    /// Reverse futility: the margin is this many centipawns smaller where the evaluation
    /// improves.
    reverse_futility_improving: "Search_ReverseFutilityImproving" = 0, 0..=300;
    /// Reverse futility returns beta plus this percentage of the evaluation's lead over
    /// beta (100: the evaluation itself; YaneuraOu's (2β + eval) / 3 is 33).
    reverse_futility_return: "Search_ReverseFutilityReturn" = 100, 0..=100;
    /// Switch: no reverse futility where the table's move is quiet (neither a capture nor a
    /// promotion).
    reverse_futility_noisy_table_move: "Search_ReverseFutilityNoisyTableMove" = 0, 0..=1;
    /// Check extensions: only at nodes at most this deep (at every depth with the maximum).
    check_extension_depth: "Search_CheckExtensionDepth" = 64, 0..=64;
    /// Late-move reductions: quiet moves are reduced this many plies more where the table
    /// move is a capture or a promotion.
    lmr_table_noisy: "Search_LmrTableNoisy" = 0, 0..=4;
    /// Switch: a correction history (`search::ordering`) moves each inner node's static
    /// evaluation by the average gap between the searched value and the evaluation seen
    /// after the same previous move (piece and square), learned at nodes whose result says
    /// which way the evaluation erred.
    correction_history: "Search_CorrectionHistory" = 0, 0..=1;
    /// The correction history: the largest correction, in centipawns.
    correction_max: "Search_CorrectionMax" = 100, 10..=1000;
    /// Time (Fischer and sudden death, `search::time`): the moves still to play are planned
    /// as this many, one fewer every `Search_TimePliesPerMove` plies of the game, never
    /// fewer than `Search_TimeMinMovesToGo`.
    time_moves_to_go: "Search_TimeMovesToGo" = 50, 10..=200;
    time_plies_per_move: "Search_TimePliesPerMove" = 6, 1..=40;
    time_min_moves_to_go: "Search_TimeMinMovesToGo" = 20, 1..=100;
    /// Time: the percentage of the increment planned for this move.
    time_increment_percent: "Search_TimeIncrement" = 75, 0..=100;
    /// Time: the hard limit is the soft one times this (plus byoyomi), at most the time
    /// left divided by the divisor below (plus byoyomi and increment).
    time_hard_factor: "Search_TimeHardFactor" = 4, 1..=10;
    time_hard_divisor: "Search_TimeHardDivisor" = 4, 1..=20;
    /// Time: no new iteration starts past this percentage of the soft limit (scaled by the
    /// stability and node-share percentages below).
    time_soft_stop: "Search_TimeSoftStop" = 55, 10..=100;
    /// Time, best-move stability: the soft stop is scaled by this percentage plus the one
    /// below per recent change of the best move (a change counts 100 in the iteration it
    /// happens and keeps `Search_TimeStabilityDecay` per cent of its weight each iteration
    /// after).
    time_stability_base: "Search_TimeStabilityBase" = 85, 10..=200;
    time_stability_per_change: "Search_TimeStabilityPerChange" = 50, 0..=300;
    time_stability_decay: "Search_TimeStabilityDecay" = 50, 0..=100;
    /// Time, node share: the soft stop is scaled by this percentage less the slope below
    /// times the share (0 to 1) of the last iteration's nodes spent on its best move.
    time_node_share_base: "Search_TimeNodeShareBase" = 130, 50..=300;
    time_node_share_slope: "Search_TimeNodeShareSlope" = 50, 0..=250;
    /// Switch: nodes searched as PV nodes are marked so in the table, and a node whose entry
    /// bears the mark (or a PV node) gets no reverse futility pruning and its late moves
    /// `Search_LmrTtPv` plies less reduction (YaneuraOu's and Stockfish's `ttPv`).
    tt_pv: "Search_TtPv" = 0, 0..=1;
    /// Late-move reductions: plies less at nodes marked PV (`Search_TtPv`).
    lmr_tt_pv: "Search_LmrTtPv" = 1, 0..=4;
    /// Switch: look for a drop mate in one at every quiescence node the table does not
    /// know, not only where the main search hands over (YaneuraOu looks for any mate in one
    /// there).
    quiescence_drop_mates: "Search_QuiescenceDropMates" = 0, 0..=1;
    /// Switch: the values tuned with a net ([`SearchParams::with_net_tuning`]) replace those
    /// of the parameters they cover that are still at their defaults; −1: the game's own,
    /// on in standard shogi evaluated by a net, off otherwise.
    net_profile: "Search_NetProfile" = -1, -1..=1;
}

impl SearchParams {
    /// The spec of the parameter named `name` (case-insensitive).
    pub fn spec(name: &str) -> Option<&'static ParamSpec> {
        Self::index(name).map(|i| &Self::SPECS[i])
    }

    /// The place in [`SearchParams::SPECS`] of the parameter named `name` (case-insensitive).
    fn index(name: &str) -> Option<usize> {
        Self::SPECS
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// Sets the parameter named `name` (case-insensitive) to `value`, or says why not.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let index =
            Self::index(name).ok_or_else(|| format!("unknown search parameter {name:?}"))?;
        let spec = &Self::SPECS[index];
        if !(spec.min..=spec.max).contains(&value) {
            return Err(format!(
                "option {}: {value} is outside {}..={}",
                spec.name, spec.min, spec.max
            ));
        }
        let field = self.field_mut(spec.name).expect("every spec names a field");
        *field = value;
        self.set_by_name.mark(index);
        Ok(())
    }

    /// Whether a 0/1 switch is on.
    #[inline]
    pub fn on(switch: i32) -> bool {
        switch != 0
    }

    /// These parameters with each [`GAME_DEFAULT`] replaced by the game's own value: issue
    /// 38's tree setting where `tree_setting` (standard shogi, where it won its gate:
    /// docs/STRENGTH.md), the values from before it in the other games (not gated there);
    /// and, where `tree_setting` and `evaluated_by_net` (standard shogi with a net, where
    /// they won their gate), the values tuned with the net ([`NET_TUNING`]) in place of those
    /// not set by name.
    pub fn for_game(mut self, tree_setting: bool, evaluated_by_net: bool) -> SearchParams {
        let own = |value: &mut i32, with: i32, without: i32| {
            if *value == GAME_DEFAULT {
                *value = if tree_setting { with } else { without };
            }
        };
        own(&mut self.net_profile, i32::from(evaluated_by_net), 0);
        if SearchParams::on(self.net_profile) {
            self = self.with_net_tuning();
        }
        own(&mut self.iir_depth, 4, 0);
        own(&mut self.lmr_base, 100, 50);
        own(&mut self.move_count_depth, 8, 5);
        own(&mut self.null_move_cut_only, 1, 0);
        self
    }

    /// These parameters with [`NET_TUNING`]'s values in place of those not set by name (or
    /// set to [`GAME_DEFAULT`], the game's own).
    fn with_net_tuning(mut self) -> SearchParams {
        for &(name, net) in NET_TUNING {
            let index = Self::index(name).expect("NET_TUNING names parameters");
            let chosen = self.set_by_name.contains(index);
            let field = self.field_mut(Self::SPECS[index].name).expect("a field");
            if !chosen || *field == GAME_DEFAULT {
                *field = net;
            }
        }
        self
    }
}

/// The values SPSA tuned with the built-in net in standard shogi (twenty-second session,
/// 4 000 games at 20 000 nodes, the mean of its last 250 iterations; and `ProbCutDepth`, the
/// second run's steadiest drift, gated alone in the twenty-fourth; docs/STRENGTH.md):
/// [`SearchParams::for_game`] puts them in place where the net evaluates standard shogi.
pub const NET_TUNING: &[(&str, i32)] = &[
    ("Search_ReverseFutilityMargin", 119),
    ("Search_ReverseFutilityDepth", 4),
    ("Search_FutilityBase", 202),
    ("Search_FutilityMargin", 111),
    ("Search_LmrDivisor", 202),
    ("Search_LmrHistoryDivisor", 6596),
    ("Search_NullMoveEvalDivisor", 253),
    ("Search_SeeCaptureMargin", 176),
    ("Search_ProbCutMargin", 207),
    ("Search_QuiescenceDelta", 286),
    ("Search_MoveCountPercent", 77),
    ("Search_AspirationDelta", 48),
    ("Search_ProbCutDepth", 3),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_set_by_its_name_and_defaults_lie_in_range() {
        for spec in SearchParams::SPECS {
            assert!((spec.min..=spec.max).contains(&spec.default), "{spec:?}");
            let mut params = SearchParams::default();
            let other = if spec.default == spec.max {
                spec.min
            } else {
                spec.max
            };
            params.set(&spec.name.to_ascii_lowercase(), other).unwrap();
            assert_ne!(params, SearchParams::default(), "{} set nothing", spec.name);
            params.set(spec.name, spec.default).unwrap();
            let unmarked = SearchParams {
                set_by_name: SetByName::default(),
                ..params
            };
            assert_eq!(unmarked, SearchParams::default(), "{}", spec.name);
        }
    }

    #[test]
    fn the_game_decides_what_is_left_at_its_default_and_a_set_value_wins() {
        let shogi = SearchParams::default().for_game(true, false);
        let others = SearchParams::default().for_game(false, false);
        assert_eq!(
            [
                shogi.iir_depth,
                shogi.lmr_base,
                shogi.move_count_depth,
                shogi.null_move_cut_only
            ],
            [4, 100, 8, 1]
        );
        assert_eq!(
            [
                others.iir_depth,
                others.lmr_base,
                others.move_count_depth,
                others.null_move_cut_only
            ],
            [0, 50, 5, 0]
        );
        let mut set = SearchParams::default();
        set.set("Search_IirDepth", 0).unwrap();
        set.set("Search_LmrBase", 70).unwrap();
        assert_eq!(set.for_game(true, false).iir_depth, 0);
        assert_eq!(set.for_game(false, false).lmr_base, 70);
        assert_eq!(set.for_game(true, false).move_count_depth, 8);
    }

    #[test]
    fn the_net_tuning_applies_to_standard_shogi_with_a_net_and_a_set_value_wins() {
        let plain = SearchParams::default();
        let net = plain.for_game(true, true);
        assert_eq!(
            [
                net.reverse_futility_depth,
                net.move_count_percent,
                net.lmr_divisor,
                net.probcut_depth
            ],
            [4, 77, 202, 3]
        );
        // Standard shogi without a net, and the other games with or without one: as before.
        for (tree_setting, by_net) in [(true, false), (false, true), (false, false)] {
            let p = plain.for_game(tree_setting, by_net);
            assert_eq!(
                [
                    p.reverse_futility_depth,
                    p.move_count_percent,
                    p.lmr_divisor,
                    p.probcut_depth
                ],
                [6, 50, 220, 5],
                "{tree_setting} {by_net}"
            );
        }
        // A value set by name stays, its default too; the switch turns the tuning off or on.
        let mut set = plain;
        set.set("Search_MoveCountPercent", 60).unwrap();
        set.set("Search_LmrDivisor", 220).unwrap();
        let p = set.for_game(true, true);
        assert_eq!(
            [
                p.move_count_percent,
                p.lmr_divisor,
                p.reverse_futility_depth
            ],
            [60, 220, 4]
        );
        set.set("Search_NetProfile", 0).unwrap();
        assert_eq!(set.for_game(true, true).reverse_futility_depth, 6);
        set.set("Search_NetProfile", 1).unwrap();
        assert_eq!(set.for_game(false, false).reverse_futility_depth, 4);
    }

    #[test]
    fn the_net_tuning_names_parameters_once_each_within_their_ranges() {
        for (i, &(name, value)) in NET_TUNING.iter().enumerate() {
            let spec = SearchParams::spec(name).unwrap_or_else(|| panic!("{name}"));
            assert!((spec.min..=spec.max).contains(&value), "{name} {value}");
            assert_ne!(value, spec.default, "{name}");
            assert!(NET_TUNING[..i].iter().all(|&(n, _)| n != name), "{name}");
        }
    }

    #[test]
    fn out_of_range_and_unknown_names_are_refused_without_change() {
        let mut params = SearchParams::default();
        assert!(params.set("Search_IirDepth", 21).is_err());
        assert!(params.set("Search_NoSuchThing", 1).is_err());
        assert_eq!(params, SearchParams::default());
    }
}
