//! Time controls and the referee's own clocks: parsing `--tc` (and `--tc1`/`--tc2`), what
//! each engine is told before a move, how long it may take (plus the configured margin) and
//! how its clock changes after the move. Each side plays its own time control (time odds);
//! when both play the same one, nothing differs from a shared control.
//!
//! `--tc` grammar (seconds may have decimals):
//! * `BASE+INC`: Fischer, e.g. `10+0.1`. As in USI, the increment of the move being
//!   played is already usable: the engine may take `remaining + inc` and then has
//!   `remaining + inc - elapsed` left. Engines are sent `btime`/`wtime` without it and
//!   `binc`/`winc`.
//! * `BASE+byoBYO` or `byoBYO`: byoyomi, e.g. `30+byo1`, `byo1`. The engine may take
//!   `remaining + byoyomi`; main time never goes below zero.
//! * `movetime=MS`: a fixed time per move in milliseconds.
//! * `nodes=N`: a node limit per move; the referee only guards against a hang
//!   ([`NODES_HANG_LIMIT`]).
//!
//! Under USI the mover is sent both sides' clocks ([`Clocks::usi_go`]). The form of the
//! command is the mover's own control's. Each side's `btime`/`wtime` is its real main time
//! left, which is 0 for a side without a clock (`movetime`, `nodes`), as it is for a
//! byoyomi-only clock; `binc`/`winc` are each side's own Fischer increment (0 for a side
//! that has none). `byoyomi` is one field for both sides in USI, so it is the mover's own.

use crate::rules::geometry::Color;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How long an engine searching a node limit may take before it counts as hung.
pub const NODES_HANG_LIMIT: Duration = Duration::from_secs(60);

/// A span of time in whole milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Millis(pub u64);

impl Millis {
    pub fn duration(self) -> Duration {
        Duration::from_millis(self.0)
    }

    pub fn of(d: Duration) -> Millis {
        Millis(d.as_millis().min(u64::MAX as u128) as u64)
    }
}

/// A time control as given on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    Fischer { base: Millis, inc: Millis },
    Byoyomi { base: Millis, byoyomi: Millis },
    MoveTime(Millis),
    Nodes(u64),
}

fn seconds(text: &str, what: &str) -> Result<Millis, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("{what} {text:?} is not a number of seconds"))?;
    if !value.is_finite() || !(0.0..=1e7).contains(&value) {
        return Err(format!("{what} {text:?} is out of range"));
    }
    Ok(Millis((value * 1000.0).round() as u64))
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeControl, String> {
        let text = text.trim();
        // A positive whole number, or an error naming `what` it should be.
        let positive = |n: &str, what: &str| match n.parse::<u64>() {
            Ok(0) => Err(format!("{what} must be positive")),
            Ok(n) => Ok(n),
            Err(_) => Err(format!("{what} {n:?} is not a whole number")),
        };
        if let Some(n) = text.strip_prefix("nodes=") {
            return Ok(TimeControl::Nodes(positive(n, "the nodes limit")?));
        }
        if let Some(ms) = text.strip_prefix("movetime=") {
            return Ok(TimeControl::MoveTime(Millis(positive(
                ms,
                "movetime (ms)",
            )?)));
        }
        let (base, rest) = match text.strip_prefix("byo") {
            Some(_) => (Millis(0), text),
            None => {
                let (base, rest) = text.split_once('+').ok_or_else(|| {
                    format!(
                        "bad time control {text:?}: use BASE+INC (10+0.1), BASE+byoB \
                         (30+byo1), byoB, movetime=MS or nodes=N"
                    )
                })?;
                (seconds(base, "base time")?, rest)
            }
        };
        let tc = match rest.strip_prefix("byo") {
            Some(byo) => TimeControl::Byoyomi {
                base,
                byoyomi: seconds(byo, "byoyomi")?,
            },
            None => TimeControl::Fischer {
                base,
                inc: seconds(rest, "increment")?,
            },
        };
        match tc {
            TimeControl::Fischer { base, inc } if base.0 == 0 && inc.0 == 0 => {
                Err("a Fischer time control needs a base or an increment".into())
            }
            TimeControl::Byoyomi { base, byoyomi } if base.0 == 0 && byoyomi.0 == 0 => {
                Err("a byoyomi time control needs a base or a byoyomi".into())
            }
            tc => Ok(tc),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = |m: Millis| m.0 as f64 / 1000.0;
        match *self {
            TimeControl::Fischer { base, inc } => write!(f, "{}+{}", s(base), s(inc)),
            TimeControl::Byoyomi { base, byoyomi } => write!(f, "{}+byo{}", s(base), s(byoyomi)),
            TimeControl::MoveTime(ms) => write!(f, "movetime={}", ms.0),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
        }
    }
}

/// Names the time controls of two players, labelled `labels`: the control alone when both
/// play it, else each with its label (`nodes=1000 for sente, 10+0.1 for gote`).
pub fn describe_pair(controls: [TimeControl; 2], labels: [&str; 2]) -> String {
    let [first, second] = controls;
    if first == second {
        first.to_string()
    } else {
        format!("{first} for {}, {second} for {}", labels[0], labels[1])
    }
}

/// Both players' clocks in one game, each kept by its own time control.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// Each side's time control, indexed by `Color::index()`.
    pub controls: [TimeControl; 2],
    /// Main time left, indexed by `Color::index()`.
    pub remaining: [Millis; 2],
}

/// The clock was overrun: how long the move took and how long it could have taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged {
    pub used: Millis,
    pub allowed: Millis,
}

impl Clocks {
    /// The clocks at the start of a game where each side plays `controls[side.index()]`.
    pub fn new(controls: [TimeControl; 2]) -> Clocks {
        let base = |tc| match tc {
            TimeControl::Fischer { base, .. } | TimeControl::Byoyomi { base, .. } => base,
            TimeControl::MoveTime(_) | TimeControl::Nodes(_) => Millis(0),
        };
        Clocks {
            controls,
            remaining: controls.map(base),
        }
    }

    /// `side`'s own time control.
    pub fn control(&self, side: Color) -> TimeControl {
        self.controls[side.index()]
    }

    /// `side`'s Fischer increment; nothing under any other control.
    fn increment(&self, side: Color) -> Millis {
        match self.control(side) {
            TimeControl::Fischer { inc, .. } => inc,
            _ => Millis(0),
        }
    }

    /// How long `side` may take for this move, before the margin; `None` for a node limit.
    pub fn allowance(&self, side: Color) -> Option<Millis> {
        let left = self.remaining[side.index()];
        match self.control(side) {
            TimeControl::Fischer { inc, .. } => Some(Millis(left.0 + inc.0)),
            TimeControl::Byoyomi { byoyomi, .. } => Some(Millis(left.0 + byoyomi.0)),
            TimeControl::MoveTime(ms) => Some(ms),
            TimeControl::Nodes(_) => None,
        }
    }

    /// How long the referee waits for `side`'s move before calling it a time loss (or a
    /// hang under a node limit).
    pub fn deadline(&self, side: Color, margin: Millis) -> Duration {
        match self.allowance(side) {
            Some(allowed) => Duration::from_millis(allowed.0 + margin.0),
            None => NODES_HANG_LIMIT + margin.duration(),
        }
    }

    /// Charges a move of `side` that took `used`. Fails (and leaves the clock alone) when
    /// the move overran the allowance by more than `margin`.
    pub fn charge(&mut self, side: Color, used: Millis, margin: Millis) -> Result<(), Flagged> {
        if let Some(allowed) = self.allowance(side) {
            if used.0 > allowed.0 + margin.0 {
                return Err(Flagged { used, allowed });
            }
            let control = self.control(side);
            let left = &mut self.remaining[side.index()];
            *left = match control {
                TimeControl::Fischer { .. } => Millis(allowed.0.saturating_sub(used.0)),
                TimeControl::Byoyomi { .. } => Millis(left.0.saturating_sub(used.0)),
                _ => *left,
            };
        }
        Ok(())
    }

    /// The USI `go` command for `side`'s next move: the form is `side`'s own control's, and
    /// the clocks in it are both sides' real ones (see the module header).
    pub fn usi_go(&self, side: Color) -> String {
        let [b, w] = self.remaining;
        match self.control(side) {
            TimeControl::Fischer { .. } => format!(
                "go btime {} wtime {} binc {} winc {}",
                b.0,
                w.0,
                self.increment(Color::Sente).0,
                self.increment(Color::Gote).0
            ),
            TimeControl::Byoyomi { byoyomi, .. } => {
                format!("go btime {} wtime {} byoyomi {}", b.0, w.0, byoyomi.0)
            }
            TimeControl::MoveTime(ms) => format!("go movetime {}", ms.0),
            TimeControl::Nodes(n) => format!("go nodes {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        assert_eq!(
            "10+0.1".parse(),
            Ok(TimeControl::Fischer {
                base: Millis(10_000),
                inc: Millis(100)
            })
        );
        assert_eq!(
            "30+byo1".parse(),
            Ok(TimeControl::Byoyomi {
                base: Millis(30_000),
                byoyomi: Millis(1000)
            })
        );
        assert_eq!(
            "byo0.5".parse(),
            Ok(TimeControl::Byoyomi {
                base: Millis(0),
                byoyomi: Millis(500)
            })
        );
        assert_eq!(
            "movetime=200".parse(),
            Ok(TimeControl::MoveTime(Millis(200)))
        );
        assert_eq!("nodes=5000".parse(), Ok(TimeControl::Nodes(5000)));
        for bad in [
            "",
            "10",
            "x+1",
            "10+-1",
            "0+0",
            "nodes=0",
            "movetime=1.5",
            "byo",
            // Issue 34: a byoyomi of nothing with no base was taken as a time control.
            "byo0",
            "0+byo0",
            "movetime=0",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn fischer_clock_adds_the_increment_before_the_move() {
        let mut c = Clocks::new(["1+0.5".parse().unwrap(); 2]);
        assert_eq!(c.allowance(Color::Sente), Some(Millis(1500)));
        for side in Color::BOTH {
            assert_eq!(c.usi_go(side), "go btime 1000 wtime 1000 binc 500 winc 500");
        }
        c.charge(Color::Sente, Millis(300), Millis(0)).unwrap();
        assert_eq!(c.remaining, [Millis(1200), Millis(1000)]);
        // 1700 allowed, 1750 used: within a 100 ms margin, and the clock bottoms at zero.
        c.charge(Color::Sente, Millis(1750), Millis(100)).unwrap();
        assert_eq!(c.remaining[0], Millis(0));
        assert_eq!(
            c.charge(Color::Gote, Millis(1601), Millis(100)),
            Err(Flagged {
                used: Millis(1601),
                allowed: Millis(1500)
            })
        );
    }

    #[test]
    fn byoyomi_clock_spends_main_time_first() {
        let mut c = Clocks::new(["1+byo1".parse().unwrap(); 2]);
        c.charge(Color::Gote, Millis(1500), Millis(0)).unwrap();
        assert_eq!(c.remaining, [Millis(1000), Millis(0)]);
        assert_eq!(c.allowance(Color::Gote), Some(Millis(1000)));
        assert_eq!(c.usi_go(Color::Gote), "go btime 1000 wtime 0 byoyomi 1000");
        assert!(c.charge(Color::Gote, Millis(1001), Millis(0)).is_err());
    }

    #[test]
    fn node_limits_never_flag() {
        let mut c = Clocks::new([TimeControl::Nodes(10); 2]);
        assert!(c.charge(Color::Sente, Millis(100_000), Millis(0)).is_ok());
        assert_eq!(
            c.deadline(Color::Sente, Millis(5)),
            NODES_HANG_LIMIT + Duration::from_millis(5)
        );
    }

    /// Time odds: engine 1 at a node limit against engine 2 on Fischer, in both colours.
    /// Each is sent its own command, timed by its own clock, and only the clocked side is
    /// charged.
    #[test]
    fn each_side_plays_its_own_control_in_either_colour() {
        let nodes = TimeControl::Nodes(3000);
        let fischer: TimeControl = "2+0.25".parse().unwrap();
        for engine1 in Color::BOTH {
            let engine2 = engine1.flip();
            let mut controls = [fischer; 2];
            controls[engine1.index()] = nodes;
            let mut c = Clocks::new(controls);
            // The node-limited side has no clock: 0 main time and no increment.
            let fischer_go = |c: &Clocks| {
                let left = c.remaining[engine2.index()].0;
                let (btime, wtime, binc, winc) = match engine2 {
                    Color::Sente => (left, 0, 250, 0),
                    Color::Gote => (0, left, 0, 250),
                };
                format!("go btime {btime} wtime {wtime} binc {binc} winc {winc}")
            };
            assert_eq!(c.usi_go(engine1), "go nodes 3000");
            assert_eq!(c.usi_go(engine2), fischer_go(&c));
            assert_eq!(c.remaining[engine2.index()], Millis(2000));
            assert_eq!(c.allowance(engine1), None);
            assert_eq!(c.allowance(engine2), Some(Millis(2250)));
            assert_eq!(
                c.deadline(engine1, Millis(10)),
                NODES_HANG_LIMIT + Duration::from_millis(10)
            );
            assert_eq!(c.deadline(engine2, Millis(10)), Duration::from_millis(2260));
            // Engine 1 takes long over its nodes: no flag, no clock change.
            c.charge(engine1, Millis(30_000), Millis(0)).unwrap();
            c.charge(engine2, Millis(1000), Millis(0)).unwrap();
            assert_eq!(c.remaining[engine1.index()], Millis(0));
            assert_eq!(c.remaining[engine2.index()], Millis(1250));
            assert_eq!(c.usi_go(engine1), "go nodes 3000");
            assert_eq!(c.usi_go(engine2), fischer_go(&c));
            assert!(
                c.usi_go(engine2).contains(" 1250 "),
                "{}",
                c.usi_go(engine2)
            );
            assert!(c.charge(engine2, Millis(1501), Millis(0)).is_err());
        }
    }

    /// Time odds on two clocks: each side's own increment or byoyomi, each side's real time.
    #[test]
    fn clocks_of_different_kinds_send_their_own_fields() {
        let sente: TimeControl = "4+0.5".parse().unwrap();
        let gote: TimeControl = "1+byo0.3".parse().unwrap();
        let mut c = Clocks::new([sente, gote]);
        assert_eq!(
            c.usi_go(Color::Sente),
            "go btime 4000 wtime 1000 binc 500 winc 0"
        );
        assert_eq!(
            c.usi_go(Color::Gote),
            "go btime 4000 wtime 1000 byoyomi 300"
        );
        c.charge(Color::Sente, Millis(1500), Millis(0)).unwrap();
        c.charge(Color::Gote, Millis(1200), Millis(0)).unwrap();
        assert_eq!(c.remaining, [Millis(3000), Millis(0)]);
        assert_eq!(c.allowance(Color::Gote), Some(Millis(300)));
        assert_eq!(
            describe_pair([sente, gote], ["sente", "gote"]),
            "4+0.5 for sente, 1+byo0.3 for gote"
        );
        assert_eq!(describe_pair([sente, sente], ["sente", "gote"]), "4+0.5");
    }
}
