//! Time management: turns the `go` limits and the clock into two budgets, a soft one (do
//! not start another iteration past it) and a hard one (abort the search), both measured
//! from the moment the clock starts (the `go`, or the ponderhit when pondering).
//!
//! Byoyomi that would be lost anyway is used almost fully; Fischer time treats the
//! remaining time plus byoyomi as the hard ceiling and counts on the increment as future
//! budget; sudden death spends a fraction of what is left. Between iterations the search
//! stops past a share of the soft budget that grows when the best move has just changed and
//! shrinks when it has stood for several iterations ([`best_move_changes`]), and shrinks when
//! the best move took most of the last iteration's nodes ([`soft_stop_percent`]). Every
//! number is a `Search_Time…` parameter (`search::params`). `network_delay` (the average
//! transport latency, YaneuraOu's `NetworkDelay`) is taken off the planned time and
//! `network_delay2` (the worst-case latency, `NetworkDelay2`) off the hard ceiling.
//!
//! A latency margin never takes more than a quarter of the time it is taken from
//! ([`latency_margin`]): at byoyomi 1 s with the default `NetworkDelay2` of 1120 ms the
//! engine still thinks 750 ms, at 300 ms it thinks 225 ms, and at `go movetime 100` 75 ms.
//! With much time on the clock the margins are the options' values unchanged.

use super::params::SearchParams;
use super::{Clock, Config, Limits};
use crate::rules::geometry::Color;
use std::time::Duration;

/// The budgets of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this much time.
    pub soft: Option<Duration>,
    /// Stop searching at this much time.
    pub hard: Option<Duration>,
}

const MIN_THINK: Duration = Duration::from_millis(10);

/// The largest share of the available time a latency margin may take: 1 in this many.
const MARGIN_SHARE: u32 = 4;

/// What is left of `available` after a latency margin of `delay`, the margin being at most a
/// quarter of `available`: a long delay setting must not swallow a short byoyomi or movetime.
pub fn latency_margin(available: Duration, delay: Duration) -> Duration {
    available - delay.min(available / MARGIN_SHARE)
}

/// The budgets for `us` to move at game ply `game_ply`.
pub fn budget(limits: &Limits, config: &Config, us: Color, game_ply: u32) -> Budget {
    if let Some(movetime) = limits.movetime {
        let t = latency_margin(movetime, config.network_delay);
        // A fixed time per move is used in full.
        return Budget {
            soft: None,
            hard: Some(t),
        };
    }
    let Clock {
        time_left,
        increment,
        byoyomi,
        moves_to_go: session,
    } = limits.clock;
    let left = time_left[us.index()];
    let inc = increment[us.index()].unwrap_or_default();
    let byo = byoyomi.unwrap_or_default();
    if left.is_none() && byoyomi.is_none() {
        return Budget {
            soft: None,
            hard: None,
        };
    }
    let left = left.unwrap_or_default();
    let ceiling = latency_margin(left + byo, config.network_delay2).max(MIN_THINK);
    // Moves still to play with this clock: fewer as the game goes on, and never more than
    // are left in a session that ends with the clock filled again.
    let params = &config.params;
    let moves_to_go = (params.time_moves_to_go as u32)
        .saturating_sub(game_ply / params.time_plies_per_move as u32)
        .max(params.time_min_moves_to_go as u32)
        .min(session.unwrap_or(u32::MAX))
        .max(1);
    let share = left / moves_to_go;
    let soft = if byo > Duration::ZERO && left < byo * 2 {
        // Byoyomi dominates: use what would be lost anyway.
        ceiling
    } else {
        let planned_increment = inc * params.time_increment_percent as u32 / 100;
        latency_margin(share + planned_increment + byo, config.network_delay)
    };
    let soft = soft.max(MIN_THINK).min(ceiling);
    let hard = (soft * params.time_hard_factor as u32 + byo)
        .min(left / params.time_hard_divisor as u32 + byo + inc)
        .max(soft)
        .min(ceiling);
    Budget {
        soft: Some(soft),
        hard: Some(hard),
    }
}

/// The weight of the best move's recent changes after an iteration (in hundredths of a
/// change): the earlier weight decayed by `Search_TimeStabilityDecay`, plus a whole change
/// if this iteration's best move is not the last one's.
pub fn best_move_changes(params: &SearchParams, earlier: i32, changed: bool) -> i32 {
    earlier * params.time_stability_decay / 100 + if changed { 100 } else { 0 }
}

/// The percentage of the soft limit after which no new iteration starts, given the weight
/// of the best move's recent changes (see [`best_move_changes`]) and the share of the last
/// iteration's nodes spent on its best move (0 to 1): `Search_TimeSoftStop` scaled up by an
/// unstable best move and down by a stable one, and down by a best move that took most of
/// the nodes (the others were refuted quickly), up by one that took few. Never below 1.
pub fn soft_stop_percent(params: &SearchParams, changes: i32, best_move_share: f64) -> f64 {
    let stability =
        f64::from(params.time_stability_base + params.time_stability_per_change * changes / 100);
    let share = best_move_share.clamp(0.0, 1.0);
    let node_share = (f64::from(params.time_node_share_base)
        - f64::from(params.time_node_share_slope) * share)
        .max(1.0);
    (f64::from(params.time_soft_stop) * stability / 100.0 * node_share / 100.0).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn config() -> Config {
        Config {
            network_delay: ms(100),
            network_delay2: ms(500),
            ..Config::default()
        }
    }

    fn clock(left: u64, inc: Option<u64>, byo: Option<u64>) -> Limits {
        Limits {
            clock: Clock {
                time_left: [Some(ms(left)), Some(ms(left))],
                increment: [inc.map(ms), inc.map(ms)],
                byoyomi: byo.map(ms),
                moves_to_go: None,
            },
            ..Limits::default()
        }
    }

    #[test]
    fn byoyomi_only_uses_nearly_all_of_it() {
        let b = budget(&clock(0, None, Some(10_000)), &config(), Color::Sente, 40);
        assert_eq!(b.hard, Some(ms(9_500)));
        assert_eq!(b.soft, Some(ms(9_500)));
    }

    #[test]
    fn hard_limit_never_exceeds_time_plus_byoyomi_minus_delay() {
        for (left, inc, byo) in [
            (1_000, None, Some(1_000)),
            (600, Some(5_000), None),
            (60_000, Some(2_000), None),
            (300_000, None, None),
            (30, None, None),
        ] {
            let b = budget(&clock(left, inc, byo), &config(), Color::Gote, 10);
            let available = ms(left + byo.unwrap_or(0));
            let ceiling = available.saturating_sub(ms(500)).max(available * 3 / 4);
            assert!(b.hard.unwrap() <= ceiling, "{left} {inc:?} {byo:?}: {b:?}");
            assert!(b.soft.unwrap() <= b.hard.unwrap());
        }
    }

    #[test]
    fn short_byoyomi_is_not_swallowed_by_the_default_delays() {
        // The USI options' defaults: NetworkDelay 120, NetworkDelay2 1120.
        let defaults = Config::default();
        for (byo, think) in [
            (1_000, 750),
            (300, 225),
            (200, 150),
            (3_000, 2_250),
            (10_000, 8_880),
        ] {
            let b = budget(&clock(0, None, Some(byo)), &defaults, Color::Sente, 40);
            assert_eq!(b.hard, Some(ms(think)), "byoyomi {byo}");
            assert_eq!(b.soft, Some(ms(think)), "byoyomi {byo}");
        }
        let limits = Limits {
            movetime: Some(ms(100)),
            ..Limits::default()
        };
        let b = budget(&limits, &defaults, Color::Sente, 0);
        assert_eq!(b.hard, Some(ms(75)));
    }

    #[test]
    fn long_clocks_keep_the_full_delays() {
        let b = budget(
            &clock(600_000, None, Some(10_000)),
            &config(),
            Color::Sente,
            20,
        );
        assert!(b.hard.unwrap() <= ms(610_000 - 500), "{b:?}");
        assert_eq!(latency_margin(ms(60_000), ms(1_120)), ms(58_880));
    }

    #[test]
    fn sudden_death_spends_a_fraction() {
        let b = budget(&clock(300_000, None, None), &config(), Color::Sente, 0);
        let soft = b.soft.unwrap();
        assert!(soft > ms(3_000) && soft < ms(10_000), "{soft:?}");
    }

    #[test]
    fn the_last_move_of_a_session_spends_the_clock_less_its_margins() {
        // CECP `level 1 …`: every move is the session's last, the clock filled after it.
        let mut limits = clock(500, None, None);
        limits.clock.moves_to_go = Some(1);
        let defaults = Config::default();
        let b = budget(&limits, &defaults, Color::Sente, 30);
        assert_eq!(b.soft, Some(ms(375)), "{b:?}");
        assert_eq!(b.hard, Some(ms(375)), "{b:?}");
        // Ten moves left of a longer session: a tenth of the clock, not a twentieth.
        let mut limits = clock(100_000, None, None);
        let sudden_death = budget(&limits, &config(), Color::Sente, 0);
        limits.clock.moves_to_go = Some(10);
        let session = budget(&limits, &config(), Color::Sente, 0);
        assert_eq!(session.soft, Some(ms(10_000 - 100)));
        assert!(
            session.soft > sudden_death.soft,
            "{session:?} {sudden_death:?}"
        );
        // A session longer than the planning horizon changes nothing; zero counts as one.
        limits.clock.moves_to_go = Some(400);
        assert_eq!(budget(&limits, &config(), Color::Sente, 0), sudden_death);
        limits.clock.moves_to_go = Some(0);
        let zero = budget(&limits, &config(), Color::Sente, 0);
        limits.clock.moves_to_go = Some(1);
        assert_eq!(zero, budget(&limits, &config(), Color::Sente, 0));
    }

    /// Fischer and sudden-death clocks (ms left, increment) at a few game plies.
    const CLOCKS: [(u64, Option<u64>, u32); 8] = [
        (10_000, Some(100), 0),
        (10_000, Some(100), 120),
        (1_000, Some(100), 60),
        (300, Some(100), 80),
        (60_000, Some(1_000), 30),
        (300_000, None, 0),
        (5_000, None, 150),
        (40, None, 200),
    ];

    #[test]
    fn fischer_and_sudden_death_never_exceed_the_time_left_less_its_margin() {
        // With every time parameter at its default and at each extreme.
        let mut settings = vec![SearchParams::default()];
        for spec in SearchParams::SPECS.iter().filter(|s| s.governs_time()) {
            for value in [spec.min, spec.max] {
                let mut params = SearchParams::default();
                params.set(spec.name, value).unwrap();
                settings.push(params);
            }
        }
        for params in settings {
            let config = Config { params, ..config() };
            for (left, inc, ply) in CLOCKS {
                let b = budget(&clock(left, inc, None), &config, Color::Sente, ply);
                let ceiling = latency_margin(ms(left), ms(500)).max(MIN_THINK);
                let (soft, hard) = (b.soft.unwrap(), b.hard.unwrap());
                assert!(hard <= ceiling, "{left} {inc:?} ply {ply}: {b:?}");
                assert!(soft <= hard && soft >= MIN_THINK.min(ceiling), "{b:?}");
            }
        }
    }

    #[test]
    fn the_increment_is_planned_for() {
        for (left, ply) in [(10_000, 0), (60_000, 40), (3_000, 100)] {
            let without = budget(&clock(left, None, None), &config(), Color::Gote, ply);
            let with = budget(&clock(left, Some(1_000), None), &config(), Color::Gote, ply);
            assert!(with.soft > without.soft, "{left} {with:?} {without:?}");
            assert!(with.hard >= without.hard, "{left} {with:?} {without:?}");
        }
        // 75 % of the increment by default: 10 s + 0.1 s at the start plans 10 000 / 50 + 75
        // ms, less the delay (100 ms, at most a quarter of that).
        let b = budget(&clock(10_000, Some(100), None), &config(), Color::Sente, 0);
        assert_eq!(b.soft, Some(Duration::from_micros(275_000 - 68_750)));
    }

    #[test]
    fn a_stable_best_move_and_a_large_node_share_stop_earlier() {
        let params = SearchParams::default();
        let stable = soft_stop_percent(&params, 0, 0.5);
        let changed_once = soft_stop_percent(&params, 100, 0.5);
        let changed_twice = soft_stop_percent(&params, 200, 0.5);
        assert!(stable < changed_once && changed_once < changed_twice);
        let all_nodes = soft_stop_percent(&params, 0, 0.95);
        let few_nodes = soft_stop_percent(&params, 0, 0.1);
        assert!(all_nodes < stable && stable < few_nodes);
        // A change weighs less every iteration after it.
        let mut changes = best_move_changes(&params, 0, true);
        assert_eq!(changes, 100);
        changes = best_move_changes(&params, changes, false);
        assert_eq!(changes, 50);
        assert_eq!(best_move_changes(&params, changes, true), 125);
        // Switched off (base 100, no weight per change, no slope), the stop is the plain
        // percentage of the soft limit whatever the search did.
        let mut plain = SearchParams::default();
        for (name, value) in [
            ("Search_TimeStabilityBase", 100),
            ("Search_TimeStabilityPerChange", 0),
            ("Search_TimeNodeShareBase", 100),
            ("Search_TimeNodeShareSlope", 0),
        ] {
            plain.set(name, value).unwrap();
        }
        for (changes, share) in [(0, 0.0), (300, 1.0), (50, 0.5)] {
            assert_eq!(soft_stop_percent(&plain, changes, share), 55.0);
        }
    }

    #[test]
    fn every_time_parameter_changes_the_time_spent() {
        // What a parameter can change: the budgets of the clocks above, the stop percentage
        // for a few searches' stability and node shares, and the weight of changes.
        let observe = |params: &SearchParams| {
            let config = Config {
                params: *params,
                ..config()
            };
            let budgets: Vec<Budget> = CLOCKS
                .iter()
                .map(|&(left, inc, ply)| {
                    budget(&clock(left, inc, None), &config, Color::Sente, ply)
                })
                .collect();
            let stops: Vec<u64> = [(0, 0.9), (100, 0.3), (250, 0.6)]
                .iter()
                .map(|&(c, share)| (soft_stop_percent(params, c, share) * 1000.0) as u64)
                .collect();
            let weight = best_move_changes(params, 100, false);
            (budgets, stops, weight)
        };
        let reference = observe(&SearchParams::default());
        for spec in SearchParams::SPECS.iter().filter(|s| s.governs_time()) {
            let changes = spec.trial_values().into_iter().any(|v| {
                let mut params = SearchParams::default();
                params.set(spec.name, v).unwrap();
                observe(&params) != reference
            });
            assert!(changes, "{} changes no time", spec.name);
        }
    }

    #[test]
    fn movetime_and_no_clock() {
        let limits = Limits {
            movetime: Some(ms(1_000)),
            ..Limits::default()
        };
        let b = budget(&limits, &config(), Color::Sente, 0);
        assert_eq!(
            b,
            Budget {
                soft: None,
                hard: Some(ms(900))
            }
        );
        let b = budget(&Limits::default(), &config(), Color::Sente, 0);
        assert_eq!(b.hard, None);
    }
}
