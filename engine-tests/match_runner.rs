//! `shishi match` driven as a process against fake engines (Python scripts in
//! `engine-tests/fixtures/`): every way a game can end, records that load back, resume,
//! SPRT early stop, the CECP client, per-engine time controls (`--tc1`/`--tc2`), the
//! node-odds wrapper (`scripts/usi_node_odds.py`),
//! and Chu Shogi and Chu Kagamigi games (USI engines told the variant, a HaChu-like CECP
//! engine with lion double moves, igui and jitto).
//! Matches against GNU Shogi and HaChu are `#[ignore]`d (they need the programs; see
//! `scripts/match_gnushogi.sh` and `scripts/match_hachu.sh`).

use shishi::referee::game_files::GameLine;
use shishi::referee::openings::{self, Opening};
use shishi::rules::game::Game;
use shishi::rules::geometry::Color;
use shishi::rules::variants::chu::{self, ChuRules};
use shishi::rules::variants::shogi::Position;
use shishi::rules::variants::{GameChoice, Variant};
use std::path::Path;
use std::process::{Command, Output};

#[path = "common/scratch_dir.rs"]
mod scratch_dir;
use scratch_dir::ScratchDir;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/engine-tests/fixtures");
/// Twelve plies of rook shuffling: the fourth occurrence of the start position.
const REPETITION: &str = "2h3h 8b7b 3h2h 7b8b 2h3h 8b7b 3h2h 7b8b 2h3h 8b7b 3h2h 7b8b 2h3h";

fn fake(mode: &str) -> String {
    format!("python3 {FIXTURES}/fake_usi.py {mode}")
}

fn scripted() -> String {
    fake(&format!("script {REPETITION}"))
}

fn out_dir(name: &str) -> ScratchDir {
    ScratchDir::new("shishi-match", name)
}

#[path = "common/run_shishi.rs"]
mod run_shishi;
use run_shishi::{shishi, text};

fn shishi_match(args: &[&str]) -> Output {
    shishi(&[&["match"], args].concat())
}

/// Runs a match and returns (stdout, the parsed lines of games.jsonl sorted by game).
fn run(engine1: &str, engine2: &str, out: &Path, extra: &[&str]) -> (String, Vec<Game1>) {
    let out_s = out.to_str().unwrap();
    let mut args = vec!["--engine1", engine1, "--engine2", engine2, "--out", out_s];
    if !extra.contains(&"--tc") {
        args.extend_from_slice(&["--tc", "1+0.1"]);
    }
    args.extend_from_slice(extra);
    let o = shishi_match(&args);
    assert!(
        o.status.success(),
        "stdout:\n{}\nstderr:\n{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    (text(&o.stdout), games(out))
}

#[derive(Debug)]
struct Game1 {
    game: u64,
    result: String,
    engine1_result: String,
    reason: String,
    detail: String,
    usi: String,
}

fn games(out: &Path) -> Vec<Game1> {
    let jsonl = std::fs::read_to_string(out.join("games.jsonl")).expect("games.jsonl");
    let mut games: Vec<Game1> = jsonl
        .lines()
        .map(|l| {
            let m = GameLine::read(l).unwrap_or_else(|| panic!("bad line {l}"));
            Game1 {
                game: m.game as u64,
                result: m.result,
                engine1_result: m.engine1_result,
                reason: m.reason,
                detail: m.detail,
                usi: m.usi,
            }
        })
        .collect();
    games.sort_by_key(|g| g.game);
    games
}

/// Replays a `position … moves …` line with the rules core.
fn replay(usi: &str) -> Position {
    let words: Vec<&str> = usi.split_whitespace().collect();
    assert_eq!(words[0], "position");
    let (mut pos, rest) = if words[1] == "startpos" {
        (Position::startpos(), &words[2..])
    } else {
        let end = words
            .iter()
            .position(|w| *w == "moves")
            .unwrap_or(words.len());
        (
            Position::from_sfen(&words[2..end].join(" ")).unwrap(),
            &words[end..],
        )
    };
    if let Some((&"moves", moves)) = rest.split_first() {
        for m in moves {
            let mv = pos.parse_usi_move(m).unwrap();
            pos.play(mv);
        }
    }
    pos
}

#[test]
fn illegal_and_unreadable_moves_lose_for_the_mover() {
    let out = out_dir("illegal");
    let (stdout, games) = run(&fake("illegal 5e5d"), &scripted(), &out, &["--games", "2"]);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(
            (g.engine1_result.as_str(), g.reason.as_str()),
            ("loss", "illegal-move")
        );
        assert!(g.detail.contains("5e5d"), "{}", g.detail);
    }
    // Engine 1 has sente in game 1 and gote in game 2.
    assert_eq!(games[0].result, "0-1");
    assert_eq!(games[1].result, "1-0");
    assert!(stdout.contains("W    0  D    0  L    2"), "{stdout}");
    let out = out_dir("garbage");
    let (_, games) = run(&fake("illegal xyz"), &scripted(), &out, &["--games", "1"]);
    assert!(games[0].detail.contains("malformed"), "{}", games[0].detail);
}

#[test]
fn a_hung_engine_loses_on_time_and_the_match_goes_on() {
    let out = out_dir("hang");
    let (_, games) = run(&fake("hang"), &scripted(), &out, &["--games", "2"]);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.reason, "time-forfeit");
        assert_eq!(g.engine1_result, "loss");
        assert!(g.detail.contains("margin"), "{}", g.detail);
    }
}

#[test]
fn a_slow_engine_is_flagged_by_the_referees_clock() {
    // 300 ms per move against a 100 ms movetime with a 50 ms margin.
    let out = out_dir("slow");
    let slow = fake(&format!("slow 300 {REPETITION}"));
    let (_, games) = run(
        &slow,
        &scripted(),
        &out,
        &[
            "--games",
            "1",
            "--tc",
            "movetime=100",
            "--time-margin",
            "50",
        ],
    );
    assert_eq!(games[0].reason, "time-forfeit");
    assert_eq!(games[0].result, "0-1");
    // Its own, larger margin lets it finish the game. (The scripted opponent gets a wide
    // margin of its own: on a starved machine its instant replies once took 244 ms.)
    let out = out_dir("slow-margin");
    let (_, games) = run(
        &slow,
        &scripted(),
        &out,
        &[
            "--games",
            "1",
            "--tc",
            "movetime=100",
            "--time-margin",
            "50",
            "--time-margin1",
            "400",
            "--time-margin2",
            "5000",
        ],
    );
    assert_eq!(games[0].reason, "repetition", "{}", games[0].detail);
}

#[test]
fn a_crashing_engine_loses_and_is_restarted() {
    let out = out_dir("crash");
    // The fake engine crashes while this file does not exist, and makes it.
    let marker_dir = out_dir("crash-marker");
    let marker = marker_dir.join("crashed");
    let crash_once = fake(&format!("crash-once {} {REPETITION}", marker.display()));
    let (stdout, games) = run(&crash_once, &scripted(), &out, &["--games", "2"]);
    assert_eq!(games[0].reason, "engine-failure");
    assert!(
        games[0].detail.contains("exit status: 3"),
        "{}",
        games[0].detail
    );
    // The restarted engine plays the second game normally.
    assert_eq!(games[1].reason, "repetition");
    assert!(
        stdout.contains("Endings: engine-failure 1, repetition 1"),
        "{stdout}"
    );
}

#[test]
fn an_engine_that_exits_between_games_or_prints_bytes_is_not_blamed() {
    let out = out_dir("quit-after-game");
    let quitter = fake(&format!("quit-after-game {REPETITION}"));
    let (_, games) = run(&quitter, &scripted(), &out, &["--games", "3"]);
    assert!(games.iter().all(|g| g.reason == "repetition"), "{games:?}");
    let out = out_dir("noise");
    let noisy = fake(&format!("noise {REPETITION}"));
    let (_, games) = run(&noisy, &scripted(), &out, &["--games", "2"]);
    assert!(games.iter().all(|g| g.reason == "repetition"), "{games:?}");
}

#[test]
fn resignation_and_false_declaration() {
    let out = out_dir("resign");
    let (_, games) = run(&scripted(), &fake("resign"), &out, &["--games", "2"]);
    assert!(games
        .iter()
        .all(|g| g.reason == "resign" && g.engine1_result == "win"));
    let out = out_dir("win");
    let (_, games) = run(&fake("win"), &scripted(), &out, &["--games", "1"]);
    assert_eq!(games[0].reason, "false-declaration");
    assert!(games[0].detail.contains("not in the enemy camp"));
    assert_eq!(games[0].result, "0-1");
}

#[test]
fn repetition_and_move_limit_are_draws_and_records_load_back() {
    let out = out_dir("records");
    let (stdout, games) = run(
        &scripted(),
        &scripted(),
        &out,
        &["--games", "2", "--name1", "alpha", "--name2", "beta"],
    );
    for g in &games {
        assert_eq!(
            (g.result.as_str(), g.reason.as_str()),
            ("1/2-1/2", "repetition")
        );
        let pos = replay(&g.usi);
        assert_eq!(pos.moves_played(), 12);
        assert_eq!(pos.outcome(), Some(shishi::rules::game::Outcome::Draw));
    }
    assert!(
        stdout.contains("Pentanomial") && stdout.contains("[0, 0, 1, 0, 0]"),
        "{stdout}"
    );
    let kif = std::fs::read_to_string(out.join("games/0001.kifu")).unwrap();
    assert!(
        kif.contains("先手：alpha") && kif.contains("後手：beta"),
        "{kif}"
    );
    assert!(
        kif.contains("   1 ３八飛(28)") && kif.contains("まで12手で千日手"),
        "{kif}"
    );
    let csa = std::fs::read_to_string(out.join("games/0002.csa")).unwrap();
    assert!(csa.contains("N+beta\nN-alpha\n"), "{csa}");
    // Replay the CSA moves with the rules core: same final position as the USI line.
    let mut pos = Position::startpos();
    for line in csa
        .lines()
        .filter(|l| l.len() == 7 && (l.starts_with('+') || l.starts_with('-')))
    {
        let b = line.as_bytes();
        let sq = |f: u8, r: u8| format!("{}{}", f as char, (b'a' + r - b'1') as char);
        let usi = sq(b[3], b[4]);
        let from = sq(b[1], b[2]);
        let mut legal = None;
        for promote in ["", "+"] {
            if let Ok(mv) = pos.parse_usi_move(&format!("{from}{usi}{promote}")) {
                legal.get_or_insert(mv);
            }
        }
        pos.play(legal.expect("CSA move is legal"));
    }
    assert_eq!(pos.to_sfen(), replay(&games[1].usi).to_sfen());
    assert!(csa.contains("%SENNICHITE"), "{csa}");

    let out = out_dir("limit");
    let (_, games) = run(
        &scripted(),
        &scripted(),
        &out,
        &["--games", "1", "--max-moves", "6"],
    );
    assert_eq!(
        (games[0].reason.as_str(), games[0].result.as_str()),
        ("move-limit", "1/2-1/2")
    );
    assert_eq!(replay(&games[0].usi).moves_played(), 6);
}

#[test]
fn openings_are_played_in_pairs_and_appear_in_the_records() {
    let out = out_dir("openings");
    let openings = out_dir("openings-file");
    std::fs::create_dir_all(&openings).unwrap();
    let file = openings.join("o.txt");
    std::fs::write(
        &file,
        "7g7f 3c3d\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n",
    )
    .unwrap();
    // The fake mover plays by ply number, so its script starts after the opening.
    let mover = fake("illegal 5e5d");
    let (_, games) = run(
        &mover,
        &fake("resign"),
        &out,
        &["--games", "4", "--openings", file.to_str().unwrap()],
    );
    assert!(
        games[0]
            .usi
            .starts_with("position startpos moves 7g7f 3c3d"),
        "{}",
        games[0].usi
    );
    assert!(games[1]
        .usi
        .starts_with("position startpos moves 7g7f 3c3d"));
    assert!(
        games[2]
            .usi
            .starts_with("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/"),
        "{}",
        games[2].usi
    );
    // Game 3: gote (engine 2, resigns) is to move in the SFEN opening; game 4: engine 1
    // (illegal) is gote and moves first.
    assert_eq!(games[2].reason, "resign");
    assert_eq!(games[3].reason, "illegal-move");
    let kif = std::fs::read_to_string(out.join("games/0003.kifu")).unwrap();
    assert!(
        kif.contains("後手番") && kif.contains("+---------------------------+"),
        "{kif}"
    );
}

#[test]
fn resume_keeps_finished_games_and_plays_the_rest() {
    let out = out_dir("resume");
    let (_, first) = run(&scripted(), &fake("resign"), &out, &["--games", "2"]);
    assert_eq!(first.len(), 2);
    let before = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    // Without --resume the directory is refused.
    let o = shishi_match(&[
        "--engine1",
        &scripted(),
        "--engine2",
        &fake("resign"),
        "--tc",
        "1+0.1",
        "--games",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("--resume"), "{}", text(&o.stderr));
    // A torn last line (a crash while writing) is dropped, not fatal.
    std::fs::write(
        out.join("games.jsonl"),
        format!("{before}{{\"game\": 3, \"res"),
    )
    .unwrap();
    let (stdout, all) = run(
        &scripted(),
        &fake("resign"),
        &out,
        &["--games", "4", "--resume"],
    );
    assert_eq!(
        all.iter().map(|g| g.game).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    assert!(std::fs::read_to_string(out.join("games.jsonl"))
        .unwrap()
        .starts_with(&before));
    assert!(stdout.contains("Games 4 of 4"), "{stdout}");
    assert!(out.join("games/0004.csa").exists());
    // A different engine in the same directory is refused.
    let o = shishi_match(&[
        "--engine1",
        &fake("hang"),
        "--engine2",
        &fake("resign"),
        "--tc",
        "1+0.1",
        "--games",
        "6",
        "--out",
        out.to_str().unwrap(),
        "--resume",
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("different match"),
        "{}",
        text(&o.stderr)
    );
}

/// The runner killed with SIGKILL mid-match (no chance to clean up), then `--resume`: every
/// game finished before the kill is kept as it was, none is played twice, and the rest are
/// played.
#[test]
fn a_match_killed_mid_way_resumes_without_losing_or_repeating_a_game() {
    let out = out_dir("killed");
    let me = env!("CARGO_BIN_EXE_shishi");
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/openings/shogi.txt");
    let settings = [
        "--games",
        "16",
        "--concurrency",
        "2",
        "--tc",
        "nodes=2000",
        "--max-moves",
        "60",
        "--openings",
        openings,
    ];
    let out_s = out.to_str().unwrap();
    let mut args = vec!["match", "--engine1", me, "--engine2", me, "--out", out_s];
    args.extend_from_slice(&settings);
    let mut runner = Command::new(me)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the binary runs");
    let jsonl = out.join("games.jsonl");
    let finished_lines = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| GameLine::read(l).is_some())
            .map(str::to_string)
            .collect()
    };
    let start = std::time::Instant::now();
    loop {
        let text = std::fs::read_to_string(&jsonl).unwrap_or_default();
        if finished_lines(&text).len() >= 4 {
            break;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "no 4 games within 120 s"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    runner.kill().expect("SIGKILL the runner");
    runner.wait().expect("reap the runner");
    let before = finished_lines(&std::fs::read_to_string(&jsonl).unwrap());
    assert!(
        before.len() >= 4 && before.len() < 16,
        "{} games",
        before.len()
    );
    let mut resume = settings.to_vec();
    resume.push("--resume");
    let (_, all) = run(me, me, &out, &resume);
    assert_eq!(
        all.iter().map(|g| g.game).collect::<Vec<_>>(),
        (1..=16).collect::<Vec<_>>()
    );
    let after = finished_lines(&std::fs::read_to_string(&jsonl).unwrap());
    assert_eq!(after.len(), 16);
    for line in &before {
        assert!(after.contains(line), "lost or rewritten: {line}");
    }
    for g in &all {
        replay(&g.usi);
        let stem = out.join("games").join(format!("{:04}", g.game));
        for ext in ["usi", "kifu", "csa"] {
            assert!(stem.with_extension(ext).exists(), "game {} .{ext}", g.game);
        }
    }
}

#[test]
fn sprt_stops_early_when_one_engine_always_wins() {
    let out = out_dir("sprt");
    let (stdout, games) = run(
        &scripted(),
        &fake("resign"),
        &out,
        &["--games", "40", "--sprt", "0", "10", "--concurrency", "2"],
    );
    // The SPRT decides from the 10th pair on (20 games), plus the game in progress.
    assert!((20..=22).contains(&games.len()), "{} games", games.len());
    // The decision is the one taken when the LLR crossed, with the games finished then.
    let decided_at: usize = stdout
        .split("H1 accepted at game ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no decision with its game: {stdout}"));
    assert!((20..=games.len()).contains(&decided_at), "{stdout}");
    // 20-0 or so: LOS = Φ(20/√40) = 99.9%, printed as 100.0.
    assert!(stdout.contains("LOS 100.0%"), "{stdout}");
}

#[test]
fn concurrency_plays_every_game_once() {
    let out = out_dir("concurrency");
    let (stdout, games) = run(
        &scripted(),
        &fake("resign"),
        &out,
        &["--games", "8", "--concurrency", "4"],
    );
    assert_eq!(
        games.iter().map(|g| g.game).collect::<Vec<_>>(),
        (1..=8).collect::<Vec<_>>()
    );
    assert!(
        stdout.contains("  as sente     W    4  D    0  L    0"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "Pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2 for fake_usi#1): [0, 0, 0, 0, 4]"
        ),
        "{stdout}"
    );
}

#[test]
fn a_cecp_engine_plays_through_the_bridge() {
    let out = out_dir("cecp");
    let cecp = format!("python3 {FIXTURES}/fake_cecp.py {REPETITION}");
    let (_, games) = run(
        &cecp,
        &scripted(),
        &out,
        &["--games", "2", "--proto1", "cecp"],
    );
    for g in &games {
        assert_eq!(g.reason, "repetition", "{}", g.detail);
    }
    // A CECP engine that runs out of moves resigns.
    let out = out_dir("cecp-resign");
    let short = format!("python3 {FIXTURES}/fake_cecp.py 2h3h");
    let (_, games) = run(
        &short,
        &scripted(),
        &out,
        &["--games", "1", "--proto1", "cecp"],
    );
    assert_eq!(games[0].reason, "resign");
}

#[test]
fn closed_output_pipes_do_not_stop_the_match() {
    // `shishi match … 2>&1 | head -2`: stdout and stderr go away early.
    let out = out_dir("closed-pipes");
    let mut child = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args([
            "match",
            "--engine1",
            &scripted(),
            "--engine2",
            &fake("resign"),
            "--tc",
            "1+0.1",
            "--games",
            "6",
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    drop(child.stderr.take());
    let status = child.wait().expect("it ends");
    assert!(status.success(), "{status:?}");
    assert_eq!(games(&out).len(), 6);
}

#[test]
fn bad_command_lines_fail_cleanly() {
    let out = out_dir("bad");
    let o = out.to_str().unwrap();
    for args in [
        vec![
            "--engine1",
            "/nonexistent/engine",
            "--engine2",
            "x",
            "--tc",
            "1+0",
            "--out",
            o,
        ],
        vec![
            "--engine1",
            "a",
            "--engine2",
            "b",
            "--tc",
            "fast",
            "--out",
            o,
        ],
        vec![
            "--engine1",
            "a",
            "--engine2",
            "b",
            "--tc",
            "1+0",
            "--out",
            o,
            "--openings",
            "/nonexistent",
        ],
        vec![
            "--engine1",
            "a",
            "--engine2",
            "b",
            "--tc",
            "1+0",
            "--out",
            o,
            "--sprt",
            "5",
            "0",
        ],
        vec![
            "--engine1",
            "a",
            "--engine2",
            "b",
            "--tc",
            "1+0",
            "--out",
            o,
            "--option1",
            "novalue",
        ],
    ] {
        let r = shishi_match(&args);
        assert!(!r.status.success(), "{args:?}");
        assert!(!text(&r.stderr).is_empty());
        assert!(!text(&r.stderr).contains("panicked"), "{}", text(&r.stderr));
    }
}

#[test]
fn shishi_against_itself() {
    let out = out_dir("self");
    let me = env!("CARGO_BIN_EXE_shishi");
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/openings/shogi.txt");
    let (_, games) = run(
        me,
        me,
        &out,
        &[
            "--games",
            "4",
            "--tc",
            "nodes=3000",
            "--max-moves",
            "160",
            "--openings",
            openings,
        ],
    );
    assert_eq!(games.len(), 4);
    for g in &games {
        assert!(
            ![
                "illegal-move",
                "engine-failure",
                "time-forfeit",
                "false-claim",
                "false-declaration"
            ]
            .contains(&g.reason.as_str()),
            "game {}: {} ({})",
            g.game,
            g.reason,
            g.detail
        );
        replay(&g.usi);
    }
}

/// Issue 34: at `movetime=500` a CECP engine was sent `st 1` and lost every game on time.
/// Shishi's own `--xboard` mode as the CECP engine, against Shishi over USI, as engine 2 (the
/// issue's command) and as engine 1 (moving first in the first game, right after its set-up):
/// no game may be lost on time, by either side, nor end in any other failure of the bridge.
#[test]
fn a_cecp_engine_meets_a_sub_second_movetime() {
    let me = env!("CARGO_BIN_EXE_shishi");
    let cecp = format!("{me} --xboard");
    for (engine1, engine2, proto) in [
        (me, cecp.as_str(), "--proto2"),
        (cecp.as_str(), me, "--proto1"),
    ] {
        let out = out_dir(&format!("cecp-movetime{proto}"));
        let (_, games) = run(
            engine1,
            engine2,
            &out,
            &[
                proto,
                "cecp",
                "--tc",
                "movetime=500",
                "--games",
                "2",
                "--max-moves",
                "16",
                "--concurrency",
                "1",
            ],
        );
        assert_eq!(games.len(), 2);
        for g in &games {
            assert!(
                !NOT_JUDGED_BY_THE_RULES.contains(&g.reason.as_str()),
                "{proto} cecp, game {}: {} ({})",
                g.game,
                g.reason,
                g.detail
            );
            replay(&g.usi);
        }
    }
}

#[test]
#[ignore = "needs gnushogi (apt-get install gnushogi)"]
fn gnushogi_against_itself_over_cecp() {
    let out = out_dir("gnushogi");
    let (_, games) = run(
        "/usr/games/gnushogi",
        "/usr/games/gnushogi",
        &out,
        &[
            "--games",
            "2",
            "--proto1",
            "cecp",
            "--proto2",
            "cecp",
            "--tc",
            "movetime=1000",
            "--time-margin",
            "1000",
            "--max-moves",
            "40",
        ],
    );
    for g in &games {
        assert_eq!(g.reason, "move-limit", "{}", g.detail);
        assert_eq!(replay(&g.usi).moves_played(), 40);
    }
}

fn chu_lishogi() -> GameChoice {
    GameChoice::chu(ChuRules::Lishogi)
}

/// Replays a Chu `position … moves …` line with the rules core; returns the position.
fn replay_chu(usi: &str) -> chu::Position {
    let line = usi.strip_prefix("position ").expect("a position line");
    let opening = Opening::parse_line(line, chu_lishogi())
        .unwrap_or_else(|e| panic!("{usi}: {e}"))
        .expect("not blank");
    let mut pos: chu::Position = opening.base_position(chu_lishogi()).unwrap();
    for m in &opening.moves {
        let mv = pos.parse_usi_move(m).unwrap();
        pos.play(mv);
    }
    pos
}

/// Replays a Chu game line that may have ended (the opening parser refuses finished games).
fn replay_chu_moves(usi: &str) -> chu::Position {
    let words: Vec<&str> = usi.split_whitespace().collect();
    assert_eq!(&words[..2], &["position", "startpos"], "{usi}");
    let mut pos = chu::Position::startpos();
    for m in words.iter().skip(3) {
        let mv = pos
            .parse_usi_move(m)
            .unwrap_or_else(|e| panic!("{m} in {usi}: {e}"));
        pos.play(mv);
    }
    pos
}

const NOT_JUDGED_BY_THE_RULES: [&str; 5] = [
    "illegal-move",
    "engine-failure",
    "time-forfeit",
    "false-claim",
    "false-declaration",
];

#[test]
fn chu_kagamigi_and_minishogi_games_between_usi_engines_that_are_told_the_variant() {
    let me = env!("CARGO_BIN_EXE_shishi");
    for (variant, name) in [
        ("chushogi", "chu"),
        ("chukagamigi", "kaga"),
        ("minishogi", "mini"),
    ] {
        let out = out_dir(&format!("legal-{name}"));
        std::fs::create_dir_all(&out).unwrap();
        let logs = [out.join("engine1.log"), out.join("engine2.log")];
        let engine = |i: usize| {
            format!(
                "python3 {FIXTURES}/fake_usi.py legal {me} {} {}",
                logs[i].display(),
                i + 1
            )
        };
        let (e1, e2) = (engine(0), engine(1));
        let games_dir = out.join("match");
        let (summary, games) = run(
            &e1,
            &e2,
            &games_dir,
            &["--variant", variant, "--games", "2", "--max-moves", "24"],
        );
        assert!(summary.contains(variant), "{summary}");
        assert_eq!(games.len(), 2);
        for g in &games {
            assert!(
                !NOT_JUDGED_BY_THE_RULES.contains(&g.reason.as_str()),
                "game {}: {} ({})",
                g.game,
                g.reason,
                g.detail
            );
            if variant == "chushogi" {
                replay_chu_moves(&g.usi);
            }
            // Every game has its `.usi` record, which ends with the position line; standard
            // shogi's KIF and CSA are not written for the 12x12 games.
            let record = games_dir.join(format!("games/{:04}.usi", g.game));
            let text = std::fs::read_to_string(&record).unwrap();
            assert!(text.contains(&format!("# variant: {variant}")), "{text}");
            assert_eq!(text.lines().last(), Some(g.usi.as_str()));
            assert!(!games_dir.join(format!("games/{:04}.kifu", g.game)).exists());
        }
        let jsonl = std::fs::read_to_string(games_dir.join("games.jsonl")).unwrap();
        assert!(jsonl
            .lines()
            .all(|l| GameLine::read(l).is_some_and(|g| g.variant == variant)));
        // Both engines were told the game (and for Chu the rule set) before `isready`.
        for log in &logs {
            let text = std::fs::read_to_string(log).unwrap();
            let told = text
                .find(&format!("setoption name USI_Variant value {variant}"))
                .unwrap_or_else(|| panic!("no USI_Variant in {text}"));
            let ready = text.find("isready").unwrap();
            assert!(told < ready, "{text}");
            if variant == "chushogi" {
                let rules = text.find("setoption name ChuRules value lishogi").unwrap();
                assert!(rules < ready, "{text}");
            }
        }
    }
}

/// A Chu game that exercises every kind of Lion move, in USI (the USI engine's script)...
const CHU_SCRIPT_USI: [&str; 11] = [
    "7j7h", "1d1e", "7h7f", "2d2e", "7f7g7f", "3d3e", "7f7e", "11d11e", "7e7d7e", "12d12e",
    "7e6d5d",
];
/// ...and the same moves as HaChu writes them: files a-l from sente's left, ranks 1-12 from
/// sente's side, jitto as the null move, igui and double captures as two legs.
const CHU_SCRIPT_XBOARD: [&str; 11] = [
    "f3f5",
    "l9l8",
    "f5f7",
    "k9k8",
    "@@@@",
    "j9j8",
    "f7f8",
    "b9b8",
    "f8f9,f9f8",
    "a9a8",
    "f8g9,g9h9",
];

#[test]
fn a_chu_cecp_engine_plays_lion_moves_through_the_bridge() {
    let out = out_dir("chu-cecp");
    let cecp = format!(
        "python3 {FIXTURES}/fake_cecp.py --chu {}",
        CHU_SCRIPT_XBOARD.join(" ")
    );
    let usi = fake(&format!("script {}", CHU_SCRIPT_USI.join(" ")));
    let (_, games) = run(
        &cecp,
        &usi,
        &out,
        &["--variant", "chushogi", "--games", "2", "--proto1", "cecp"],
    );
    assert_eq!(games.len(), 2);
    // Game 1: the CECP engine is sente and sends the Lion moves; the USI engine runs out of
    // moves at ply 12 and resigns. Game 2: the USI engine is sente and the referee sends
    // the Lion moves to the CECP engine, which refuses any text but the expected one; it
    // runs out at ply 12 and claims the game for sente, which is its resignation.
    for (g, loser) in games.iter().zip(["usi", "cecp"]) {
        assert_eq!(g.reason, "resign", "game {}: {}", g.game, g.detail);
        assert_eq!(g.result, "1-0", "game {}", g.game);
        assert!(g.detail.contains(&format!("fake_{loser}")), "{}", g.detail);
        let played: Vec<&str> = g.usi.split_whitespace().skip(3).collect();
        assert_eq!(played.len(), CHU_SCRIPT_USI.len());
        let mut pos = chu::Position::startpos();
        for (recorded, scripted) in played.iter().zip(CHU_SCRIPT_USI) {
            let mv = pos.parse_usi_move(recorded).unwrap();
            assert_eq!(mv, pos.parse_usi_move(scripted).unwrap(), "{recorded}");
            pos.play(mv);
        }
    }
    assert_eq!(games[0].engine1_result, "win");
    assert_eq!(games[1].engine1_result, "loss");
}

#[test]
fn an_illegal_chu_move_loses_and_is_recorded_in_usi() {
    // The Lion on 7j (XBoard f3) cannot go three squares to 7g (f6).
    let out = out_dir("chu-illegal");
    let cecp = format!("python3 {FIXTURES}/fake_cecp.py --chu f3f6");
    let usi = fake("script 7j7h");
    let (_, games) = run(
        &cecp,
        &usi,
        &out,
        &["--variant", "chushogi", "--games", "2", "--proto1", "cecp"],
    );
    assert_eq!(games[0].reason, "illegal-move", "{}", games[0].detail);
    assert_eq!(games[0].result, "0-1");
    assert!(games[0].detail.contains("7j7g"), "{}", games[0].detail);
    assert_eq!(games[0].usi, "position startpos");
    // Game 2: the USI engine is sente and plays 7j7h (f3f5); the CECP engine refuses it, as
    // HaChu refuses a move it holds illegal, and loses for refusing a legal move.
    assert_eq!(games[1].reason, "engine-failure", "{}", games[1].detail);
    assert_eq!(games[1].result, "1-0");
    assert!(
        games[1].detail.contains("refused a legal move"),
        "{}",
        games[1].detail
    );
}

#[test]
fn a_usi_engine_that_does_not_offer_the_variant_stops_the_match() {
    let out = out_dir("chu-usi-novariant");
    let o = shishi_match(&[
        "--variant",
        "chushogi",
        "--engine1",
        &fake("shogi-only 7g7f"),
        "--engine2",
        &fake("script 7g7f"),
        "--tc",
        "1+0.1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(
        err.contains("does not offer USI_Variant chushogi (it offers shogi)"),
        "{err}"
    );
}

#[test]
fn a_cecp_engine_must_offer_the_variant_and_the_chance_games_have_no_cecp() {
    // The shogi-only fake CECP engine does not offer `chu`: it loses by engine failure.
    let out = out_dir("chu-cecp-novariant");
    let shogi_only = format!("python3 {FIXTURES}/fake_cecp.py 7g7f");
    let usi = fake(&format!("script {}", CHU_SCRIPT_USI.join(" ")));
    let (_, games) = run(
        &shogi_only,
        &usi,
        &out,
        &["--variant", "chushogi", "--games", "1", "--proto1", "cecp"],
    );
    assert_eq!(games[0].reason, "engine-failure");
    assert!(
        games[0].detail.contains("does not offer the variant chu"),
        "{}",
        games[0].detail
    );
    // Chu Kagamigi is Shishi's engine-defined CECP variant; the chance games have none.
    let out = out_dir("shogammon-cecp");
    let o = shishi_match(&[
        "--variant",
        "shogammon",
        "--engine1",
        &shogi_only,
        "--proto1",
        "cecp",
        "--engine2",
        &usi,
        "--tc",
        "1+0.1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("no CECP engine plays shogammon"));
}

/// The shipped book `positions/openings/<file>`, loaded with `variant`'s rules (which checks
/// every move and that no game is over), after checking that it holds at least `at_least`
/// lines, all distinct and all from the start position.
fn shipped_book(file: &str, variant: GameChoice, at_least: usize) -> Vec<Opening> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("positions/openings")
        .join(file);
    let list = openings::load(&path, variant).unwrap();
    assert!(list.len() >= at_least, "{file}: {}", list.len());
    let distinct: std::collections::HashSet<_> = list.iter().map(|o| &o.moves).collect();
    assert_eq!(distinct.len(), list.len(), "{file}: duplicate openings");
    for o in &list {
        assert!(o.starts_from_startpos(variant), "{file}: {:?}", o.moves);
    }
    list
}

#[test]
fn the_shipped_chu_openings_are_legal_varied_and_short() {
    for o in &shipped_book("chushogi.txt", chu_lishogi(), 20) {
        assert!((4..=16).contains(&o.moves.len()), "{:?}", o.moves);
        replay_chu(&format!("position startpos moves {}", o.moves.join(" ")));
    }
}

#[test]
fn the_shipped_kagamigi_openings_are_legal_distinct_and_eight_plies_long() {
    for o in &shipped_book(
        "chukagamigi.txt",
        GameChoice::from(Variant::Chukagamigi),
        300,
    ) {
        assert_eq!(o.moves.len(), 8, "{:?}", o.moves);
    }
}

/// Issue 34's sub-second move time with HaChu: Shishi's `--xboard` mode against HaChu in Chu
/// at `movetime=500` (both sent `level 1 0:01 0` and `time 50`), with the default margin.
#[test]
#[ignore = "needs hachu (scripts/install_hachu.sh)"]
fn hachu_and_shishi_over_cecp_meet_a_sub_second_movetime() {
    let out = out_dir("hachu-movetime");
    let cecp = format!("{} --xboard", env!("CARGO_BIN_EXE_shishi"));
    let (_, games) = run(
        &cecp,
        "/usr/games/hachu",
        &out,
        &[
            "--variant",
            "chushogi",
            "--games",
            "2",
            "--proto1",
            "cecp",
            "--proto2",
            "cecp",
            "--option2",
            "Allow repeats=1",
            "--tc",
            "movetime=500",
            "--max-moves",
            "40",
        ],
    );
    for g in &games {
        assert!(
            !NOT_JUDGED_BY_THE_RULES.contains(&g.reason.as_str()),
            "game {}: {} ({})",
            g.game,
            g.reason,
            g.detail
        );
        replay_chu_moves(&g.usi);
    }
}

#[test]
#[ignore = "needs hachu: scripts/install_hachu.sh, then cargo test --test match_runner -- --ignored hachu"]
fn hachu_against_itself_through_the_referee() {
    let out = out_dir("hachu");
    let openings = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/positions/openings/chushogi.txt"
    );
    let (_, games) = run(
        "/usr/games/hachu",
        "/usr/games/hachu",
        &out,
        &[
            "--variant",
            "chushogi",
            "--games",
            "2",
            "--proto1",
            "cecp",
            "--proto2",
            "cecp",
            "--tc",
            "5+0.1",
            "--time-margin",
            "1000",
            "--openings",
            openings,
        ],
    );
    for g in &games {
        assert!(
            !NOT_JUDGED_BY_THE_RULES.contains(&g.reason.as_str()),
            "game {}: {} ({})",
            g.game,
            g.reason,
            g.detail
        );
        let pos = replay_chu_moves(&g.usi);
        assert!(pos.moves_played() > 20, "{}", g.usi);
    }
}

/// Which colour a Madness engine plays, read from the deal it was sent: its own card is
/// `draw:N`, the opponent's `draw:?`.
fn madness_receiver(sent: &[&str]) -> Color {
    if sent.first() == Some(&"draw:?") {
        Color::Gote
    } else {
        Color::Sente
    }
}

#[test]
fn madness_engines_are_sent_only_what_their_player_may_see() {
    use shishi::rules::variants::madness::{self, Phase, TrueGame};
    let me = env!("CARGO_BIN_EXE_shishi");
    let out = out_dir("madness");
    std::fs::create_dir_all(&out).unwrap();
    let logs = [out.join("engine1.log"), out.join("engine2.log")];
    let engine = |i: usize| {
        format!(
            "python3 {FIXTURES}/fake_usi.py legal {me} {} {}",
            logs[i].display(),
            i + 1
        )
    };
    let games_dir = out.join("match");
    let (summary, games) = run(
        &engine(0),
        &engine(1),
        &games_dir,
        &[
            "--variant",
            "madness",
            "--games",
            "2",
            "--max-moves",
            "90",
            "--seed",
            "5",
        ],
    );
    assert!(summary.contains("madness"), "{summary}");
    assert_eq!(games.len(), 2);
    // The records hold the true token streams: both cards dealt, every draw's value.
    let mut truths = Vec::new();
    for g in &games {
        assert!(
            !NOT_JUDGED_BY_THE_RULES.contains(&g.reason.as_str()),
            "game {}: {} ({})",
            g.game,
            g.reason,
            g.detail
        );
        let text = g.usi.strip_prefix("position ").unwrap();
        let truth = TrueGame::from_position_text(text, madness::TrueCards::default())
            .unwrap_or_else(|e| panic!("{}: {e}", g.usi));
        let tokens: Vec<String> = text.split_whitespace().skip(2).map(String::from).collect();
        assert!(!tokens.iter().any(|t| t == "draw:?"), "{}", g.usi);
        assert!(tokens[0].starts_with("draw:") && tokens[1].starts_with("draw:"));
        truths.push((truth, tokens));
    }
    // Duplicate deals: both games of the pair start with the same two cards.
    assert_eq!(truths[0].1[..2], truths[1].1[..2]);
    let mut positions = 0;
    for log in &logs {
        let text = std::fs::read_to_string(log).unwrap();
        assert!(text.contains("setoption name USI_Variant value madness"));
        for line in text.lines().filter(|l| l.starts_with("position")) {
            positions += 1;
            let sent: Vec<&str> = line.split_whitespace().skip(3).collect();
            let receiver = madness_receiver(&sent);
            // The stream is a prefix of one game's true stream, with exactly the cards the
            // opponent drew replaced by `draw:?` (judged here from the true state's phase,
            // independently of the referee's filter).
            let matches_game = truths.iter().any(|(truth, tokens)| {
                let mut replay = TrueGame::from_sfen(truth.start_sfen()).unwrap();
                sent.len() <= tokens.len()
                    && sent.iter().zip(tokens).all(|(got, true_token)| {
                        let drawer = match replay.phase() {
                            Phase::Deal(c) => Some(c),
                            Phase::Draw => Some(replay.side_to_move()),
                            _ => None,
                        };
                        let expected = match drawer {
                            Some(d) if d != receiver => "draw:?",
                            _ => true_token.as_str(),
                        };
                        replay.play_texts([true_token.as_str()]).unwrap();
                        *got == expected
                    })
            });
            assert!(matches_game, "{receiver:?} was sent {line}");
        }
    }
    assert!(positions > 10, "{positions}");
}

/// Under a node limit the same build plays the same game again for the same opening and
/// colour; the runner warns when the match has more games than openings can make distinct.
#[test]
fn a_node_limited_match_warns_when_its_games_repeat() {
    let out = out_dir("node-repeats");
    let book = out_dir("node-repeats-book");
    std::fs::create_dir_all(book.join("")).unwrap();
    let openings = book.join("one-line.txt");
    std::fs::write(&openings, "7g7f 3c3d\n").unwrap();
    let me = env!("CARGO_BIN_EXE_shishi");
    let out_s = out.to_str().unwrap();
    let o = shishi_match(&[
        "--engine1",
        me,
        "--engine2",
        me,
        "--out",
        out_s,
        "--games",
        "4",
        "--tc",
        "nodes=500",
        "--max-moves",
        "24",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let stderr = text(&o.stderr);
    assert!(
        stderr.contains("only the first 2 of 4 games can differ"),
        "{stderr}"
    );
    let games = games(&out);
    assert_eq!(games.len(), 4);
    // Games 3 and 4 replay games 1 and 2: what the warning is about.
    assert_eq!(games[2].usi, games[0].usi);
    assert_eq!(games[3].usi, games[1].usi);
}

/// Runs a match expected to be refused before any game; returns its stderr.
fn refused_match(name: &str, args: &[&str]) -> String {
    let out = out_dir(name);
    let mut all = vec!["--out", out.to_str().unwrap(), "--tc", "1+0.1"];
    all.extend_from_slice(args);
    let o = shishi_match(&all);
    let stderr = text(&o.stderr);
    assert!(!o.status.success(), "{args:?} was played: {stderr}");
    assert!(o.stdout.is_empty(), "{}", text(&o.stdout));
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        !out.join("games.jsonl").exists(),
        "{args:?}: a game was played"
    );
    stderr
}

/// Issue 34: `--option1 Bogus=1` or `--option1 USI_Hash=99999999` played on without a word,
/// the engine's `info string error` never reaching the user. Now a value outside what the
/// engine declares, or an option the engine complains about, stops the match before its
/// first game, naming the engine and the option.
#[test]
fn options_the_engine_refuses_stop_the_match_with_the_engines_words() {
    let me = env!("CARGO_BIN_EXE_shishi");
    let scripted = scripted();
    let xboard = format!("{me} --xboard");
    let usi = |engine1: &str, engine2: &str, option: &str, value: &str| {
        vec![
            "--engine1".to_string(),
            engine1.to_string(),
            "--engine2".to_string(),
            engine2.to_string(),
            option.to_string(),
            value.to_string(),
        ]
    };
    let cecp_first = |value: &str| {
        let mut args = usi(&xboard, &scripted, "--option1", value);
        args.splice(2..2, ["--proto1".to_string(), "cecp".to_string()]);
        args
    };
    // Each refused match: its name, its arguments, and what stderr must say.
    let cases: [(&str, Vec<String>, &[&str]); 6] = [
        // Shishi declares USI_Hash as a spin of 1 to 1048576: the referee refuses at once.
        (
            "opt-hash",
            usi(me, &scripted, "--option1", "USI_Hash=99999999"),
            &["engine 1 (shishi)", "USI_Hash", "from 1 to 1048576"],
        ),
        // A name Shishi does not know: it says so with `info string error`, passed on.
        (
            "opt-bogus",
            usi(&scripted, me, "--option2", "Bogus=1"),
            &["engine 2 (shishi)", "info string error", "Bogus"],
        ),
        // Checks and combos: the values the engine lists, nothing else.
        (
            "opt-combo",
            usi(me, &scripted, "--option1", "ParallelMode=fast"),
            &["ParallelMode", "one of"],
        ),
        // The fake engine declares USI_Hash up to 1024.
        (
            "opt-fake-hash",
            usi(&scripted, &scripted, "--option2", "USI_Hash=2048"),
            &["engine 2", "from 1 to 1024"],
        ),
        // CECP: Shishi's `feature option=` list and its `Error (…)` answer.
        (
            "opt-cecp-range",
            cecp_first("MultiPV=601"),
            &["engine 1", "from 1 to 600"],
        ),
        (
            "opt-cecp-bogus",
            cecp_first("Bogus=1"),
            &["engine 1", "Error (", "Bogus"],
        ),
    ];
    for (name, args, said) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = refused_match(name, &args);
        for words in said {
            assert!(err.contains(words), "{name}: no {words:?} in {err}");
        }
    }
}

/// Issue 34: what the referee cannot check is still not silent. An option the engine does
/// not list but takes without complaint (as Shishi's hidden `Search_…` parameters) is named
/// in a warning; a complaint the engine prints while a game is set up reaches stderr.
#[test]
fn unlisted_options_and_set_up_complaints_reach_stderr() {
    let me = env!("CARGO_BIN_EXE_shishi");
    let out = out_dir("opt-unlisted");
    let o = shishi_match(&[
        "--engine1",
        &scripted(),
        "--engine2",
        me,
        "--option1",
        "Bogus=1",
        "--option2",
        "Search_IirDepth=4",
        "--tc",
        "nodes=500",
        "--max-moves",
        "4",
        "--games",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = text(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning: engine 1 (fake_usi)")
            && stderr.contains("does not list the option Bogus"),
        "{stderr}"
    );
    assert!(
        stderr.contains("warning: engine 2 (shishi)")
            && stderr.contains("does not list the option Search_IirDepth"),
        "{stderr}"
    );
    assert_eq!(games(&out).len(), 1);
    let out = out_dir("opt-grumble");
    let grumbler = fake(&format!("grumble {REPETITION}"));
    let o = shishi_match(&[
        "--engine1",
        &grumbler,
        "--name1",
        "grumbler",
        "--engine2",
        &scripted(),
        "--tc",
        "1+0.1",
        "--games",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = text(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("grumbler: info string error the evaluation file could not be read"),
        "{stderr}"
    );
    // CECP: the fake CECP engine lists no options and takes any without a word.
    let out = out_dir("opt-cecp-unlisted");
    let cecp = format!("python3 {FIXTURES}/fake_cecp.py {REPETITION}");
    let o = shishi_match(&[
        "--engine1",
        &cecp,
        "--proto1",
        "cecp",
        "--option1",
        "Bogus=1",
        "--engine2",
        &scripted(),
        "--tc",
        "1+0.1",
        "--games",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = text(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("warning: engine 1") && stderr.contains("option Bogus"),
        "{stderr}"
    );
}

#[test]
fn the_node_odds_wrapper_divides_the_node_limit_and_nothing_else() {
    // `cat` behind the wrapper shows what an engine would be sent.
    let wrapper = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/usi_node_odds.py");
    let mut child = Command::new("python3")
        .args([wrapper, "4", "cat"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let sent = "usi\ngo nodes 100000\ngo btime 1000 wtime 1000 byoyomi 100\ngo nodes 3\nquit\n";
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), sent.as_bytes()).unwrap();
    let o = child.wait_with_output().expect("the wrapper ends");
    assert!(o.status.success());
    assert_eq!(
        text(&o.stdout),
        "usi\ngo nodes 25000\ngo btime 1000 wtime 1000 byoyomi 100\ngo nodes 1\nquit\n"
    );
    // Wrapping an engine in a node-limited match: the games are played to their end.
    let out = out_dir("node-odds");
    let wrapped = format!("python3 {wrapper} 4 {}", scripted());
    let (_, games) = run(
        &scripted(),
        &wrapped,
        &out,
        &["--tc", "nodes=4000", "--games", "2"],
    );
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| g.reason == "repetition"), "{games:?}");
}

/// The `go` commands of each game in a fake engine's log (games start at `usinewgame`).
fn go_commands_by_game(log: &Path) -> Vec<Vec<String>> {
    let mut games: Vec<Vec<String>> = Vec::new();
    for line in std::fs::read_to_string(log)
        .expect("the engine's log")
        .lines()
    {
        if line.trim() == "usinewgame" {
            games.push(Vec::new());
        } else if line.starts_with("go") {
            games
                .last_mut()
                .expect("a game")
                .push(line.trim().to_string());
        }
    }
    games
}

/// Time odds (`--tc1`/`--tc2`): each engine plays its own control whichever colour it has.
/// A logging fake engine shows what it was sent; Shishi plays the other seat, on the clock
/// against the node-limited fake and at a node limit against the clocked one.
#[test]
fn each_engine_plays_its_own_time_control_in_both_colours() {
    let me = env!("CARGO_BIN_EXE_shishi");
    let out = out_dir("time-odds");
    std::fs::create_dir_all(&out).unwrap();
    let logger = |log: &Path| {
        format!(
            "python3 {FIXTURES}/fake_usi.py legal {me} {} 1",
            log.display()
        )
    };
    let finished_cleanly = |games: &[Game1]| {
        assert_eq!(games.len(), 2);
        for g in games {
            assert!(
                !NOT_JUDGED_BY_THE_RULES.contains(&g.reason.as_str()),
                "game {}: {} ({})",
                g.game,
                g.reason,
                g.detail
            );
        }
    };
    let limits = ["--games", "2", "--max-moves", "16"];

    // Engine 1 (the fake) at a node limit, engine 2 (Shishi) on a Fischer clock.
    let log1 = out.join("nodes.log");
    let match1 = out.join("fake-nodes");
    let (summary, games) = run(
        &logger(&log1),
        me,
        &match1,
        &[&["--tc1", "nodes=777", "--tc2", "2+0.1"][..], &limits].concat(),
    );
    finished_cleanly(&games);
    let sent = go_commands_by_game(&log1);
    assert_eq!(sent.len(), 2, "{sent:?}");
    for game in &sent {
        assert!(!game.is_empty());
        assert!(game.iter().all(|go| go == "go nodes 777"), "{game:?}");
    }
    let names = "nodes=777 for fake_usi, 2+0.1 for shishi";
    assert!(summary.contains(&format!("tc {names}")), "{summary}");
    let about = std::fs::read_to_string(match1.join("match.txt")).unwrap();
    assert!(
        about.contains("tc: nodes=777 for engine1, 2+0.1 for engine2"),
        "{about}"
    );
    for (record, line) in [
        (
            "0001.usi",
            "# time control: nodes=777 for sente, 2+0.1 for gote",
        ),
        (
            "0002.usi",
            "# time control: 2+0.1 for sente, nodes=777 for gote",
        ),
    ] {
        let text = std::fs::read_to_string(match1.join("games").join(record)).unwrap();
        assert!(text.lines().any(|l| l == line), "{record}:\n{text}");
    }

    // Engine 1 (Shishi) at a node limit, engine 2 (the fake) on a Fischer clock: it is sent
    // its own clock and increment, and 0 for the clockless opponent's.
    let log2 = out.join("fischer.log");
    let (_, games) = run(
        me,
        &logger(&log2),
        &out.join("fake-fischer"),
        &[&["--tc1", "nodes=2000", "--tc2", "3+0.25"][..], &limits].concat(),
    );
    finished_cleanly(&games);
    let sent = go_commands_by_game(&log2);
    assert_eq!(sent.len(), 2, "{sent:?}");
    // Game 1: the fake (engine 2) has gote; game 2: sente.
    for (game, own_side) in sent.iter().zip([Color::Gote, Color::Sente]) {
        assert!(!game.is_empty());
        for go in game {
            let words: Vec<&str> = go.split_whitespace().collect();
            let field = |name: &str| -> u64 {
                let at = words.iter().position(|w| *w == name).expect(name);
                words[at + 1].parse().unwrap()
            };
            assert_eq!(words.len(), 9, "{go}");
            let (own_time, other_time, own_inc, other_inc) = match own_side {
                Color::Sente => ("btime", "wtime", "binc", "winc"),
                Color::Gote => ("wtime", "btime", "winc", "binc"),
            };
            // Its clock, which the increment may take above the base.
            assert!(field(own_time) > 0, "{go}");
            assert_eq!(
                (field(other_time), field(own_inc), field(other_inc)),
                (0, 250, 0),
                "{go}"
            );
        }
    }
}

/// `--tc` may be left out only when both engines have their own control; an unreadable
/// `--tc1` or `--tc2`, or a node limit for a CECP engine, stops the match with a message.
#[test]
fn time_controls_missing_or_unreadable_are_refused() {
    let out = out_dir("time-odds-refused");
    let o = out.to_str().unwrap();
    let me = env!("CARGO_BIN_EXE_shishi");
    let xboard = format!("{me} --xboard");
    let base = ["--engine1", "a", "--engine2", "b", "--out", o];
    for (extra, says) in [
        (&["--tc1", "1+0"][..], "--tc <TC>"),
        (&["--tc2", "1+0"][..], "--tc <TC>"),
        (&[][..], "--tc <TC>"),
        (&["--tc1", "fast", "--tc2", "1+0"][..], "--tc1"),
        (&["--tc", "1+0", "--tc2", "nodes=x"][..], "--tc2"),
    ] {
        let r = shishi_match(&[&base[..], extra].concat());
        let stderr = text(&r.stderr);
        assert!(!r.status.success(), "{extra:?}");
        assert!(stderr.contains(says), "{extra:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // A node limit of its own for a CECP engine is refused; the opponent's is not its concern.
    let r = shishi_match(&[
        "--engine1",
        me,
        "--engine2",
        &xboard,
        "--proto2",
        "cecp",
        "--out",
        o,
        "--tc",
        "1+0",
        "--tc2",
        "nodes=100",
    ]);
    assert!(!r.status.success());
    assert!(
        text(&r.stderr).contains("CECP engines take no node limit"),
        "{}",
        text(&r.stderr)
    );
    assert!(!out.join("games.jsonl").exists());
}
