//! `shishi match`: the command line of engine-vs-engine matches, turned into a
//! [`MatchConfig`] for the referee; prints the summary on stdout.

use super::Variant;
use crate::referee::arbiter::Adjudication;
use crate::referee::openings::{self, Opening};
use crate::referee::process::split_command;
use crate::referee::runner::{run_match, summary, EngineSpec, MatchConfig, Protocol};
use crate::referee::stats::Sprt;
use crate::referee::tc::{Millis, TimeControl};
use crate::rules::variants::chu::ChuRules;
use crate::rules::variants::{GameChoice, RuleOptions};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ProtocolArg {
    Usi,
    Cecp,
}

#[derive(Args, Debug)]
#[command(
    override_usage = "shishi match [OPTIONS] --engine1 <ENGINE1> --engine2 <ENGINE2> --out <OUT> \
<--tc <TC> | --tc1 <TC> --tc2 <TC>>"
)]
pub struct MatchArgs {
    /// The game: shogi, chushogi, chukagamigi, shogammon, madness or minishogi. USI engines are sent
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
    /// Both engines' time control: BASE+INC seconds (10+0.1), BASE+byoB (30+byo1), byoB,
    /// movetime=MS or nodes=N. Required unless both --tc1 and --tc2 are given.
    #[arg(long, value_name = "TC", required_unless_present_all = ["tc1", "tc2"])]
    tc: Option<TimeControl>,
    /// Engine 1's own time control, instead of --tc (the same forms; time or node odds).
    /// It goes with engine 1 in either colour.
    #[arg(long, value_name = "TC")]
    tc1: Option<TimeControl>,
    /// Engine 2's own time control, instead of --tc.
    #[arg(long, value_name = "TC")]
    tc2: Option<TimeControl>,
    /// Games played at once (each with its own two engine processes).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Opening file (SFENs or USI move lists, one per line); default: the start position.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Opening book (YaneuraOu's text format): openings are drawn from it by walking it
    /// from each base opening (--openings, else the start position), each move drawn by
    /// count with the match's --seed. Not for shogammon or madness.
    #[arg(long)]
    book: Option<PathBuf>,
    /// How many plies to walk the book (it may end sooner).
    #[arg(long, default_value_t = 8)]
    book_plies: usize,
    /// How many book openings to draw (default: one per pair of games); repeated lines are
    /// drawn again, up to 20 tries each.
    #[arg(long)]
    book_openings: Option<usize>,
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
    /// Draw after this many plies, opening moves included (0: no limit; default each game's
    /// own: 320 for shogi, 1000 for the 12×12 variants and for the Madness's tokens, 1800
    /// Shogammon tokens, 300 for minishogi).
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

/// Each engine's time control, engine 1's first: its own `--tc1`/`--tc2`, else `--tc`.
fn time_controls(
    shared: Option<TimeControl>,
    own: [Option<TimeControl>; 2],
) -> Result<[TimeControl; 2], String> {
    let [first, second] = own.map(|tc| tc.or(shared));
    first
        .zip(second)
        .map(<[TimeControl; 2]>::from)
        .ok_or_else(|| {
            "no time control: give --tc (both engines), or both --tc1 and --tc2 (one each)".into()
        })
}

/// The warning for a `--tc` that neither engine plays, both having their own.
fn unused_shared_tc(shared: Option<TimeControl>, own: [Option<TimeControl>; 2]) -> Option<String> {
    (shared.is_some() && own.iter().all(Option::is_some)).then(|| {
        "warning: --tc is unused: --tc1 and --tc2 give each engine its own time control".into()
    })
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
    let variant = GameChoice::new(
        args.variant,
        RuleOptions {
            chu_rules: args.chu_rules,
            ..RuleOptions::default()
        },
    );
    let [time_control1, time_control2] = time_controls(args.tc, [args.tc1, args.tc2])?;
    if let Some(warning) = unused_shared_tc(args.tc, [args.tc1, args.tc2]) {
        eprintln!("{warning}");
    }
    let sides = [
        (
            &args.name1,
            &args.engine1,
            args.proto1,
            &args.options1,
            args.time_margin1,
            time_control1,
        ),
        (
            &args.name2,
            &args.engine2,
            args.proto2,
            &args.options2,
            args.time_margin2,
            time_control2,
        ),
    ];
    let mut engines = Vec::with_capacity(2);
    for (name, command, proto, options, time_margin, time_control) in sides {
        engines.push(EngineSpec {
            name: match name {
                Some(n) => n.clone(),
                None => default_name(command)?,
            },
            command: command.clone(),
            protocol: protocol(proto),
            options: parse_options(options)?,
            time_margin: Millis(time_margin.unwrap_or(args.time_margin)),
            time_control,
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
    let (openings, openings_name) = match &args.book {
        None => (openings, openings_name),
        Some(book) => {
            let count = args.book_openings.unwrap_or(args.games.div_ceil(2)).max(1);
            let drawn = book_openings(book, variant, &openings, args.book_plies, count, args.seed)?;
            let name = format!(
                "{openings_name} + {} ({count} lines of up to {} plies, seed {})",
                book.display(),
                args.book_plies,
                args.seed
            );
            // The plain list comes first when given; without it only the book's lines.
            let mut all = if args.openings.is_some() {
                openings
            } else {
                Vec::new()
            };
            all.extend(drawn);
            (all, name)
        }
    };
    for e in &engines {
        if e.protocol == Protocol::Cecp {
            if variant.spec().cecp_name.is_none() {
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
            if matches!(e.time_control, TimeControl::Nodes(_)) {
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
    let adjudication = Adjudication {
        max_plies: args.max_moves.unwrap_or(variant.spec().move_limit),
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

/// Draws `count` openings by walking `book` up to `plies` plies from the bases in turn,
/// each move drawn by count with a generator seeded with `seed`. A line drawn before is
/// drawn again (up to 20 tries) so that the openings differ when the book allows.
fn book_openings(
    book: &std::path::Path,
    variant: GameChoice,
    bases: &[Opening],
    plies: usize,
    count: usize,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    use crate::book::choose::{walk, BookPosition};
    use rand::SeedableRng;
    let loaded = crate::book::BookSource::open(book, false, false)?;
    for problem in &loaded.problems {
        eprintln!("{}: {problem}, skipped", book.display());
    }
    let mut source = loaded.source;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut drawn: Vec<Opening> = Vec::new();
    let mut book_moves = 0usize;
    for i in 0..count {
        let base = &bases[i % bases.len()];
        let mut start = super::book::position_of(
            variant.variant,
            Some(variant.options.chu_rules),
            base.sfen.as_deref(),
        )?;
        for mv in &base.moves {
            if !start.play_text(mv) {
                return Err(format!("opening move {mv} is illegal"));
            }
        }
        let mut line = Vec::new();
        for _ in 0..20 {
            line = walk(&start, &mut source, plies, &mut rng);
            let opening = Opening {
                sfen: base.sfen.clone(),
                moves: base
                    .moves
                    .iter()
                    .cloned()
                    .chain(line.iter().cloned())
                    .collect(),
            };
            if !drawn.contains(&opening) {
                break;
            }
        }
        book_moves += line.len();
        drawn.push(Opening {
            sfen: base.sfen.clone(),
            moves: base.moves.iter().cloned().chain(line).collect(),
        });
    }
    if book_moves == 0 {
        return Err(format!(
            "{} has no move for the openings' positions ({})",
            book.display(),
            variant
        ));
    }
    Ok(drawn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `shishi match`'s arguments alone, as clap reads them.
    #[derive(Parser, Debug)]
    struct MatchLine {
        #[command(flatten)]
        args: MatchArgs,
    }

    fn parse(extra: &[&str]) -> Result<MatchArgs, clap::Error> {
        let base = ["match", "--engine1", "a", "--engine2", "b", "--out", "o"];
        MatchLine::try_parse_from(base.iter().chain(extra)).map(|line| line.args)
    }

    fn controls(extra: &[&str]) -> Result<[TimeControl; 2], String> {
        let args = parse(extra).map_err(|e| e.to_string())?;
        time_controls(args.tc, [args.tc1, args.tc2])
    }

    #[test]
    fn tc1_and_tc2_override_tc_for_their_engine() {
        let nodes = TimeControl::Nodes(10_000);
        let fischer = TimeControl::Fischer {
            base: Millis(10_000),
            inc: Millis(100),
        };
        assert_eq!(controls(&["--tc", "10+0.1"]), Ok([fischer; 2]));
        assert_eq!(
            controls(&["--tc", "10+0.1", "--tc1", "nodes=10000"]),
            Ok([nodes, fischer])
        );
        assert_eq!(
            controls(&["--tc", "nodes=10000", "--tc2", "10+0.1"]),
            Ok([nodes, fischer])
        );
        assert_eq!(
            controls(&["--tc2", "10+0.1", "--tc1", "nodes=10000"]),
            Ok([nodes, fischer])
        );
        assert_eq!(
            controls(&["--tc", "byo1", "--tc1", "nodes=10000", "--tc2", "10+0.1"]),
            Ok([nodes, fischer])
        );
    }

    #[test]
    fn a_tc_that_neither_engine_plays_is_warned_of() {
        let warning = |flags: &[&str]| {
            let args = parse(flags).expect("the flags parse");
            unused_shared_tc(args.tc, [args.tc1, args.tc2])
        };
        let both = warning(&["--tc", "byo1", "--tc1", "nodes=10000", "--tc2", "10+0.1"]);
        assert!(both.is_some_and(|w| w.contains("--tc is unused")));
        assert_eq!(warning(&["--tc", "byo1", "--tc1", "nodes=10000"]), None);
        assert_eq!(warning(&["--tc1", "byo1", "--tc2", "nodes=10000"]), None);
    }

    #[test]
    fn a_time_control_is_needed_for_each_engine() {
        for missing in [&[][..], &["--tc1", "10+0.1"], &["--tc2", "nodes=5"]] {
            let error = parse(missing).expect_err("no time control for an engine");
            assert_eq!(
                error.kind(),
                clap::error::ErrorKind::MissingRequiredArgument,
                "{missing:?}"
            );
            assert!(error.to_string().contains("--tc <TC>"), "{error}");
        }
        // The referee's own check, should clap's ever let such a line through.
        let fischer = Some(TimeControl::MoveTime(Millis(100)));
        for own in [[None, None], [fischer, None], [None, fischer]] {
            let error = time_controls(None, own).expect_err("an engine without a control");
            assert!(error.contains("--tc1"), "{error}");
        }
    }

    #[test]
    fn an_unreadable_tc1_or_tc2_is_refused_by_name() {
        for (flag, bad) in [("--tc1", "fast"), ("--tc2", "nodes=0"), ("--tc1", "10+x")] {
            let error = parse(&["--tc", "1+0", flag, bad]).expect_err(bad);
            assert_eq!(error.kind(), clap::error::ErrorKind::ValueValidation);
            assert!(error.to_string().contains(flag), "{error}");
        }
    }
}
