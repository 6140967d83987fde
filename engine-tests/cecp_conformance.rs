//! CECP (XBoard protocol 2) conformance: drives the `shishi` binary over stdin/stdout in
//! XBoard's mode — the handshake (by `--xboard` and by a first line `xboard`), `ping` during
//! a search, `?`, analyze mode, illegal moves, `setboard`, `undo`/`remove`, the time
//! commands, the three games — and a short `shishi match` of Shishi-as-CECP against
//! Shishi-as-USI in Chu Shogi. Every move the engine prints is checked with the rules.

use shishi::cecp::xboard_text::{parse_xboard_move, play_move, position_of_xboard_fen};
use shishi::rules::variants::Variant;
use shishi::usi::position::{RuleOptions, UsiPosition};
use std::io::Write;
use std::process::{Child, ChildStdin, Command};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

#[path = "common/child_lines.rs"]
mod child_lines;
#[path = "common/scratch_dir.rs"]
mod scratch_dir;
use scratch_dir::ScratchDir;

/// How long any single expected answer may take.
const ANSWER: Duration = Duration::from_secs(15);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    transcript: Vec<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_shishi"));
        command.args(args).env_remove("RUST_LOG");
        let (child, stdin, lines) = child_lines::spawn(command);
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        }
    }

    /// An engine after the handshake (`xboard`, `protover 2` … `feature done=1`).
    fn ready() -> Engine {
        let mut e = Engine::start(&["--xboard"]);
        e.send("xboard");
        e.send("protover 2");
        e.until(|l| l == "feature done=1");
        e
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to the engine");
        stdin.flush().unwrap();
    }

    fn next_line(&mut self, deadline: Instant) -> Option<String> {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = self.lines.recv_timeout(left).ok()?;
        self.transcript.push(format!("< {line}"));
        Some(line)
    }

    /// Lines up to and including the first that satisfies `done`.
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + ANSWER;
        let mut seen = Vec::new();
        loop {
            match self.next_line(deadline) {
                Some(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return seen;
                    }
                }
                None => panic!("no expected line in time; transcript:\n{}", self.log()),
            }
        }
    }

    /// Waits for `ping N`'s answer and returns everything printed before it.
    fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let pong = format!("pong {n}");
        let mut lines = self.until(|l| l == pong);
        lines.pop();
        lines
    }

    /// The engine's next move (the text after `move `).
    fn move_line(&mut self) -> String {
        let lines = self.until(|l| l.starts_with("move ") || l == "resign");
        let last = lines.last().unwrap();
        last.strip_prefix("move ")
            .unwrap_or_else(|| panic!("resigned:\n{}", self.log()))
            .to_string()
    }

    fn log(&self) -> String {
        self.transcript.join("\n")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit");
        }
        let deadline = Instant::now() + Duration::from_secs(3);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(variant: Variant) -> UsiPosition {
    UsiPosition::startpos(variant, RuleOptions::default())
}

/// Plays an XBoard move on a position of the test's own, asserting that it is legal.
fn play(position: &mut UsiPosition, text: &str, log: &str) {
    let mv = parse_xboard_move(position, text)
        .unwrap_or_else(|e| panic!("the move {text} is illegal ({e}):\n{log}"));
    play_move(position, mv);
}

/// Whether a line is thinking output: `DEPTH SCORE TIME NODES [PV…]`.
fn is_thinking(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.len() >= 4
        && words[0].parse::<u32>().is_ok()
        && words[1].parse::<i64>().is_ok()
        && words[2].parse::<u64>().is_ok()
        && words[3].parse::<u64>().is_ok()
}

#[test]
fn handshake_by_flag_and_by_first_line() {
    for args in [&["--xboard"][..], &[][..]] {
        let mut e = Engine::start(args);
        e.send("xboard");
        e.send("protover 2");
        let lines = e.until(|l| l == "feature done=1");
        assert!(lines.iter().all(|l| l.starts_with("feature ")), "{lines:?}");
        let first = &lines[0];
        for feature in [
            "setboard=1",
            "usermove=1",
            "sigint=0",
            "sigterm=0",
            "san=0",
            "ping=1",
            "memory=1",
            "smp=1",
            "variants=\"shogi,chu,chukagamigi,minishogi\"",
        ] {
            assert!(first.contains(feature), "{feature} missing: {first}");
        }
        assert!(lines.iter().any(|l| l.contains("option=\"ChuRules -combo")));
        assert!(e.sync(1).is_empty(), "{}", e.log());
    }
}

#[test]
fn ping_during_a_search_is_answered_after_the_move() {
    let mut e = Engine::ready();
    e.send("new");
    e.send("variant shogi");
    e.send("st 1");
    e.send("go");
    e.send("ping 5");
    let before = e.until(|l| l == "pong 5");
    let moved = before.iter().position(|l| l.starts_with("move "));
    assert!(moved.is_some(), "no move before pong:\n{}", e.log());
    let mut position = start(Variant::Shogi);
    play(&mut position, &before[moved.unwrap()][5..], &e.log());
}

#[test]
fn question_mark_moves_now() {
    let mut e = Engine::ready();
    e.send("new");
    e.send("st 60");
    e.send("go");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    e.send("?");
    let mv = e.move_line();
    assert!(asked.elapsed() < Duration::from_secs(3), "{}", e.log());
    play(&mut start(Variant::Shogi), &mv, &e.log());
}

#[test]
fn analyze_mode_posts_and_follows_the_moves() {
    let mut e = Engine::ready();
    e.send("new");
    e.send("force");
    e.send("post");
    e.send("analyze");
    let lines = e.until(|l| is_thinking(l) && l.split_whitespace().count() > 4);
    let pv_move = lines.last().unwrap().split_whitespace().nth(4).unwrap();
    assert!(parse_xboard_move(&start(Variant::Shogi), pv_move).is_ok());
    // A move in analyze mode: the analysis goes on from the new position.
    e.send("usermove c3c4");
    let mut after = start(Variant::Shogi);
    play(&mut after, "c3c4", &e.log());
    let lines = e.until(|l| {
        is_thinking(l)
            && l.split_whitespace()
                .nth(4)
                .is_some_and(|m| parse_xboard_move(&after, m).is_ok())
    });
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{}", e.log());
    e.send("exit");
    let rest = e.sync(2);
    assert!(!rest.iter().any(|l| l.starts_with("move ")), "{}", e.log());
}

#[test]
fn illegal_moves_and_unknown_commands_are_refused() {
    let mut e = Engine::ready();
    e.send("new");
    e.send("force");
    e.send("usermove c3c5");
    e.send("usermove z9z9");
    e.send("frobnicate");
    let lines = e.sync(3);
    assert_eq!(
        lines,
        [
            "Illegal move: c3c5",
            "Illegal move: z9z9",
            "Error (unknown command): frobnicate"
        ],
        "{}",
        e.log()
    );
    // The refused moves changed nothing: sente's first move is still legal.
    e.send("usermove c3c4");
    assert!(e.sync(4).is_empty(), "{}", e.log());
}

#[test]
fn setboard_round_trip_and_take_backs() {
    let mut e = Engine::ready();
    e.send("new");
    e.send("force");
    // Kings and a pawn in sente's hand: dropping it is legal, a second drop is not.
    let fen = "4k4/9/9/9/9/9/9/9/4K4[P] w 0 1";
    e.send(&format!("setboard {fen}"));
    e.send("usermove P@e5");
    e.send("usermove P@e6");
    assert_eq!(e.sync(1), ["Illegal move: P@e6"], "{}", e.log());
    // undo: the pawn is back in hand; remove takes back two plies.
    e.send("undo");
    e.send("usermove P@e6");
    e.send("usermove e9d9");
    e.send("remove");
    e.send("usermove P@a5");
    assert!(e.sync(2).is_empty(), "{}", e.log());
    // The engine's move from the set-up position is legal there.
    e.send(&format!("setboard {fen}"));
    e.send("sd 3");
    e.send("go");
    let mv = e.move_line();
    let mut position = position_of_xboard_fen(fen, Variant::Shogi, RuleOptions::default()).unwrap();
    play(&mut position, &mv, &e.log());
    // Nonsense is refused and the game goes on.
    e.send("force");
    e.send("setboard not a fen");
    let lines = e.sync(3);
    assert!(
        lines[0].starts_with("tellusererror Illegal position"),
        "{lines:?}"
    );
    e.send("undo");
    e.send("remove");
    let lines = e.sync(4);
    assert_eq!(
        lines,
        ["Error (command not legal now): remove"],
        "{}",
        e.log()
    );
}

#[test]
fn time_commands_bound_the_search() {
    let mut e = Engine::ready();
    e.send("new");
    e.send("level 0 0:02 0");
    e.send("time 200");
    e.send("otim 200");
    e.send("usermove c3c4");
    let asked = Instant::now();
    let mv = e.move_line();
    // Well within the 2 s on the clock; the slack is for a loaded machine.
    assert!(asked.elapsed() < Duration::from_secs(6), "{}", e.log());
    let mut position = start(Variant::Shogi);
    play(&mut position, "c3c4", &e.log());
    play(&mut position, &mv, &e.log());
    // sd: the thinking output stops at that depth.
    e.send("force");
    e.send("post");
    e.send("sd 2");
    e.send("st 30");
    e.send("go");
    let lines = e.until(|l| l.starts_with("move "));
    let depths: Vec<u32> = lines
        .iter()
        .filter(|l| is_thinking(l))
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert!(
        !depths.is_empty() && depths.iter().all(|&d| d <= 2),
        "{}",
        e.log()
    );
}

#[test]
fn chu_moves_in_xboard_conventions() {
    let mut e = Engine::ready();
    e.send("new");
    e.send("variant chu");
    e.send("force");
    e.send("usermove h4h5");
    assert!(e.sync(1).is_empty(), "{}", e.log());
    // A lone Lion in the middle: jitto (@@@@) and a two-leg move are legal.
    e.send("setboard 5k6/12/12/12/12/12/5N6/12/12/12/12/5K6 w 0 1");
    e.send("usermove @@@@");
    e.send("usermove f12f11");
    e.send("usermove f6f7,f7e8");
    e.send("usermove f11f12");
    e.send("usermove e8e9,e9e8");
    assert!(e.sync(2).is_empty(), "{}", e.log());
    e.send("new");
    e.send("variant chu");
    e.send("sd 2");
    e.send("usermove h4h5");
    let mv = e.move_line();
    let mut position = start(Variant::Chushogi);
    play(&mut position, "h4h5", &e.log());
    play(&mut position, &mv, &e.log());
}

#[test]
fn chu_kagamigi_is_an_engine_defined_variant() {
    let mut e = Engine::ready();
    e.send("new");
    e.send("variant chukagamigi");
    let lines = e.sync(1);
    assert!(lines[0].starts_with("setup ("), "{lines:?}");
    assert!(lines[0].contains(" 12x12+16_shogi "), "{}", lines[0]);
    assert_eq!(lines.iter().filter(|l| l.starts_with("piece ")).count(), 46);
    e.send("sd 2");
    e.send("go");
    let mv = e.move_line();
    let mut position = start(Variant::Chukagamigi);
    play(&mut position, &mv, &e.log());
    // lift: the piece's targets come back as a colour board.
    e.send("force");
    e.send("lift a9");
    let lines = e.sync(2);
    // Gote's pawn on a9 may step to a8.
    assert!(lines[0].starts_with("highlight "), "{lines:?}");
    assert_eq!(lines[0], "highlight 12/12/12/12/Y11/12/12/12/12/12/12/12");
    assert_eq!(lines[0].split('/').count(), 12, "{lines:?}");
    // XBoardHoldings asks for a slot per kind at the next `variant`; out of range is refused.
    e.send("option XBoardHoldings=24");
    e.send("variant chukagamigi");
    let lines = e.sync(3);
    assert!(lines[0].contains(" 12x12+24_shogi "), "{}", lines[0]);
    e.send("option XBoardHoldings=25");
    let lines = e.sync(4);
    assert_eq!(lines[0], "Error (bad option): option XBoardHoldings=25");
}

/// Shishi as a CECP engine against Shishi as a USI engine in Chu: every game is played to
/// a legal end and scored.
#[test]
fn a_chu_match_of_cecp_against_usi() {
    let out = ScratchDir::new("shishi-cecp-match", "chu");
    let bin = env!("CARGO_BIN_EXE_shishi");
    let cecp = format!("{bin} --xboard");
    let output = Command::new(bin)
        .args([
            "match",
            "--variant",
            "chushogi",
            "--engine1",
            &cecp,
            "--proto1",
            "cecp",
            "--name1",
            "shishi-cecp",
            "--engine2",
            bin,
            "--name2",
            "shishi-usi",
            "--games",
            "2",
            "--tc",
            "1+0.05",
            "--max-moves",
            "60",
            "--concurrency",
            "1",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .expect("the match runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let jsonl = std::fs::read_to_string(out.join("games.jsonl")).expect("games.jsonl");
    let games: Vec<&str> = jsonl.lines().collect();
    assert_eq!(games.len(), 2, "{jsonl}");
    for game in games {
        let record = shishi::referee::game_files::GameLine::read(game).expect("a record");
        let reason = record.reason.as_str();
        let result = record.result.as_str();
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result), "{game}");
        // Both engines moved through their protocol.
        assert!(record.plies >= 2, "{game}");
        assert!(
            // A loss on time is scored too (the machine may be loaded); a move the referee
            // could not read or play, a dead engine or a false claim is a bridge failure.
            !["illegal-move", "engine-failure", "false-claim"].contains(&reason),
            "{game}"
        );
    }
}

/// Issue 34: time commands with huge, negative or odd numbers never abort the engine (they
/// did: `st 1e300` and `level 40 1e300 0` in `Duration::from_secs_f64`, `level 40 1e18 0`
/// in `minutes * 60`, `time` in `cs * 10`). Each is clamped and the engine still moves
/// (`?` ends a search with a clock of centuries); what is not a number gets `Error (…)`.
#[test]
fn huge_and_odd_time_values_are_clamped_not_fatal() {
    let huge = "99999999999999999999";
    let cases: Vec<(Vec<String>, Option<&str>)> = vec![
        (vec!["st 1e300".into()], None),
        (vec!["level 40 1e300 0".into()], None),
        (vec!["level 40 1e18 0".into()], None),
        (vec!["level 40 5:1e300 1e300".into()], None),
        (vec!["level 99999999999 inf inf".into()], None),
        (vec![format!("time {huge}"), format!("otim {huge}")], None),
        (vec!["level 0 5 0".into(), format!("time {huge}")], None),
        (vec!["level 0 5 0".into(), "time 1e300".into()], None),
        (vec!["level 0 1 -1e300".into(), "time -5".into()], None),
        (vec!["st -5".into()], None),
        (vec!["st inf".into()], None),
        (vec!["st 0.0000001".into()], None),
        (vec!["st NaN".into()], Some("Error (bad time): st NaN")),
        (vec!["time nan".into()], Some("Error (bad time): time nan")),
        (
            vec!["level 40 NaN 0".into()],
            Some("Error (bad time control): level 40 NaN 0"),
        ),
        (
            vec!["level -1 5 0".into()],
            Some("Error (bad time control): level -1 5 0"),
        ),
    ];
    for (variant, first) in [("chu", "h4h5"), ("shogi", "c3c4"), ("chukagamigi", "a4a5")] {
        for (commands, error) in &cases {
            let mut e = Engine::ready();
            e.send("new");
            e.send(&format!("variant {variant}"));
            for command in commands {
                e.send(command);
            }
            e.send("force");
            e.send(&format!("usermove {first}"));
            e.send("go");
            std::thread::sleep(Duration::from_millis(200));
            e.send("?");
            let lines = e.sync(1);
            let variant = match variant {
                "chu" => Variant::Chushogi,
                "shogi" => Variant::Shogi,
                _ => Variant::Chukagamigi,
            };
            let mut position = start(variant);
            play(&mut position, first, &e.log());
            let moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("move ")).collect();
            assert_eq!(moves.len(), 1, "{commands:?}:\n{}", e.log());
            play(&mut position, &moves[0][5..], &e.log());
            let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("Error")).collect();
            match error {
                Some(text) => assert_eq!(errors, [text], "{}", e.log()),
                None => assert!(errors.is_empty(), "{}", e.log()),
            }
            assert!(e.child.try_wait().unwrap().is_none(), "{}", e.log());
        }
    }
}

/// A `ping` kept during a search that is then abandoned is answered, in order (found by
/// `scripts/fuzz_cecp.py`: `go`, `ping 5`, `force`, `ping 6` answered only `pong 6`, and
/// `pong 5` never came).
#[test]
fn a_ping_kept_during_an_abandoned_search_is_answered() {
    let mut e = Engine::ready();
    e.send("new");
    e.sync(1);
    e.send("st 60");
    e.send("go");
    e.send("ping 5");
    e.send("force");
    e.send("ping 6");
    let lines = e.until(|l| l == "pong 6");
    assert_eq!(lines, ["pong 5", "pong 6"], "{}", e.log());
    // A kept move is taken before the abandoning command too: here, with no engine move
    // played, it is not legal; it does not leak into the next game.
    e.send("go");
    e.send("ping 7");
    e.send("usermove g7g6");
    e.send("new");
    e.send("ping 8");
    let lines = e.until(|l| l == "pong 8");
    assert_eq!(
        lines,
        ["pong 7", "Illegal move: g7g6", "pong 8"],
        "{}",
        e.log()
    );
    e.send("force");
    e.send("usermove c3c4");
    e.send("usermove g7g6");
    assert!(e.sync(9).is_empty(), "{}", e.log());
}

/// Commands kept during a search for a move are all handled after it, even when one of them
/// starts an analysis (found by `scripts/fuzz_cecp.py`: `analyze`, `go`, a kept `usermove`
/// restarted the analysis and the kept `ping` behind it was never answered).
#[test]
fn kept_commands_behind_one_that_restarts_an_analysis_are_answered() {
    let mut e = Engine::ready();
    e.send("new");
    e.send("force");
    e.send("st 60");
    e.send("analyze");
    e.send("go");
    e.send("usermove g7g6");
    e.send("ping 5");
    e.send("?");
    let lines = e.until(|l| l == "pong 5");
    let moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("move ")).collect();
    assert_eq!(moves.len(), 1, "{}", e.log());
    let mut position = start(Variant::Shogi);
    play(&mut position, &moves[0][5..], &e.log());
    e.send("exit");
    assert!(
        !e.sync(6).iter().any(|l| l.starts_with("move ")),
        "{}",
        e.log()
    );
}

/// `quit` was once ignored while a `ping` waited for a table fill (`memory`): the protocol
/// thread waited. The search thread now answers `ping` after the fill, and `quit` cuts the
/// fill short.
#[test]
fn quit_during_a_table_fill_exits_at_once() {
    let mut e = Engine::ready();
    e.send("memory 8192");
    e.send("ping 1");
    e.send("quit");
    let start = Instant::now();
    while e.child.try_wait().expect("wait").is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "quit not heard within 2 s:\n{}",
            e.log()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// `ping` after `memory` is answered once the table is made, and the game goes on.
#[test]
fn ping_after_memory_is_answered_and_the_engine_plays() {
    let mut e = Engine::ready();
    e.send("memory 64");
    e.sync(7);
    e.send("new");
    e.send("sd 2");
    e.send("go");
    e.move_line();
}
