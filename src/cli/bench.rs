//! `shishi bench`: searches fixed positions of a variant to a fixed depth on one thread and
//! prints the total node count (a signature that changes only when the search changes) and
//! nodes/second.
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
use crate::search::{Config, Control, Limits, Searcher};
use crate::usi::game::{with_position, RuleOptions, UsiPosition};
use crate::usi::options;
use clap::Args;
use std::time::{Duration, Instant};

/// The bench positions of each variant.
const SHOGI: &str = include_str!("../../positions/bench/shogi.sfen");
const CHUSHOGI: &str = include_str!("../../positions/bench/chushogi.sfen");
const CHUKAGAMIGI: &str = include_str!("../../positions/bench/chukagamigi.sfen");

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The game.
    #[arg(long, value_parser = super::parse_variant, default_value = "shogi")]
    variant: Variant,
    /// Depth searched in each position (default: 10 for shogi, 9 for the 12×12 games).
    #[arg(long)]
    depth: Option<u32>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
}

/// The bench positions of `variant`, parsed.
pub fn positions(variant: Variant) -> Result<Vec<UsiPosition>, String> {
    let (text, usi_variant) = match variant {
        Variant::Shogi => (SHOGI, options::Variant::Shogi),
        Variant::Chushogi => (CHUSHOGI, options::Variant::Chushogi),
        Variant::Chukagamigi => (CHUKAGAMIGI, options::Variant::Chukagamigi),
        Variant::Shogammon | Variant::Madness => {
            return Err(format!("bench does not cover {variant:?} yet"))
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
    let positions = positions(args.variant)?;
    let depth = args.depth.unwrap_or(match args.variant {
        Variant::Shogi => 10,
        _ => 9,
    });
    let mut searcher = Searcher::new(args.hash);
    let config = Config::default();
    let limits = Limits {
        depth: Some(depth.max(1)),
        ..Limits::default()
    };
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    for (i, position) in positions.iter().enumerate() {
        searcher.clear();
        let mut nodes = 0;
        let start = Instant::now();
        let best = with_position!(position,
            pos => {
                let decision = searcher.search(pos.as_ref(), &limits, &config, &Control::new(false), &mut |info| {
                    nodes = info.nodes;
                });
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
        total_nodes += nodes;
        total_time += elapsed;
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
