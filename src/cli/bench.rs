//! `shishi bench`: searches fixed positions of a variant to a fixed depth (on one thread
//! unless `--threads` says more) and prints the total node count (on one thread, a signature
//! that changes only when the search changes) and nodes/second.
//!
//! The positions are `positions/bench/<variant>.sfen`, embedded at build time so the binary
//! benches the same positions wherever it runs. A line is an SFEN or USI `position`
//! arguments (`startpos moves …`).

/// Prints a line on stdout; a closed pipe (`| head`) is not an error worth a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

use super::Variant;
use crate::rules::variants::shogammon;
use crate::search::chance::{ChanceLimits, ChanceSearcher, ChanceSettings, Depth};
use crate::search::threads::SearchPool;
use crate::search::{Config, Control, Limits, ParallelMode, Searcher};
use crate::usi::game::{with_position, RuleOptions, UsiPosition};
use crate::usi::options;
use clap::Args;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The bench positions of each variant.
const SHOGI: &str = include_str!("../../positions/bench/shogi.sfen");
const CHUSHOGI: &str = include_str!("../../positions/bench/chushogi.sfen");
const CHUKAGAMIGI: &str = include_str!("../../positions/bench/chukagamigi.sfen");
const SHOGAMMON: &str = include_str!("../../positions/bench/shogammon.sfen");

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The game: shogi, chushogi, chukagamigi or shogammon (madness has no bench yet).
    #[arg(long, value_parser = super::parse_variant, default_value = "shogi")]
    variant: Variant,
    /// Depth searched in each position (default: 10 for shogi, 9 for the 12×12 games; each
    /// Shogammon line names its depth in whole turns).
    #[arg(long)]
    depth: Option<u32>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Search threads (node counts then vary from run to run: no signature).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// How threads beyond the first share a search (lazysmp or rootsplit; the alpha-beta
    /// games only).
    #[arg(long, value_parser = super::analyse::parse_parallel)]
    parallel: Option<ParallelMode>,
}

/// The bench positions of `variant`, parsed.
pub fn positions(variant: Variant) -> Result<Vec<UsiPosition>, String> {
    let (text, usi_variant) = match variant {
        Variant::Shogi => (SHOGI, options::Variant::Shogi),
        Variant::Chushogi => (CHUSHOGI, options::Variant::Chushogi),
        Variant::Chukagamigi => (CHUKAGAMIGI, options::Variant::Chukagamigi),
        Variant::Shogammon | Variant::Madness => {
            return Err(format!("{variant:?} has no alpha-beta bench positions"))
        }
    };
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let args = if words[0] == "startpos" {
                words
            } else {
                std::iter::once("sfen").chain(words).collect()
            };
            UsiPosition::parse(&args, usi_variant, RuleOptions::default())
                .map_err(|e| format!("bench position {l:?}: {e}"))
        })
        .collect()
}

pub fn run(args: &BenchArgs) -> Result<(), String> {
    match args.variant {
        Variant::Shogammon => return bench_shogammon(args),
        Variant::Madness => return Err("bench does not cover madness yet".to_string()),
        _ => {}
    }
    let positions = positions(args.variant)?;
    let depth = args.depth.unwrap_or(match args.variant {
        Variant::Shogi => 10,
        _ => 9,
    });
    let mut searcher = Searcher::new(args.hash);
    let config = Config {
        threads: args.threads as usize,
        parallel: args.parallel.unwrap_or_default(),
        ..Config::default()
    };
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    let mut progress = super::progress::Progress::new("bench");
    for (i, position) in positions.iter().enumerate() {
        progress.step(i + 1, positions.len());
        searcher.clear();
        let start = Instant::now();
        let best = with_position!(position,
            pos => {
                let decision = searcher.search(pos.as_ref(), &limits, &config, &Control::new(false), &mut |_| {});
                match decision {
                    crate::search::Decision::Move { best, .. } => {
                        crate::rules::notation::GameText::move_text(pos.as_ref(), best)
                    }
                    other => format!("{other:?}"),
                }
            },
            _chance => return Err("bench covers the deterministic variants only".to_string())
        );
        let elapsed = start.elapsed();
        let nodes = searcher.last_nodes();
        total_nodes += nodes;
        total_time += elapsed;
        progress.clear();
        say!(
            "position {:>2}: nodes {:>10} time {:>6} ms best {best}",
            i + 1,
            nodes,
            elapsed.as_millis()
        );
    }
    progress.finish();
    say!("time {}", total_time.as_millis());
    say!("nodes {total_nodes}");
    say!(
        "nps {:.0}",
        total_nodes as f64 / total_time.as_secs_f64().max(1e-9)
    );
    Ok(())
}

/// Reads a line of `positions/bench/shogammon.sfen`: the depth in whole turns, the four
/// SFEN fields (a turn start), then the tokens played since (`r:61 7g7f`).
pub fn shogammon_line(line: &str) -> Result<(Depth, shogammon::Position), String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 5 {
        return Err(format!("{line:?}: expected a depth and a four-field SFEN"));
    }
    let depth: u32 = fields[0]
        .parse()
        .map_err(|e| format!("{line:?}: depth: {e}"))?;
    let sfen = fields[1..5].join(" ");
    let mut pos = shogammon::Position::from_sfen(&sfen).map_err(|e| format!("{line:?}: {e}"))?;
    for token in &fields[5..] {
        let action = pos
            .parse_action(token)
            .map_err(|e| format!("{line:?}: {token}: {e}"))?;
        pos.play(action);
    }
    Ok((Depth(depth), pos))
}

/// Shogammon: each line searched by the chance search (Star2, default settings, a fresh
/// table) to its own depth, or `--depth` turns.
fn bench_shogammon(args: &BenchArgs) -> Result<(), String> {
    let lines: Vec<&str> = SHOGAMMON
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    let mut pool = SearchPool::default();
    let mut progress = super::progress::Progress::new("bench");
    for (i, line) in lines.iter().enumerate() {
        progress.step(i + 1, lines.len());
        let (depth, mut pos) = shogammon_line(line)?;
        let mut searcher = ChanceSearcher::new(ChanceSettings {
            hash_mb: args.hash,
            ..ChanceSettings::default()
        });
        let limits = ChanceLimits {
            depth: Some(args.depth.map_or(depth, Depth)),
            ..ChanceLimits::default()
        };
        let pov = pos.side_to_move();
        let start = Instant::now();
        let stop = Arc::new(AtomicBool::new(false));
        let result = match pool.get(args.threads as usize) {
            Some(pool) => {
                searcher.search_parallel(pool, &mut pos, pov, &limits, &stop, &mut |_| {})
            }
            None => searcher.search(&mut pos, pov, &limits, &stop),
        };
        let elapsed = start.elapsed();
        total_nodes += result.nodes;
        total_time += elapsed;
        let best: Vec<String> = result.best.iter().map(|&a| pos.action_to_usi(a)).collect();
        progress.clear();
        say!(
            "position {:>2}: nodes {:>10} time {:>6} ms value {} best {}",
            i + 1,
            result.nodes,
            elapsed.as_millis(),
            result.value.0,
            if best.is_empty() {
                "-".to_string()
            } else {
                best.join(",")
            }
        );
    }
    progress.finish();
    say!("time {}", total_time.as_millis());
    say!("nodes {total_nodes}");
    say!(
        "nps {:.0}",
        total_nodes as f64 / total_time.as_secs_f64().max(1e-9)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_bench_positions_that_parse() {
        for (variant, at_least) in [
            (Variant::Shogi, 4),
            (Variant::Chushogi, 4),
            (Variant::Chukagamigi, 4),
        ] {
            let positions = positions(variant).unwrap();
            assert!(positions.len() >= at_least, "{variant:?}");
        }
    }
}
