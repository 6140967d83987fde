//! The command line of the `shishi` binary: argument parsing and dispatch to one module per
//! subcommand. Errors go to stderr with a non-zero exit code; stdout carries only results.

pub(crate) mod analyse;
pub(crate) mod bench;
mod book;
mod gensfen;
mod job_state;
mod match_cmd;
mod nnue_features;
mod perft;
mod progress;
mod rescore;
mod serve;
mod testnet;

use clap::{Parser, Subcommand};

/// Shishi, a shogi engine. Without a subcommand it speaks USI on stdin/stdout, or CECP
/// (XBoard/WinBoard) with `--xboard` or when the first line it reads is `xboard`.
#[derive(Parser, Debug)]
#[command(name = "shishi", version, about)]
struct Cli {
    /// Speak CECP (the XBoard/WinBoard protocol) instead of USI.
    #[arg(long)]
    xboard: bool,
    /// USI: declare the hidden `Search_…` search parameters as spin options in the answer to
    /// `usi`, for tuners that set only declared options (ShogiArena's SPSA).
    #[arg(long)]
    list_search_params: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the legal-move tree (move-generator proof and speed test). Games:
    /// shogi, chushogi, chukagamigi, shogammon, madness, minishogi.
    Perft(perft::PerftArgs),
    /// Search fixed positions to a fixed depth on one thread: node signature and speed. Games:
    /// shogi, chushogi, chukagamigi, shogammon, madness, minishogi.
    Bench(bench::BenchArgs),
    /// Analyse a position or review a whole game record: board diagram, principal variations,
    /// chance tables. Games: shogi, chushogi, chukagamigi, shogammon, madness, minishogi.
    Analyse(analyse::AnalyseArgs),
    /// Play an engine-vs-engine match (USI or CECP engines) with records and statistics.
    /// Games: shogi, chushogi, chukagamigi, shogammon, madness, minishogi.
    Match(Box<match_cmd::MatchArgs>),
    /// Serve a page on which a person plays the engine, or watches it play itself, in a
    /// browser. Games: shogi, chushogi, chukagamigi, shogammon, madness, minishogi.
    Serve(serve::ServeArgs),
    /// Play standard shogi against itself at a node or depth limit and write training data
    /// for a learned evaluation: YaneuraOu's 40-byte PackedSfenValue records (as its
    /// `gensfen` writes them and cshogi reads them). Seeded, resumable, shardable.
    Gensfen(Box<gensfen::GensfenArgs>),
    /// Make and inspect opening books in YaneuraOu's text format: from game records, by
    /// analysis, by merging; statistics. Games: shogi, chushogi, chukagamigi, minishogi.
    Book(book::BookArgs),
    /// Write a net of random weights in YaneuraOu's halfkp_256x2-32-32 (or, with --arch kp,
    /// kp_256x2-32-32) format, for comparing evaluations with YaneuraOu. Games: shogi.
    Testnet(testnet::TestnetArgs),
    /// Turn PackedSfenValue training records into the feature file (king squares and
    /// BonaPieces, for HalfKP and K+P) the net trainer (scripts/train_nnue.py) reads.
    /// Games: shogi.
    NnueFeatures(nnue_features::NnueFeaturesArgs),
    /// Search again the positions of training data already written and write them with the
    /// new search's score and move: deeper labels, a sample spread over many games.
    /// Resumable, shardable. Games: shogi, chushogi, chukagamigi.
    Rescore(rescore::RescoreArgs),
}

pub use crate::rules::variants::Variant;

/// Reads `--variant` (clap calls this for the value).
pub fn parse_variant(text: &str) -> Result<Variant, String> {
    Variant::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        format!("unknown variant {text:?} (one of {})", names.join(", "))
    })
}

/// Reads `--hash` (MiB): 1 up to USI_Hash's maximum, so that a typo is refused at once
/// instead of filling most of the machine's memory.
pub fn parse_hash_mib(text: &str) -> Result<usize, String> {
    let max = crate::usi::options::HASH_MAX;
    match text.parse::<i64>() {
        Ok(mib) if (1..=max).contains(&mib) => Ok(mib as usize),
        _ => Err(format!("{text:?} is not a table size in MiB (1..={max})")),
    }
}

/// Reads the first line of stdin and hands the input to the CECP engine when it is
/// `xboard` (as XBoard starts an engine), to the USI engine otherwise (that line included).
fn serve_stdin(list_search_params: bool) -> i32 {
    use std::io::{BufRead, Read};
    let mut input = std::io::BufReader::new(std::io::stdin());
    let mut first = Vec::new();
    if let Err(e) = input.read_until(b'\n', &mut first) {
        log::error!("cannot read stdin: {e}");
        return 1;
    }
    let output = crate::usi::output::Output::stdout();
    if String::from_utf8_lossy(&first).trim() == "xboard" {
        log::info!("first line xboard: speaking CECP");
        crate::cecp::run_with(input, output)
    } else {
        let input = std::io::Cursor::new(first).chain(input);
        crate::usi::run_listing(input, output, list_search_params)
    }
}

/// Makes a panic on any thread end the process at once, as a build with `panic = "abort"`
/// does. The release profile unwinds only so that `shishi serve` can end one failing game
/// and go on (docs/SERVE.md); every other command keeps the old rule, so a panic in the
/// USI or CECP engine's search thread can never leave the engine waiting for ever.
fn abort_on_panic() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        report(info);
        std::process::abort();
    }));
}

/// Parses the command line, runs the subcommand and returns the process exit code.
pub fn run() -> i32 {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // clap prints help/version to stdout and usage errors to stderr itself.
            let _ = err.print();
            return if err.use_stderr() { 2 } else { 0 };
        }
    };
    if !matches!(cli.command, Some(Command::Serve(_))) {
        abort_on_panic();
    }
    let result = match cli.command {
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Analyse(args)) => analyse::run(&args),
        Some(Command::Match(args)) => match_cmd::run(&args),
        Some(Command::Serve(args)) => serve::run(&args),
        Some(Command::Gensfen(args)) => gensfen::run(&args),
        Some(Command::Book(args)) => book::run(&args),
        Some(Command::Testnet(args)) => testnet::run(&args),
        Some(Command::NnueFeatures(args)) => nnue_features::run(&args),
        Some(Command::Rescore(args)) => rescore::run(&args),
        None if cli.xboard => return crate::cecp::run(),
        None => return serve_stdin(cli.list_search_params),
    };
    match result {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("error: {message}");
            1
        }
    }
}
