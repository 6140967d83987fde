//! `shishi bench`: searches fixed positions to a fixed depth on one thread and prints the
//! total node count (a signature that changes only when the search changes) and nodes/second.
//!
//! The positions are `positions/bench/shogi.sfen`, embedded at build time so the binary
//! benches the same positions wherever it runs.

/// Prints a line on stdout; a closed pipe (`| head`) is not an error worth a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

use crate::rules::variants::shogi::Position;
use crate::search::{Config, Control, Limits, Searcher};
use clap::Args;
use std::time::{Duration, Instant};

/// The bench positions, one SFEN per line (`#` starts a comment).
pub const POSITIONS: &str = include_str!("../../positions/bench/shogi.sfen");

/// The depth searched unless `--depth` says otherwise.
pub const DEFAULT_DEPTH: u32 = 10;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth searched in each position.
    #[arg(long, default_value_t = DEFAULT_DEPTH)]
    depth: u32,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
}

/// The bench positions, parsed.
pub fn positions() -> Result<Vec<Position>, String> {
    POSITIONS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| Position::from_sfen(l).map_err(|e| format!("bench position {l:?}: {e}")))
        .collect()
}

pub fn run(args: &BenchArgs) -> Result<(), String> {
    let positions = positions()?;
    let mut searcher = Searcher::new(args.hash);
    let config = Config::default();
    let limits = Limits {
        depth: Some(args.depth.max(1)),
        ..Limits::default()
    };
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    for (i, pos) in positions.iter().enumerate() {
        searcher.clear();
        let mut nodes = 0;
        let start = Instant::now();
        let decision = searcher.search(pos, &limits, &config, &Control::new(false), &mut |info| {
            nodes = info.nodes;
        });
        let elapsed = start.elapsed();
        total_nodes += nodes;
        total_time += elapsed;
        let best = match decision {
            crate::search::Decision::Move { best, .. } => pos.move_to_usi(best),
            other => format!("{other:?}"),
        };
        say!(
            "position {:>2}: nodes {:>10} time {:>6} ms best {best}",
            i + 1,
            nodes,
            elapsed.as_millis()
        );
    }
    say!("time {}", total_time.as_millis());
    say!("nodes {total_nodes}");
    say!(
        "nps {:.0}",
        total_nodes as f64 / total_time.as_secs_f64().max(1e-9)
    );
    Ok(())
}
