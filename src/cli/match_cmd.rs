//! `shishi match`: the command line of engine-vs-engine matches, turned into a
//! [`MatchConfig`] for the referee; prints the summary on stdout.

use super::Variant;
use crate::referee::arbiter::Adjudication;
use crate::referee::openings::{self, Opening};
use crate::referee::process::split_command;
use crate::referee::runner::{run_match, summary, EngineSpec, MatchConfig, Protocol};
use crate::referee::stats::Sprt;
use crate::referee::tc::{Millis, TimeControl};
use crate::referee::variant::MatchVariant;
use crate::rules::variants::chu::ChuRules;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProtocolArg {
    Usi,
    Cecp,
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The game: shogi, chushogi, chukagamigi, shogammon or madness. USI engines are sent
    /// `setoption name USI_Variant value …` (and `ChuRules`) for the variants; CECP engines
    /// `variant shogi` or `variant chu`.
    #[arg(long, value_parser = super::parse_variant, default_value = "shogi")]
    variant: Variant,
    /// Chu Shogi's rule set (lishogi, churul, jcsa): sent to USI engines as `ChuRules` and
    /// used by the referee to judge the games.
    #[arg(long, default_value = "lishogi", value_parser = parse_chu_rules)]
    chu_rules: ChuRules,
    /// Engine 1's command line, e.g. "target/release/shishi" or "python3 my_engine.py".
    #[arg(long)]
    engine1: String,
    /// Engine 2's command line.
    #[arg(long)]
    engine2: String,
    /// Engine 1's protocol.
    #[arg(long, value_enum, default_value = "usi")]
    proto1: ProtocolArg,
    /// Engine 2's protocol.
    #[arg(long, value_enum, default_value = "usi")]
    proto2: ProtocolArg,
    /// Engine 1's name in records (default: the program's file name).
    #[arg(long)]
    name1: Option<String>,
    /// Engine 2's name in records.
    #[arg(long)]
    name2: Option<String>,
    /// An option for engine 1, NAME=VALUE (repeatable): `setoption` for USI, `option` for
    /// CECP.
    #[arg(long = "option1", value_name = "NAME=VALUE")]
    options1: Vec<String>,
    /// An option for engine 2, NAME=VALUE (repeatable).
    #[arg(long = "option2", value_name = "NAME=VALUE")]
    options2: Vec<String>,
    /// How many games (colours alternate in pairs on one opening).
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Time control: BASE+INC seconds (10+0.1), BASE+byoB (30+byo1), byoB, movetime=MS or
    /// nodes=N.
    #[arg(long)]
    tc: TimeControl,
    /// Games played at once (each with its own two engine processes).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Opening file (SFENs or USI move lists, one per line); default: the start position.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Output directory for games.jsonl, match.txt and games/NNNN.kifu|csa.
    #[arg(long)]
    out: PathBuf,
    /// Continue the match recorded in --out instead of refusing to overwrite it.
    #[arg(long)]
    resume: bool,
    /// Stop early on a GSPRT bound: ELO0 ELO1 (logistic Elo, pentanomial model).
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_hyphen_values = true)]
    sprt: Option<Vec<f64>>,
    /// SPRT false-positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// SPRT false-negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// How far past its clock a move may arrive before it loses on time (ms).
    #[arg(long, default_value_t = 200)]
    time_margin: u64,
    /// Engine 1's own time margin (ms), instead of --time-margin.
    #[arg(long)]
    time_margin1: Option<u64>,
    /// Engine 2's own time margin (ms), instead of --time-margin.
    #[arg(long)]
    time_margin2: Option<u64>,
    /// Draw after this many plies, opening moves included (0: no limit; default 320 for
    /// shogi, 1000 for the 12×12 variants and for the Madness's tokens).
    #[arg(long)]
    max_moves: Option<usize>,
    /// Adjudicate a loss when both engines score at least this many cp against one side...
    #[arg(long, requires = "resign_moves")]
    resign_score: Option<i32>,
    /// ...for this many moves each.
    #[arg(long, requires = "resign_score")]
    resign_moves: Option<usize>,
    /// Adjudicate a draw when both engines score within ±this many cp...
    #[arg(long, requires = "draw_moves")]
    draw_score: Option<i32>,
    /// ...for this many moves each...
    #[arg(long, requires = "draw_score")]
    draw_moves: Option<usize>,
    /// ...from this ply on.
    #[arg(long, default_value_t = 0)]
    draw_after: usize,
    /// Seed of the referee's dice and cards in chance variants; both games of a pair get
    /// the same draws.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn parse_chu_rules(text: &str) -> Result<ChuRules, String> {
    ChuRules::from_name(text)
        .ok_or_else(|| format!("unknown Chu rule set {text:?} (lishogi, churul or jcsa)"))
}

fn match_variant(variant: Variant, chu_rules: ChuRules) -> Result<MatchVariant, String> {
    Ok(match variant {
        Variant::Shogi => MatchVariant::Shogi,
        Variant::Chushogi => MatchVariant::Chu(chu_rules),
        Variant::Chukagamigi => MatchVariant::Kagamigi,
        Variant::Shogammon => MatchVariant::Shogammon,
        Variant::Madness => MatchVariant::Madness,
    })
}

fn parse_options(list: &[String]) -> Result<Vec<(String, String)>, String> {
    list.iter()
        .map(|o| {
            o.split_once('=')
                .filter(|(n, _)| !n.trim().is_empty())
                .map(|(n, v)| (n.trim().to_string(), v.to_string()))
                .ok_or_else(|| format!("option {o:?} is not NAME=VALUE"))
        })
        .collect()
}

fn default_name(command: &str) -> Result<String, String> {
    let words = split_command(command)?;
    // For `python3 script.py` name the script, not the interpreter.
    let word = words
        .iter()
        .skip(1)
        .find(|w| !w.starts_with('-'))
        .filter(|_| words[0].starts_with("python"))
        .unwrap_or(&words[0]);
    Ok(std::path::Path::new(word)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| word.clone()))
}

fn protocol(p: ProtocolArg) -> Protocol {
    match p {
        ProtocolArg::Usi => Protocol::Usi,
        ProtocolArg::Cecp => Protocol::Cecp,
    }
}

pub fn run(args: &MatchArgs) -> Result<(), String> {
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if args.concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    for (flag, moves) in [
        ("--resign-moves", args.resign_moves),
        ("--draw-moves", args.draw_moves),
    ] {
        if moves == Some(0) {
            return Err(format!("{flag} must be at least 1"));
        }
    }
    let variant = match_variant(args.variant, args.chu_rules)?;
    let sides = [
        (
            &args.name1,
            &args.engine1,
            args.proto1,
            &args.options1,
            args.time_margin1,
        ),
        (
            &args.name2,
            &args.engine2,
            args.proto2,
            &args.options2,
            args.time_margin2,
        ),
    ];
    let mut engines = Vec::with_capacity(2);
    for (name, command, proto, options, time_margin) in sides {
        engines.push(EngineSpec {
            name: match name {
                Some(n) => n.clone(),
                None => default_name(command)?,
            },
            command: command.clone(),
            protocol: protocol(proto),
            options: parse_options(options)?,
            time_margin: Millis(time_margin.unwrap_or(args.time_margin)),
        });
    }
    let mut engines: [EngineSpec; 2] = engines
        .try_into()
        .unwrap_or_else(|_| unreachable!("one spec per side"));
    if engines[0].name == engines[1].name {
        engines[0].name.push_str("#1");
        engines[1].name.push_str("#2");
    }
    let (openings, openings_name) = match &args.openings {
        Some(path) => (openings::load(path, variant)?, path.display().to_string()),
        None => (vec![Opening::startpos()], "startpos".to_string()),
    };
    for e in &engines {
        if e.protocol == Protocol::Cecp {
            if variant.cecp_name().is_none() {
                return Err(format!(
                    "{} speaks CECP, but no CECP engine plays {variant}",
                    e.name
                ));
            }
            if openings.iter().any(|o| !o.starts_from_startpos(variant)) {
                return Err(format!(
                    "{} speaks CECP, which is driven from the start position only; \
                     use move-list openings",
                    e.name
                ));
            }
            if matches!(args.tc, TimeControl::Nodes(_)) {
                return Err(format!("{}: CECP engines take no node limit", e.name));
            }
        }
    }
    let sprt = match &args.sprt {
        None => None,
        Some(v) => {
            let (elo0, elo1) = (v[0], v[1]);
            if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
                return Err("--sprt needs ELO0 < ELO1".into());
            }
            for (name, p) in [("alpha", args.alpha), ("beta", args.beta)] {
                if !(p > 0.0 && p < 0.5) {
                    return Err(format!("--{name} must be in (0, 0.5)"));
                }
            }
            Some(Sprt {
                elo0,
                elo1,
                alpha: args.alpha,
                beta: args.beta,
            })
        }
    };
    let default_max_plies = match variant {
        MatchVariant::Shogi => 320,
        MatchVariant::Chu(_) | MatchVariant::Kagamigi => 1000,
        // RULES.md §4: a draw after 300 turns per side; a turn is a roll and two actions.
        MatchVariant::Shogammon => 1800,
        // Counted in tokens: a madness turn is up to four of them.
        MatchVariant::Madness => 1000,
    };
    let adjudication = Adjudication {
        max_plies: args.max_moves.unwrap_or(default_max_plies),
        // Set per game from the engines' own margins.
        margins: [Millis(0); 2],
        resign: args.resign_score.zip(args.resign_moves),
        draw: args
            .draw_score
            .zip(args.draw_moves)
            .map(|(cp, n)| (cp, n, args.draw_after)),
    };
    let cfg = MatchConfig {
        variant,
        engines,
        games: args.games,
        tc: args.tc,
        concurrency: args.concurrency,
        openings,
        openings_name,
        out: args.out.clone(),
        resume: args.resume,
        sprt,
        adjudication,
        seed: args.seed,
    };
    let outcome = run_match(&cfg)?;
    // A closed stdout (`| head`) is no reason to fail: every game is on disk.
    let _ = std::io::Write::write_all(&mut std::io::stdout(), summary(&cfg, &outcome).as_bytes());
    Ok(())
}
