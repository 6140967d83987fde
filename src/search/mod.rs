//! Search: finding the best move of a position under limits, reporting progress as it goes.
//!
//! This module owns the interface the protocol layers (`usi`, `cli`) talk to: the limits of a
//! search, its control flags (stop, ponder), the progress reports and the result. The
//! algorithms live in the submodules.

pub mod mate;

use crate::rules::moves::Move;
use crate::rules::variants::shogi::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A side's clock as sent by `go` (milliseconds; all optional in USI).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Remaining main time per colour (index = `Color::index()`).
    pub time_left: [Option<Duration>; 2],
    /// Fischer increment per colour.
    pub increment: [Option<Duration>; 2],
    /// Byoyomi (per-move allowance once main time is spent).
    pub byoyomi: Option<Duration>,
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
    pub multipv: usize,
    /// Average transport latency subtracted from planned times (ms).
    pub network_delay: Duration,
    /// Worst-case latency used for the hard limit.
    pub network_delay2: Duration,
    /// Plies after which the game is a draw (0 = no limit).
    pub max_moves_to_draw: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 1,
            multipv: 1,
            network_delay: Duration::from_millis(120),
            network_delay2: Duration::from_millis(1120),
            max_moves_to_draw: 0,
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

/// The engine's long-lived search state (transposition table, histories).
pub struct Searcher {
    hash_mb: usize,
}

impl Searcher {
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher { hash_mb }
    }

    /// Resizes the transposition table (memory stays within `hash_mb` MiB).
    pub fn set_hash_size(&mut self, hash_mb: usize) {
        self.hash_mb = hash_mb;
    }

    /// Forgets everything learned (new game, `Clear Hash`).
    pub fn clear(&mut self) {}

    /// Searches `position` (whose history is the game so far) and returns the decision.
    /// `report` is called for each progress line; `control` can stop the search at any time.
    /// Returns only after `control` has been stopped when the search is `infinite` or
    /// pondering (USI: no `bestmove` before `stop`/`ponderhit`).
    pub fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        _config: &Config,
        control: &Control,
        report: &mut dyn FnMut(&Info),
    ) -> Decision {
        // Placeholder until the real search lands: the first legal move.
        let start = Instant::now();
        let mut moves = crate::rules::moves::MoveList::new();
        position.generate_legal(&mut moves);
        let _ = self.hash_mb;
        while (limits.infinite || control.is_pondering()) && !control.is_stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
        match moves.first() {
            None => Decision::Resign,
            Some(best) => {
                report(&Info {
                    depth: 1,
                    seldepth: 1,
                    multipv: 1,
                    score: Score::Cp(0),
                    bound: Bound::Exact,
                    nodes: moves.len() as u64,
                    elapsed: start.elapsed(),
                    hashfull: 0,
                    pv: vec![*best],
                });
                Decision::Move {
                    best: *best,
                    ponder: None,
                }
            }
        }
    }
}
