//! The `shishi` command line driven as a process: results on stdout, errors on stderr with
//! a non-zero exit code, never a panic.

#[path = "common/run_shishi.rs"]
mod run_shishi;
#[path = "common/scratch_dir.rs"]
mod scratch_dir;
use run_shishi::{shishi, text};
use scratch_dir::ScratchDir;

#[test]
fn perft_prints_nodes_time_and_speed() {
    let out = shishi(&["perft", "--variant", "shogi", "--startpos", "--depth", "3"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(stdout.lines().any(|l| l == "nodes 25470"), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("time ")));
    assert!(stdout.lines().any(|l| l.starts_with("nps ")));
}

#[test]
fn perft_divide_lists_every_first_move() {
    let out = shishi(&["perft", "--startpos", "--depth", "2", "--divide"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let rows: Vec<&str> = stdout.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(rows.len(), 30);
    assert!(rows.iter().all(|r| r.ends_with(": 30")), "{stdout}");
    assert!(stdout.lines().any(|l| l == "nodes 900"));
}

#[test]
fn perft_after_moves_and_from_sfen() {
    let out = shishi(&[
        "perft",
        "--sfen",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "--moves",
        "7g7f 3c3d",
        "--depth",
        "1",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // After 7g7f 3c3d sente has 39 moves, 8h2b and 8h2b+ among them (cshogi agrees).
    assert!(text(&out.stdout).lines().any(|l| l == "nodes 39"));
}

#[test]
fn bad_input_is_refused_with_a_message_and_non_zero_exit() {
    for args in [
        vec!["perft", "--sfen", "not an sfen", "--depth", "2"],
        vec!["perft", "--sfen", "9/9/9/9/9/9/9/9/9 x - 1", "--depth", "1"],
        vec!["perft", "--startpos", "--moves", "7g7e", "--depth", "1"],
        vec!["perft", "--startpos", "--moves", "P*5e", "--depth", "1"],
        vec!["perft", "--startpos", "--depth", "minus"],
        vec!["perft", "--startpos"],
        vec!["perft", "--variant", "chess", "--startpos", "--depth", "1"],
        vec!["frobnicate"],
        // Issue 12: table sizes beyond USI_Hash's range once tried to fill the machine.
        vec!["bench", "--hash", "0"],
        vec!["bench", "--hash", "18446744073709551615"],
        vec!["analyse", "--startpos", "--depth", "1", "--hash", "1048577"],
        vec![
            "analyse",
            "--startpos",
            "--depth",
            "1",
            "--shogi-eval",
            "neural",
        ],
        vec![
            "analyse",
            "--variant",
            "madness",
            "--depth",
            "1",
            "--madness-eval",
            "neural",
        ],
    ] {
        let out = shishi(&args);
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.trim().is_empty(), "{args:?}: no message");
    }
}

/// Issue 34: numbers that mean nothing (no threads, no lines, a search of depth 0, a match
/// of no games) were accepted without a word by `analyse` and `match`. Every subcommand
/// refuses them with a message naming the argument, before any search or engine starts.
#[test]
fn numbers_that_mean_nothing_are_refused_by_every_subcommand() {
    let scratch = std::env::temp_dir().join(format!("shishi-cli-zero-{}", std::process::id()));
    let out_dir = scratch.to_string_lossy().into_owned();
    let match_args = |extra: &[&'static str]| -> Vec<String> {
        let mut args: Vec<String> = ["match", "--engine1", "true", "--engine2", "true"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        args.extend(["--out".to_string(), out_dir.clone()]);
        args.extend(extra.iter().map(|s| s.to_string()));
        if !extra.contains(&"--tc") {
            args.extend(["--tc".to_string(), "movetime=10".to_string()]);
        }
        args
    };
    let owned = |args: &[&str]| args.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            owned(&["analyse", "--startpos", "--threads", "0"]),
            "--threads",
        ),
        (
            owned(&["analyse", "--startpos", "--multipv", "0"]),
            "--multipv",
        ),
        (owned(&["analyse", "--startpos", "--depth", "0"]), "--depth"),
        (
            owned(&["analyse", "--startpos", "--movetime", "0"]),
            "--movetime",
        ),
        (
            owned(&["analyse", "--record", "x.usi", "--depth", "0"]),
            "--depth",
        ),
        (owned(&["bench", "--depth", "0"]), "--depth"),
        (owned(&["bench", "--threads", "0"]), "--threads"),
        (match_args(&["--games", "0"]), "--games"),
        (match_args(&["--concurrency", "0"]), "--concurrency"),
        (match_args(&["--tc", "byo0"]), "byoyomi"),
        (match_args(&["--tc", "movetime=0"]), "movetime"),
        (match_args(&["--tc", "nodes=0"]), "nodes"),
        (
            match_args(&["--resign-score", "500", "--resign-moves", "0"]),
            "--resign-moves",
        ),
        (
            match_args(&["--draw-score", "10", "--draw-moves", "0"]),
            "--draw-moves",
        ),
        (owned(&["serve", "--engines", "0"]), "--engines"),
        (owned(&["serve", "--max-games", "0"]), "--max-games"),
    ];
    for (args, named) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = shishi(&args);
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
        assert!(stderr.contains(named), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    assert!(!scratch.exists(), "a refused match wrote {out_dir}");
}

/// Issue 34: `analyse --record` on a file that holds no record (`hello world`, or nothing)
/// "reviewed" a game of no moves and exited 0. Every format now refuses it.
#[test]
fn a_file_that_is_not_a_record_is_refused() {
    let scratch = std::env::temp_dir().join(format!("shishi-cli-garbage-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    for (name, contents) in [
        ("garbage.kif", "hello world\n"),
        ("empty.kif", ""),
        ("garbage.kifu", "hello world\n"),
        ("garbage.csa", "hello world\n"),
        ("empty.csa", ""),
        ("garbage.usi", "hello world\n"),
        ("empty.usi", ""),
        ("garbage.txt", "hello world\n"),
    ] {
        let path = scratch.join(name);
        std::fs::write(&path, contents).unwrap();
        let out = shishi(&[
            "analyse",
            "--record",
            path.to_str().unwrap(),
            "--depth",
            "1",
        ]);
        let stderr = text(&out.stderr);
        assert!(
            !out.status.success(),
            "{name} was reviewed: {}",
            text(&out.stdout)
        );
        assert!(out.stdout.is_empty(), "{name} printed a review");
        assert!(stderr.contains("not a game record"), "{name}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

/// Issue 12: hands of 19 or more of one piece, written as groups or repeated letters,
/// panicked (exit 134) in shogi, Shogammon and the Central Madness; lenient SFENs were
/// accepted. Every variant's perft now refuses them with a message.
#[test]
fn oversized_hands_and_lenient_sfens_are_refused_by_every_variant() {
    let nineteen_p = "p".repeat(19);
    let twenty_r = "R".repeat(20);
    let shogi_like = [
        "4k4/9/9/9/9/9/9/9/4K4 b 10p10p 1".to_string(),
        format!("4k4/9/9/9/9/9/9/9/4K4 b {nineteen_p} 1"),
        format!("4k4/9/9/9/9/9/9/9/4K4 b {twenty_r} 1"),
        "8k/9/9/9/09/9/1gn6/9/K8 b - 1".to_string(),
        "8k/9/9/9/9/9/9/9/K8 b - +5".to_string(),
    ];
    let twelve = "5k6/12/12/12/12/12/12/12/12/12/12/5K6";
    let cases: Vec<(&str, String, &[&str])> = shogi_like
        .iter()
        .flat_map(|sfen| {
            [
                ("shogi", sfen.clone(), &[][..]),
                ("shogammon", sfen.clone(), &["--rolls", "61"][..]),
                ("madness", sfen.clone(), &[][..]),
            ]
        })
        .chain([
            ("chukagamigi", format!("{twelve} b 12P12P 1"), &[][..]),
            ("chukagamigi", format!("{twelve} b 13p12p 1"), &[][..]),
            (
                "chukagamigi",
                twelve.replacen("12", "012", 1) + " b - 1",
                &[][..],
            ),
            (
                "chushogi",
                twelve.replacen("12", "012", 1) + " b - 1",
                &[][..],
            ),
            ("chushogi", format!("{twelve} b - +5"), &[][..]),
        ])
        .collect();
    for (variant, sfen, extra) in &cases {
        let mut args = vec![
            "perft",
            "--variant",
            variant,
            "--sfen",
            sfen,
            "--depth",
            "1",
        ];
        args.extend(extra.iter());
        let out = shishi(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
        assert!(stderr.contains("bad sfen"), "{args:?}: {stderr}");
    }
}

#[test]
fn shogammon_perft_takes_rolls_and_tokens() {
    let base = ["perft", "--variant", "shogammon", "--startpos"];
    let run = |extra: &[&str]| {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        shishi(&args)
    };
    let out = run(&["--rolls", "61,33", "--depth", "3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).lines().any(|l| l == "nodes 540"));
    // The same roll written as a token, then the turn's first action played as tokens.
    let out = run(&["--moves", "r:16 5i5h", "--depth", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).lines().any(|l| l == "nodes 9"));
    let out = run(&["--rolls", "61", "--depth", "2", "--divide"]);
    let stdout = text(&out.stdout);
    assert!(stdout.lines().any(|l| l == "5i5h: 9"), "{stdout}");
    assert!(stdout.lines().any(|l| l == "nodes 90"), "{stdout}");
    for bad in [
        vec!["--rolls", "61", "--depth", "3"],
        vec!["--rolls", "71", "--depth", "1"],
        vec!["--rolls", "6", "--depth", "1"],
        vec!["--moves", "7g7f", "--depth", "1"],
        vec!["--moves", "r:61 pass", "--depth", "1"],
        vec!["--dice", "P/L/N", "--rolls", "61", "--depth", "1"],
        vec!["--dice-use", "most", "--rolls", "61", "--depth", "1"],
    ] {
        let out = run(&bad);
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{bad:?} should fail");
        assert!(
            !stderr.contains("panicked") && !stderr.trim().is_empty(),
            "{bad:?}: {stderr}"
        );
    }
    // King 1h and pawn 1i hemmed in: either die, not both; `maximal` keeps only the larger.
    let hemmed = "4k4/9/9/9/9/9/7(GS)(GS)/7(SG)K/7(SG)P b - 1";
    for (rule, nodes) in [("ordered", "nodes 2"), ("maximal", "nodes 1")] {
        let out = shishi(&[
            "perft",
            "--variant",
            "shogammon",
            "--sfen",
            hemmed,
            "--rolls",
            "61",
            "--depth",
            "1",
            "--dice-use",
            rule,
        ]);
        assert!(text(&out.stdout).lines().any(|l| l == nodes), "{rule}");
    }
    let shogi_rolls = shishi(&["perft", "--startpos", "--rolls", "61", "--depth", "1"]);
    assert!(!shogi_rolls.status.success());
}

/// Every game `--variant` accepts.
const GAMES: [&str; 6] = [
    "shogi",
    "chushogi",
    "chukagamigi",
    "shogammon",
    "madness",
    "minishogi",
];

/// The games a subcommand's `--help` says it serves: the names listed after `Games:` in its
/// description, leaving out a name that follows the word "not".
fn games_named_in_help(subcommand: &str) -> Vec<&'static str> {
    let out = shishi(&[subcommand, "--help"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let help = text(&out.stdout);
    let list = help
        .lines()
        .next()
        .and_then(|about| about.split_once("Games:"))
        .unwrap_or_else(|| panic!("`{subcommand} --help` names no games:\n{help}"))
        .1;
    let words: Vec<&str> = list
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    GAMES
        .into_iter()
        .filter(|game| {
            words
                .iter()
                .enumerate()
                .any(|(i, w)| w == game && (i == 0 || words[i - 1] != "not"))
        })
        .collect()
}

#[test]
fn help_names_the_games_each_subcommand_serves() {
    let all = GAMES.to_vec();
    for (subcommand, served) in [
        ("perft", all.clone()),
        ("bench", all.clone()),
        ("analyse", all.clone()),
        ("match", all.clone()),
        ("serve", all.clone()),
        ("testnet", vec!["shogi"]),
        ("nnue-features", vec!["shogi"]),
        ("rescore", vec!["shogi", "chushogi", "chukagamigi"]),
    ] {
        assert_eq!(
            games_named_in_help(subcommand),
            served,
            "`shishi {subcommand} --help`"
        );
    }
}

#[test]
fn perft_and_bench_serve_the_games_their_help_names() {
    for game in games_named_in_help("perft") {
        let mut args = vec!["perft", "--variant", game, "--startpos", "--depth", "1"];
        if game == "shogammon" {
            args.extend(["--rolls", "61"]);
        }
        let out = shishi(&args);
        assert!(out.status.success(), "perft {game}: {}", text(&out.stderr));
    }
    let served = games_named_in_help("bench");
    for game in GAMES {
        let out = shishi(&["bench", "--variant", game, "--depth", "1", "--hash", "1"]);
        assert_eq!(
            out.status.success(),
            served.contains(&game),
            "bench {game}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn analyse_prints_a_board_and_a_best_move_in_every_game() {
    for (variant, files_header) in [
        ("shogi", "9  8  7"),
        ("chushogi", "12 11 10"),
        ("chukagamigi", "12 11 10"),
        ("madness", "9  8  7"),
        ("minishogi", "5  4  3"),
    ] {
        let out = shishi(&[
            "analyse",
            "--variant",
            variant,
            "--startpos",
            "--movetime",
            "300",
            "--hash",
            "4",
        ]);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{variant}: {}", text(&out.stderr));
        assert!(stdout.contains(files_header), "{variant}: {stdout}");
        assert!(stdout.contains(" | a\n"), "{variant}: {stdout}");
        let best = stdout
            .lines()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap_or_else(|| panic!("{variant}: no bestmove in {stdout}"));
        assert!(
            !best.starts_with("resign") && !best.starts_with("(none)"),
            "{variant}"
        );
    }
    // After a roll, Shogammon ranks whole turns (two die actions) and answers the best.
    let out = shishi(&[
        "analyse",
        "--variant",
        "shogammon",
        "--startpos",
        "--moves",
        "r:61",
        "--depth",
        "1",
        "--multipv",
        "3",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let best = stdout
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a best turn");
    assert_eq!(best.split(',').count(), 2, "{stdout}");
    let ranked: Vec<&str> = stdout
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()) && l.contains(". "))
        .collect();
    assert_eq!(ranked.len(), 3, "{stdout}");
    assert!(ranked[0].contains(best), "{stdout}");
}

/// The rows of a roll table: (weight, total, value in 1/10000).
fn roll_rows(stdout: &str) -> Vec<(u32, u32, i64)> {
    stdout
        .lines()
        .filter(|l| l.starts_with("r:"))
        .map(|l| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            let (weight, total) = fields[1].split_once('/').expect("p as w/total");
            (
                weight.parse().unwrap(),
                total.parse().unwrap(),
                equity(fields[3]),
            )
        })
        .collect()
}

/// `+0.1234` as 1234.
fn equity(text: &str) -> i64 {
    (text.parse::<f64>().expect("an equity") * 10_000.0).round() as i64
}

#[test]
fn analyse_before_a_shogammon_roll_tables_21_rolls_that_average_to_the_expectation() {
    let out = shishi(&[
        "analyse",
        "--variant",
        "shogammon",
        "--startpos",
        "--movetime",
        "1000",
        "--hash",
        "8",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows = roll_rows(&stdout);
    assert_eq!(rows.len(), 21, "{stdout}");
    let total = rows[0].1;
    assert!(rows.iter().all(|r| r.1 == total));
    // The probabilities sum to 1 exactly: the weights sum to the denominator.
    assert_eq!(rows.iter().map(|r| r.0).sum::<u32>(), total, "{stdout}");
    let expected = stdout
        .lines()
        .find_map(|l| l.strip_prefix("expected value "))
        .map(|rest| equity(rest.split_whitespace().next().unwrap()))
        .expect("an expected value line");
    let weighted: i64 = rows.iter().map(|r| r.0 as i64 * r.2).sum();
    let mean = weighted as f64 / total as f64;
    assert!(
        (mean - expected as f64).abs() <= 0.5,
        "mean {mean} printed {expected}: {stdout}"
    );
    // Every row names a whole turn of the roller.
    assert!(stdout
        .lines()
        .filter(|l| l.starts_with("r:"))
        .all(|l| l.split_whitespace().count() == 6 && l.contains(',')));
}

/// Issue 34: errors printed Rust's debug text (`(Deal(Gote) in …)`, `(Normal in …)`,
/// `Position(… dice [6, 1] pending None)`, `Sente has two kings`). They now say what the
/// game waits for in its own terms.
#[test]
fn errors_name_the_games_terms_not_rusts() {
    let mut seen = Vec::new();
    let mut madness = |moves: &str, subcommand: &str| {
        let mut args = vec![subcommand, "--variant", "madness", "--startpos"];
        args.extend(["--moves", moves, "--depth", "1"]);
        let out = shishi(&args);
        assert!(!out.status.success(), "{moves:?} was accepted");
        let err = text(&out.stderr);
        seen.push(err.clone());
        err
    };
    // The card is played only by a player with a piece on 5e.
    let err = madness("draw:4 draw:9 c:4 draw:1 7g7f", "perft");
    assert!(
        err.contains("c:4 cannot be played here: sente makes its ordinary move or drop")
            && err.contains("5e"),
        "{err}"
    );
    // A view does not see the opponent's card.
    let err = madness("draw:4 draw:9 7g7f", "analyse");
    assert!(
        err.contains("gote's card is drawn next") && err.contains("write draw:? for it"),
        "{err}"
    );
    // The deal comes first, in either view.
    let err = madness("7g7f", "perft");
    assert!(
        err.contains("sente's card is dealt next: write draw:N, or draw:? when you don't know it"),
        "{err}"
    );
    let err = madness("draw:4 draw:9 5g5f 3c3d 5f5e 4c4d 7g7f", "perft");
    assert!(
        err.contains("sente has a piece on 5e and must first play its card (c:N) or roll"),
        "{err}"
    );
    let err = madness("draw:4 draw:9 5g5f 3c3d 5f5e 4c4d roll 7g7f", "perft");
    assert!(err.contains("the die is rolled next: write r:N"), "{err}");
    let shogammon = shishi(&[
        "perft",
        "--variant",
        "shogammon",
        "--startpos",
        "--moves",
        "r:61 1a1b",
        "--rolls",
        "33",
        "--depth",
        "1",
    ]);
    let err = text(&shogammon.stderr);
    assert!(!shogammon.status.success());
    assert!(err.contains("(dice left: 6 1)"), "{err}");
    seen.push(err);
    let two_kings = shishi(&[
        "perft",
        "--sfen",
        "4k4/9/9/9/9/9/9/9/3KK4 b - 1",
        "--depth",
        "1",
    ]);
    let err = text(&two_kings.stderr);
    assert!(err.contains("sente has two kings"), "{err}");
    seen.push(err);
    for err in &seen {
        for debug in ["Deal(", "Normal ", "Position(", "Sente", "Gote", "Square("] {
            assert!(!err.contains(debug), "{err}");
        }
    }
}

/// `analyse` evaluates standard shogi as the USI engine does by default (the built-in net),
/// and with the hand-written tables when told `--shogi-eval hand-written`: another tree.
#[test]
fn analyse_searches_with_the_default_evaluation_or_the_hand_written_one() {
    let nodes = |extra: &[&str]| {
        let mut args = vec!["analyse", "--startpos", "--depth", "5", "--hash", "1"];
        args.extend_from_slice(extra);
        let out = shishi(&args);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        let summary = stdout
            .lines()
            .find(|l| l.starts_with("nodes "))
            .unwrap_or_else(|| panic!("no summary line in {stdout}"))
            .to_string();
        summary.split_whitespace().nth(1).unwrap().to_string()
    };
    let default = nodes(&[]);
    assert_eq!(default, nodes(&["--shogi-eval", "net"]));
    assert_ne!(default, nodes(&["--shogi-eval", "hand-written"]));
}

/// `analyse --eval-file` searches each game with the net file it names (a net of random
/// weights changes the search: its value, or its tree), as the USI options do, and refuses
/// a net of another game, or a shogi net for the Madness's board without `--madness-eval
/// net`, with the reason and a non-zero exit.
#[test]
fn analyse_searches_with_the_net_file_it_is_given() {
    let dir = ScratchDir::new("shishi-cli", "analyse-nets");
    let net = |arch: &str| {
        let path = dir.join(format!("{arch}.nn"));
        let out = shishi(&[
            "testnet",
            "--arch",
            arch,
            "--seed",
            "3",
            path.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        path.to_string_lossy().into_owned()
    };
    let analyse = |variant: &str, extra: &[&str]| {
        let mut args = vec!["analyse", "--variant", variant, "--startpos", "--hash", "1"];
        args.extend_from_slice(extra);
        shishi(&args)
    };
    // What a search printed but its timings.
    let searched = |variant: &str, extra: &[&str]| {
        let out = analyse(variant, extra);
        assert!(out.status.success(), "{extra:?}: {}", text(&out.stderr));
        text(&out.stdout)
            .lines()
            .filter(|l| !l.starts_with("time "))
            .map(|l| l.split(" nps ").next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let (kp, chu, shogammon) = (net("kp"), net("chu"), net("shogammon-pk"));
    for (variant, file, extra) in [
        ("shogi", &kp, &["--depth", "3"][..]),
        (
            "madness",
            &kp,
            &["--depth", "2", "--madness-eval", "net"][..],
        ),
        ("chushogi", &chu, &["--depth", "2"][..]),
        (
            "shogammon",
            &shogammon,
            &["--depth", "1", "--moves", "r:61"][..],
        ),
    ] {
        let with: Vec<&str> = extra
            .iter()
            .copied()
            .chain(["--eval-file", file.as_str()])
            .collect();
        assert_ne!(
            searched(variant, extra),
            searched(variant, &with),
            "{variant}"
        );
    }
    for (variant, file, extra, reason) in [
        (
            "chushogi",
            &shogammon,
            &[][..],
            "the net evaluates shogammon, not chushogi",
        ),
        (
            "shogi",
            &chu,
            &[][..],
            "the net evaluates chushogi, not shogi",
        ),
        (
            "madness",
            &kp,
            &["--madness-eval", "hand-written"][..],
            "under --madness-eval net only",
        ),
    ] {
        let with: Vec<&str> = extra
            .iter()
            .copied()
            .chain(["--depth", "1", "--eval-file", file.as_str()])
            .collect();
        let out = analyse(variant, &with);
        assert!(!out.status.success(), "{variant}");
        assert!(
            text(&out.stderr).contains(reason),
            "{variant}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stdout).is_empty(),
            "{variant}: stdout carries nothing"
        );
    }
}
