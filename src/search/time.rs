//! Time management: turns the `go` limits and the clock into two budgets, a soft one (do
//! not start another iteration past it) and a hard one (abort the search), both measured
//! from the moment the clock starts (the `go`, or the ponderhit when pondering).
//!
//! Byoyomi that would be lost anyway is used almost fully; Fischer time treats the
//! remaining time plus byoyomi as the hard ceiling and counts on the increment as future
//! budget; sudden death spends a fraction of what is left. `network_delay` (the average
//! transport latency, YaneuraOu's `NetworkDelay`) is taken off the planned time and
//! `network_delay2` (the worst-case latency, `NetworkDelay2`) off the hard ceiling.
//!
//! A latency margin never takes more than a quarter of the time it is taken from
//! ([`latency_margin`]): at byoyomi 1 s with the default `NetworkDelay2` of 1120 ms the
//! engine still thinks 750 ms, at 300 ms it thinks 225 ms, and at `go movetime 100` 75 ms.
//! With much time on the clock the margins are the options' values unchanged.

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
    let moves_to_go = 50u32
        .saturating_sub(game_ply / 6)
        .max(20)
        .min(session.unwrap_or(u32::MAX))
        .max(1);
    let share = left / moves_to_go;
    let soft = if byo > Duration::ZERO && left < byo * 2 {
        // Byoyomi dominates: use what would be lost anyway.
        ceiling
    } else {
        latency_margin(share + inc * 3 / 4 + byo, config.network_delay)
    };
    let soft = soft.max(MIN_THINK).min(ceiling);
    let hard = (soft * 4 + byo)
        .min(left / 4 + byo + inc)
        .max(soft)
        .min(ceiling);
    Budget {
        soft: Some(soft),
        hard: Some(hard),
    }
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
