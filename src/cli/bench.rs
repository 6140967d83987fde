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
use crate::eval::nnue::features::NetGame;
use crate::eval::nnue::Network;
use crate::rules::variants::Search;
use crate::rules::variants::{madness, shogammon};
use crate::search::chance::{ChanceLimits, ChanceSearcher, ChanceSettings, Depth};
use crate::search::params::SearchParams;
use crate::search::threads::SearchPool;
use crate::search::{Config, Control, Limits, ParallelMode, Searcher};
use crate::usi::chance::{legal_texts, UsiChanceGame};
use crate::usi::position::{with_position, RuleOptions, UsiPosition};
use clap::Args;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Each game's bench positions and, for the alpha-beta games, the depth searched unless
/// `--depth` says otherwise (the chance games' lines name their own).
const BENCH: &[(Variant, &str, u32)] = &[
    (
        Variant::Shogi,
        include_str!("../../positions/bench/shogi.sfen"),
        10,
    ),
    (
        Variant::Chushogi,
        include_str!("../../positions/bench/chushogi.sfen"),
        9,
    ),
    (
        Variant::Chukagamigi,
        include_str!("../../positions/bench/chukagamigi.sfen"),
        9,
    ),
    (
        Variant::Shogammon,
        include_str!("../../positions/bench/shogammon.sfen"),
        0,
    ),
    (
        Variant::Madness,
        include_str!("../../positions/bench/madness.sfen"),
        0,
    ),
    (
        Variant::Minishogi,
        include_str!("../../positions/bench/minishogi.sfen"),
        8,
    ),
];

/// `variant`'s bench text and default depth.
fn bench_of(variant: Variant) -> Result<(&'static str, u32), String> {
    BENCH
        .iter()
        .find(|(v, _, _)| *v == variant)
        .map(|&(_, text, depth)| (text, depth))
        .ok_or_else(|| format!("{} has no bench positions", variant.name()))
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The game: shogi, chushogi, chukagamigi, shogammon, madness or minishogi.
    #[arg(long, value_parser = super::parse_variant, default_value = "shogi")]
    variant: Variant,
    /// Depth searched in each position (default: 10 for shogi, 9 for the 12×12 games; each
    /// Shogammon and Madness line names its own depth in the chance search's units), 1 to
    /// 120.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=120))]
    depth: Option<u32>,
    /// Transposition table size in MiB (1..=1048576).
    #[arg(long, default_value_t = 16, value_parser = super::parse_hash_mib)]
    hash: usize,
    /// Search threads (node counts then vary from run to run: no signature).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// How threads beyond the first share a search (lazysmp or rootsplit; the alpha-beta
    /// games only).
    #[arg(long, value_parser = super::analyse::parse_parallel)]
    parallel: Option<ParallelMode>,
    /// A search parameter, NAME=VALUE (repeatable): the hidden `Search_…` USI options of
    /// docs/STRENGTH.md, to read a candidate setting's node signature.
    #[arg(long = "param", value_parser = parse_param)]
    params: Vec<(String, i32)>,
    /// Evaluate standard shogi, and the Central Madness's board, with this net (a YaneuraOu
    /// `nn.bin`; `<builtin>`: the net built into the engine), or Chu Shogi, Chu Kagamigi or
    /// Shogammon with one of Shishi's nets for them (`<builtin>`: the game's built-in net),
    /// instead of the hand-written evaluation (every game's default here, so that the
    /// signatures stay the tables').
    #[arg(long, value_name = "FILE|<builtin>")]
    eval_file: Option<std::path::PathBuf>,
}

/// `NAME=VALUE` of `--param`, checked against the parameter's range.
fn parse_param(text: &str) -> Result<(String, i32), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?} is not NAME=VALUE"))?;
    let value: i32 = value
        .trim()
        .parse()
        .map_err(|_| format!("{value:?} is not an integer"))?;
    SearchParams::default().set(name.trim(), value)?;
    Ok((name.trim().to_string(), value))
}

/// The bench positions of `variant`, parsed.
pub fn positions(variant: Variant) -> Result<Vec<UsiPosition>, String> {
    if variant.spec().search != Search::AlphaBeta {
        return Err(format!("{variant:?} has no alpha-beta bench positions"));
    }
    let (text, _) = bench_of(variant)?;
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
            UsiPosition::parse(&args, variant, RuleOptions::default())
                .map_err(|e| format!("bench position {l:?}: {e}"))
        })
        .collect()
}

pub fn run(args: &BenchArgs) -> Result<(), String> {
    let net = network(args)?;
    if args.variant.spec().search == Search::Chance {
        return bench_chance(args, net);
    }
    let positions = positions(args.variant)?;
    let depth = args.depth.unwrap_or(bench_of(args.variant)?.1);
    let mut searcher = Searcher::new(args.hash);
    if let Some(net) = net {
        searcher.set_game_network(net.features.game(), Some(net));
    }
    let mut config = Config {
        threads: args.threads as usize,
        parallel: args.parallel.unwrap_or_default(),
        ..Config::default()
    };
    for (name, value) in &args.params {
        config.params.set(name, *value)?;
    }
    let limits = Limits {
        depth: Some(depth),
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

/// Reads a line of `positions/bench/madness.sfen`: the depth, then USI `position` arguments
/// as one player is sent them (`startpos moves draw:3 draw:? …`: the opponent's cards hidden).
pub fn madness_line(line: &str) -> Result<(Depth, madness::PlayerView), String> {
    let (depth, setup) = line
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("{line:?}: expected a depth and a position"))?;
    let depth: u32 = depth.parse().map_err(|e| format!("{line:?}: depth: {e}"))?;
    let words: Vec<&str> = setup.split_whitespace().collect();
    match UsiPosition::parse(&words, Variant::Madness, RuleOptions::default()) {
        Ok(UsiPosition::Madness(view)) => Ok((Depth(depth), *view)),
        Ok(_) => unreachable!("a Madness position parses as the Madness"),
        Err(e) => Err(format!("{line:?}: {e}")),
    }
}

/// The bench lines of a chance game (comments and blank lines dropped).
fn chance_lines(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// The net `--eval-file` names, for the games that can use one (standard shogi, the
/// Madness's board, the 12×12 games, Shogammon).
fn network(args: &BenchArgs) -> Result<Option<Arc<Network>>, String> {
    let Some(path) = &args.eval_file else {
        return Ok(None);
    };
    let (net, _) = crate::eval::nnue::builtin::load_named_for(path, args.variant)
        .map_err(|e| format!("--eval-file: {e}"))?;
    Ok(Some(net))
}

/// Shogammon and the Madness: each line searched by the chance search (Star2, default
/// settings, a fresh table, the Madness's board valued by `net` or Shogammon's evaluation
/// corrected by it, when given) to its own depth, or `--depth`.
fn bench_chance(args: &BenchArgs, net: Option<Arc<Network>>) -> Result<(), String> {
    let lines = chance_lines(bench_of(args.variant)?.0);
    let mut totals = ChanceTotals::default();
    let mut pool = SearchPool::default();
    let mut progress = super::progress::Progress::new("bench");
    for (i, line) in lines.iter().enumerate() {
        progress.step(i + 1, lines.len());
        let row = match args.variant {
            Variant::Shogammon => {
                let (depth, pos) = shogammon_line(line)?;
                bench_chance_position(args, &mut pool, depth, pos, net.clone())
            }
            _ => {
                let (depth, view) = madness_line(line)?;
                bench_chance_position(args, &mut pool, depth, view, net.clone())
            }
        };
        progress.clear();
        say!("position {:>2}: {row}", i + 1);
        totals.add(&row);
    }
    progress.finish();
    totals.print();
    Ok(())
}

/// One chance bench position's search.
struct ChanceRow {
    nodes: u64,
    elapsed: Duration,
    value: i32,
    best: Vec<String>,
}

impl std::fmt::Display for ChanceRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "nodes {:>10} time {:>6} ms value {} best {}",
            self.nodes,
            self.elapsed.as_millis(),
            self.value,
            if self.best.is_empty() {
                "-".to_string()
            } else {
                self.best.join(",")
            }
        )
    }
}

/// The sums printed under a chance bench.
#[derive(Default)]
struct ChanceTotals {
    nodes: u64,
    time: Duration,
}

impl ChanceTotals {
    fn add(&mut self, row: &ChanceRow) {
        self.nodes += row.nodes;
        self.time += row.elapsed;
    }

    fn print(&self) {
        say!("time {}", self.time.as_millis());
        say!("nodes {}", self.nodes);
        say!(
            "nps {:.0}",
            self.nodes as f64 / self.time.as_secs_f64().max(1e-9)
        );
    }
}

/// Searches one chance position from the view of the player to act.
fn bench_chance_position<G: UsiChanceGame>(
    args: &BenchArgs,
    pool: &mut SearchPool,
    depth: Depth,
    mut pos: G,
    net: Option<Arc<Network>>,
) -> ChanceRow {
    let mut searcher = ChanceSearcher::new(ChanceSettings {
        hash_mb: args.hash,
        ..ChanceSettings::default()
    });
    match net {
        Some(net) if net.features.game() == NetGame::Shogammon => {
            searcher.set_shogammon_network(Some(net))
        }
        net => searcher.set_network(net),
    }
    let limits = ChanceLimits {
        depth: Some(args.depth.map_or(depth, Depth)),
        ..ChanceLimits::default()
    };
    let pov = pos.player_to_act();
    let root = pos.clone();
    let start = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let pool = pool.get(args.threads as usize);
    let result = searcher.search_reporting(pool, &mut pos, pov, &limits, &stop, &mut |_| {});
    ChanceRow {
        nodes: result.nodes,
        elapsed: start.elapsed(),
        value: result.value.0,
        best: legal_texts(&root, &result.best),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::{Game, NodeKind};

    #[test]
    fn every_variant_has_bench_positions_that_parse() {
        for &variant in Variant::ALL {
            let (text, _) = bench_of(variant).unwrap();
            if variant.spec().search == Search::AlphaBeta {
                let positions = positions(variant).unwrap();
                assert!(positions.len() >= 4, "{variant:?}");
            } else {
                assert!(chance_lines(text).len() >= 4, "{variant:?}");
            }
        }
    }

    #[test]
    fn every_madness_bench_line_is_a_decision_of_the_viewer() {
        let lines = chance_lines(bench_of(Variant::Madness).unwrap().0);
        assert!(lines.len() >= 8);
        for line in lines {
            let (depth, view) = madness_line(line).unwrap();
            assert!(depth.0 >= 1, "{line}");
            // The view is the player to act's own, so its root is a decision, not a chance
            // node standing for a card it cannot see.
            assert_eq!(view.cards().me, view.side_to_move(), "{line}");
            assert!(matches!(view.node_kind(), NodeKind::Decision(_)), "{line}");
        }
    }

    #[test]
    fn a_madness_bench_line_must_be_a_position() {
        assert!(madness_line("3").is_err());
        assert!(madness_line("x startpos").is_err());
        assert!(madness_line("3 startpos moves draw:3 draw:? 9a9b").is_err());
    }
}
