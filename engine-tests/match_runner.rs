//! `shishi match` driven as a process against fake engines (Python scripts in
//! `engine-tests/fixtures/`): every way a game can end, records that load back, resume,
//! SPRT early stop, and the CECP client. Matches against Shishi's own USI mode and GNU
//! Shogi are `#[ignore]`d until those are available on the machine.

use shishi::referee::record::parse_flat_json;
use shishi::rules::game::Game;
use shishi::rules::variants::shogi::Position;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/engine-tests/fixtures");
/// Twelve plies of rook shuffling: the fourth occurrence of the start position.
const REPETITION: &str = "2h3h 8b7b 3h2h 7b8b 2h3h 8b7b 3h2h 7b8b 2h3h 8b7b 3h2h 7b8b 2h3h";

fn fake(mode: &str) -> String {
    format!("python3 {FIXTURES}/fake_usi.py {mode}")
}

fn scripted() -> String {
    fake(&format!("script {REPETITION}"))
}

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shishi-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn shishi_match(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shishi"))
        .arg("match")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
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
            let m = parse_flat_json(l).unwrap_or_else(|| panic!("bad line {l}"));
            let s = |k: &str| m[k].as_str().unwrap().to_string();
            Game1 {
                game: m["game"].as_u64().unwrap(),
                result: s("result"),
                engine1_result: s("engine1_result"),
                reason: s("reason"),
                detail: s("detail"),
                usi: s("usi"),
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
    // Its own, larger margin lets it finish the game.
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
        ],
    );
    assert_eq!(games[0].reason, "repetition", "{}", games[0].detail);
}

#[test]
fn a_crashing_engine_loses_and_is_restarted() {
    let out = out_dir("crash");
    let marker = out_dir("crash-marker");
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
    let _ = std::fs::remove_file(marker);
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

#[test]
fn sprt_stops_early_when_one_engine_always_wins() {
    let out = out_dir("sprt");
    let (stdout, games) = run(
        &scripted(),
        &fake("resign"),
        &out,
        &["--games", "40", "--sprt", "0", "10", "--concurrency", "2"],
    );
    assert!(games.len() < 40, "{} games", games.len());
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    // 4-0 or so: LOS = Φ(4/√8) = 97.7%.
    assert!(stdout.contains("LOS 9"), "{stdout}");
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
