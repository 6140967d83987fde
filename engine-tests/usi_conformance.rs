//! USI conformance: drives the `shishi` binary over stdin/stdout through the 14 steps of the
//! conformance checklist in `docs/USI.md`. Lines are read on a thread into a channel, so a hung
//! engine fails a test by timeout instead of hanging it. Every line the engine prints is
//! checked for well-formedness (`check_line`).

use shishi::rules::variants::shogi::Position;
use std::io::Write;
use std::process::{Child, ChildStdin, Command};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

#[path = "common/child_lines.rs"]
mod child_lines;

const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
/// Gote to move is checkmated (gold on 5b, protected by the pawn on 5c).
const MATED_SFEN: &str = "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1";
/// Sente may declare under csa27 (28 points, 10 pieces in camp) but not under jsa24 (31).
const DECLARE_SFEN: &str = "+R+BGGGG1K1/SSSS5/9/9/9/pppppppp1/9/9/4k4 b 10Prb4n4l 1";
/// Mate in 3 (R*5b 5a4a S*3b, or 5a6a S*7b), no mate in 1 (checked with cshogi's DfPn).
const MATE3_SFEN: &str = "4k4/9/4P4/9/9/9/9/9/K8 b RSr2b4g3s4n4l17p 1";

/// A lone king in the centre against two rooks, a gold and a silver in hand, with the
/// defender holding everything else: the df-pn solver neither proves nor refutes it in 2 s.
const HARD_MATE_SFEN: &str = "9/9/9/9/4k4/9/9/9/4K4 b 2RGS2b3g3s4n4l18p 1";

/// How long any single expected answer may take.
const ANSWER: Duration = Duration::from_secs(10);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    transcript: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        Engine::start_with_log(None)
    }

    /// Starts the engine with `RUST_LOG` set to `log` (or unset).
    fn start_with_log(log: Option<&str>) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_shishi"));
        match log {
            Some(level) => command.env("RUST_LOG", level),
            None => command.env_remove("RUST_LOG"),
        };
        Engine::start_command(command)
    }

    /// Starts the engine as `command` runs it (stdin and stdout piped, stderr dropped).
    fn start_command(command: Command) -> Engine {
        let (child, stdin, lines) = child_lines::spawn(command);
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        }
    }

    /// A started engine after `usi`/`usiok` and `isready`/`readyok`.
    fn ready() -> Engine {
        let mut e = Engine::start();
        e.send("usi");
        e.until("usiok");
        e.send("isready");
        e.until("readyok");
        e
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to the engine");
        stdin.flush().expect("flush");
    }

    fn fail(&self, why: &str) -> ! {
        let tail: Vec<&String> = self.transcript.iter().rev().take(40).collect();
        let tail: Vec<&String> = tail.into_iter().rev().collect();
        panic!("{why}\n--- last lines of the transcript ---\n{tail:#?}");
    }

    /// The next line within `timeout`, checked for well-formedness; `None` on timeout.
    fn next_within(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(format!("< {line}"));
                if let Err(why) = check_line(&line) {
                    self.fail(&format!("malformed line {line:?}: {why}"));
                }
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                self.fail("the engine closed stdout (exited or crashed)")
            }
        }
    }

    /// All lines up to and including the first that satisfies `pred`.
    fn until_match(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + ANSWER;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_within(left) {
                Some(line) => {
                    let done = pred(&line);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                None => self.fail(&format!("no {what} within {ANSWER:?}")),
            }
        }
    }

    /// All lines up to and including the first whose first token is `first`.
    /// Sets `option` (`NAME value V`) and waits for `readyok`: the lines printed before it.
    fn set_and_wait_ready(&mut self, option: &str) -> Vec<String> {
        self.send(&format!("setoption name {option}"));
        self.send("isready");
        self.until("readyok")
    }

    fn until(&mut self, first: &str) -> Vec<String> {
        self.until_match(first, |l| l.split(' ').next() == Some(first))
    }

    /// The `bestmove` line ending the current search; fails if a `checkmate` comes instead.
    fn bestmove(&mut self) -> String {
        let lines = self.until_match("bestmove", |l| {
            l.starts_with("bestmove") || l.starts_with("checkmate")
        });
        let last = lines.last().expect("a line").clone();
        if !last.starts_with("bestmove") {
            self.fail("a checkmate line answered go");
        }
        last
    }

    /// The `checkmate` line ending a `go mate`; fails if a `bestmove` comes instead.
    fn checkmate(&mut self) -> String {
        let lines = self.until_match("checkmate", |l| {
            l.starts_with("bestmove") || l.starts_with("checkmate")
        });
        let last = lines.last().expect("a line").clone();
        if !last.starts_with("checkmate") {
            self.fail("go mate was answered with bestmove");
        }
        last
    }

    /// Fails if a line starting with any of `prefixes` arrives within `quiet`.
    fn none_within(&mut self, quiet: Duration, prefixes: &[&str]) {
        let deadline = Instant::now() + quiet;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            if let Some(line) = self.next_within(left) {
                if prefixes.iter().any(|p| line.starts_with(p)) {
                    self.fail(&format!("unexpected {line:?} within {quiet:?}"));
                }
            }
        }
    }

    /// `isready` → `readyok`, failing on any `bestmove`/`checkmate` seen before it.
    fn sync(&mut self) {
        self.send("isready");
        let lines = self.until("readyok");
        if lines
            .iter()
            .any(|l| l.starts_with("bestmove") || l.starts_with("checkmate"))
        {
            self.fail("an unexpected bestmove/checkmate before readyok");
        }
    }

    /// Closes stdin or not, then waits for the process to exit; returns how long it took.
    fn wait_exit(&mut self, limit: Duration) -> Duration {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(
                    status.success() || status.code().is_none(),
                    "exit status {status}"
                );
                return start.elapsed();
            }
            if start.elapsed() > limit {
                let _ = self.child.kill();
                self.fail(&format!("the engine did not exit within {limit:?}"));
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The lines an exited engine printed that were not read yet.
    fn rest_after_exit(&mut self) -> Vec<String> {
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(ANSWER) {
            self.transcript.push(format!("< {line}"));
            rest.push(line);
        }
        rest
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn is_move(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'1'..=b'9').contains(&f) && (b'a'..=b'i').contains(&r);
    match b.len() {
        4 if b[1] == b'*' => b"PLNSGBR".contains(&b[0]) && square(b[2], b[3]),
        4 => square(b[0], b[1]) && square(b[2], b[3]),
        5 => square(b[0], b[1]) && square(b[2], b[3]) && b[4] == b'+',
        _ => false,
    }
}

/// The decision tokens of the chance games other than moves (docs/USI.md, "Tokens").
fn is_chance_token(text: &str) -> bool {
    match text {
        "pass" | "roll" | "mad+" | "mad=" => true,
        _ => text
            .strip_prefix("c:")
            .and_then(|n| n.parse::<u8>().ok())
            .is_some_and(|n| (1..=10).contains(&n)),
    }
}

fn is_uint(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|c| c.is_ascii_digit())
}

/// Well-formedness of one engine line: known first token, exact `usiok`/`readyok`,
/// no trailing spaces, `info` fields with values, `pv`/`string` last, mate scores signed in
/// plies with the parity of who mates, `bestmove resign|win` without a ponder move.
fn check_line(line: &str) -> Result<(), String> {
    if line.is_empty() {
        return Err("empty line".into());
    }
    if line != line.trim() || line.contains("  ") || !line.is_ascii() {
        return Err("stray whitespace or non-ASCII".into());
    }
    let t: Vec<&str> = line.split(' ').collect();
    match t[0] {
        "usiok" | "readyok" if t.len() == 1 => Ok(()),
        "id" if t.len() >= 3 && (t[1] == "name" || t[1] == "author") => Ok(()),
        "option" => {
            if t.get(1) != Some(&"name") || t.get(3) != Some(&"type") {
                return Err("option name must be one token followed by type".into());
            }
            Ok(())
        }
        "bestmove" => match &t[1..] {
            ["resign"] | ["win"] | ["(none)"] => Ok(()),
            [m] if is_move(m) => Ok(()),
            // A chance game's decisions up to the next chance event (docs/USI.md).
            [turn] if turn.split(',').all(|a| is_move(a) || is_chance_token(a)) => Ok(()),
            [m, "ponder", p] if is_move(m) && is_move(p) => Ok(()),
            _ => Err("bad bestmove".into()),
        },
        "checkmate" => match &t[1..] {
            ["nomate"] | ["timeout"] | ["notimplemented"] => Ok(()),
            moves if !moves.is_empty() && moves.iter().all(|m| is_move(m)) => Ok(()),
            _ => Err("bad checkmate".into()),
        },
        "info" => check_info(&t[1..]),
        // YaneuraOu's `e`: the static evaluation.
        "eval" if t.len() == 3 && t[1] == "=" && t[2].parse::<i32>().is_ok() => Ok(()),
        other => Err(format!("unknown first token {other:?}")),
    }
}

fn check_info(t: &[&str]) -> Result<(), String> {
    let mut i = 0;
    let mut has_depth = false;
    while i < t.len() {
        match t[i] {
            "string" => {
                return if i + 1 < t.len() {
                    Ok(())
                } else {
                    Err("empty string".into())
                }
            }
            "pv" => {
                let moves = &t[i + 1..];
                // A chance game's line holds its tokens too (docs/USI.md).
                if moves.is_empty() || !moves.iter().all(|m| is_move(m) || is_chance_token(m)) {
                    return Err("pv must be last and hold only moves".into());
                }
                return Ok(());
            }
            "depth" | "seldepth" | "time" | "nodes" | "nps" | "hashfull" | "multipv"
            | "currmovenumber" => {
                if !t.get(i + 1).is_some_and(|v| is_uint(v)) {
                    return Err(format!("{} needs an unsigned value", t[i]));
                }
                if t[i] == "depth" {
                    has_depth = true;
                }
                if t[i] == "seldepth" && !has_depth {
                    return Err("seldepth without depth before it".into());
                }
                if t[i] == "multipv" && t[i + 1] == "0" {
                    return Err("multipv counts from 1".into());
                }
                i += 2;
            }
            "currmove" => {
                if !t.get(i + 1).is_some_and(|m| is_move(m)) {
                    return Err("currmove needs a move".into());
                }
                i += 2;
            }
            "score" => {
                let kind = t.get(i + 1).copied();
                let value = t.get(i + 2).copied().unwrap_or("");
                match kind {
                    Some("cp") => {
                        if value
                            .strip_prefix('-')
                            .unwrap_or(value)
                            .parse::<u32>()
                            .is_err()
                        {
                            return Err("score cp needs an integer".into());
                        }
                    }
                    Some("mate") => match value {
                        "+" | "-" | "-0" | "+0" => {}
                        v => {
                            let n: i32 = v.parse().map_err(|_| "score mate needs plies")?;
                            // The side to move mates on its own (odd) plies and is mated on
                            // the opponent's (even) plies.
                            if n > 0 && n % 2 == 0 || n < 0 && n % 2 != 0 || n == 0 {
                                return Err(format!("mate {n} has the wrong parity/sign"));
                            }
                        }
                    },
                    _ => return Err("score must be cp or mate".into()),
                }
                i += 3;
                if matches!(t.get(i), Some(&"lowerbound") | Some(&"upperbound")) {
                    i += 1;
                }
            }
            other => return Err(format!("unknown info field {other:?}")),
        }
    }
    Ok(())
}

fn move_of(line: &str) -> &str {
    line.split(' ').nth(1).expect("a move")
}

/// Checks that the bestmove (and ponder move) of `line` are legal in `position`.
fn assert_legal_bestmove(position: &Position, line: &str) {
    let t: Vec<&str> = line.split(' ').collect();
    let best = position
        .parse_usi_move(t[1])
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    if let Some(ponder) = t.get(3) {
        let mut after = position.clone();
        after.play(best);
        after
            .parse_usi_move(ponder)
            .unwrap_or_else(|e| panic!("ponder move of {line}: {e}"));
    }
}

/// The position a `position` command's arguments describe (the test's own reading).
fn position_of(args: &str) -> Position {
    let (setup, moves) = match args.split_once(" moves") {
        Some((s, m)) => (s, m.split_whitespace().collect::<Vec<_>>()),
        None => (args, vec![]),
    };
    let mut p = match setup.strip_prefix("sfen ") {
        Some(sfen) => Position::from_sfen(sfen).expect("test sfen"),
        None => Position::startpos(),
    };
    for m in moves {
        let mv = p.parse_usi_move(m).expect("test move");
        p.play(mv);
    }
    p
}

// ---- step 1 ----------------------------------------------------------------------------

#[test]
fn step01_usi_handshake_is_fast_and_well_formed() {
    let mut e = Engine::start();
    let start = Instant::now();
    e.send("usi");
    let lines = e.until("usiok");
    let took = start.elapsed();
    assert!(took < Duration::from_secs(2), "usiok took {took:?}");
    assert!(lines[0].starts_with("id name "), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option")).collect();
    for name in [
        "USI_Hash",
        "USI_Ponder",
        "Threads",
        "MultiPV",
        "NetworkDelay",
        "NetworkDelay2",
        "MaxMovesToDraw",
        "USI_Variant",
        "EnteringKingRule",
        "Clear_Hash",
    ] {
        assert!(
            options
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "option {name} missing: {options:?}"
        );
    }
    for line in &options {
        let t: Vec<&str> = line.split(' ').collect();
        if let Some(i) = t.iter().position(|x| *x == "default") {
            assert!(
                i + 1 < t.len() && !["min", "max", "var"].contains(&t[i + 1]),
                "default without a value (use <empty>): {line}"
            );
        }
    }
    // A GUI may quit right after usiok.
    e.send("quit");
    e.wait_exit(Duration::from_millis(500));
}

// ---- step 2 ----------------------------------------------------------------------------

/// Every declared option, set to its edge values (spins: min and max; checks: both; combos:
/// every var; buttons: no value). None may produce an error.
#[test]
fn step02_setoption_every_declared_option_with_edge_values() {
    let mut e = Engine::start();
    e.send("usi");
    let lines = e.until("usiok");
    let mut commands = Vec::new();
    for line in lines.iter().filter(|l| l.starts_with("option ")) {
        let t: Vec<&str> = line.split(' ').collect();
        let name = t[2];
        let value_after = |key: &str| t.iter().position(|x| *x == key).map(|i| t[i + 1]);
        match t[4] {
            "spin" => {
                commands.push(format!(
                    "setoption name {name} value {}",
                    value_after("min").unwrap()
                ));
                commands.push(format!(
                    "setoption name {name} value {}",
                    value_after("max").unwrap()
                ));
                commands.push(format!(
                    "setoption name {name} value {}",
                    value_after("default").unwrap()
                ));
            }
            "check" => {
                commands.push(format!("setoption name {name} value true"));
                commands.push(format!("setoption name {name} value false"));
            }
            "combo" => {
                for (i, word) in t.iter().enumerate() {
                    if *word == "var" {
                        commands.push(format!("setoption name {name} value {}", t[i + 1]));
                    }
                }
                commands.push(format!(
                    "setoption name {name} value {}",
                    value_after("default").unwrap()
                ));
            }
            "button" => commands.push(format!("setoption name {name}")),
            "string" | "filename" => {
                commands.push(format!("setoption name {name} value <empty>"));
                commands.push(format!("setoption name {name} value a b c"));
            }
            other => panic!("unknown option type {other}"),
        }
    }
    // Case-insensitive names, aliases and the spaced button name.
    commands.extend(
        [
            "setoption name usi_hash value 16",
            "setoption name USI_MultiPV value 1",
            "setoption name UCI_Variant value standard",
            "setoption name Clear Hash",
        ]
        .map(String::from),
    );
    for c in &commands {
        e.send(c);
    }
    // Back to sane values (the max hash must never be allocated) before isready.
    e.send("setoption name USI_Hash value 16");
    e.send("setoption name Threads value 1");
    e.send("setoption name MultiPV value 1");
    // `BookFile a b c` names no file: reading it at isready would be an error (tested in
    // engine-tests/book.rs).
    e.send("setoption name BookFile value no_book");
    e.send("setoption name EvalDir value <builtin>");
    e.send("setoption name EvalFile value <empty>");
    e.send("setoption name ChuEvalFile value <empty>");
    e.send("setoption name KagamigiEvalFile value <empty>");
    e.send("setoption name ShogammonEvalFile value <empty>");
    e.send("isready");
    let lines = e.until("readyok");
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert!(errors.is_empty(), "{errors:?} for {commands:#?}");
    // Unknown options and bad values are reported, not fatal.
    e.send("setoption name NoSuchOption value 3");
    e.send("setoption name USI_Hash value -5");
    e.send("setoption name USI_Ponder value maybe");
    e.send("setoption name EnteringKingRule value csa99");
    e.send("setoption");
    e.send("isready");
    let lines = e.until("readyok");
    let errors = lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .count();
    assert_eq!(errors, 5, "{lines:?}");
    e.send("position startpos");
    e.send("go byoyomi 100");
    let best = e.bestmove();
    assert_legal_bestmove(&Position::startpos(), &best);
}

// ---- steps 3 and 4 ---------------------------------------------------------------------

#[test]
fn step03_04_games_in_one_process_in_either_order() {
    let mut e = Engine::start();
    e.send("usi");
    e.until("usiok");
    e.send("setoption name USI_Hash value 16");
    e.send("setoption name USI_Ponder value false");
    let start = Instant::now();
    e.send("isready");
    e.until("readyok");
    assert!(start.elapsed() < Duration::from_secs(5));
    for game in 0..3 {
        if game == 1 {
            // shoginet's order: usinewgame before isready.
            e.send("usinewgame");
            e.sync();
        } else {
            e.sync();
            e.send("usinewgame");
        }
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..6 {
            let args = if moves.is_empty() {
                "startpos".to_string()
            } else {
                format!("startpos moves {}", moves.join(" "))
            };
            e.send(&format!("position {args}"));
            e.send("go btime 1000 wtime 1000 byoyomi 1000");
            let best = e.bestmove();
            assert_legal_bestmove(&position_of(&args), &best);
            moves.push(move_of(&best).to_string());
        }
        // Exactly one bestmove: nothing more arrives.
        e.none_within(Duration::from_millis(200), &["bestmove"]);
        e.send(["gameover win", "gameover lose", "gameover"][game]);
    }
    e.send("quit");
    e.wait_exit(Duration::from_millis(500));
}

#[test]
fn step03_fischer_clock_moves_within_the_time_left_plus_increment() {
    // `go btime 1000 wtime 1000 binc 100 winc 100`, then the clock as a GUI keeps it: the
    // time taken off, the increment added back. Each answer comes within the time left plus
    // the increment.
    let mut e = Engine::ready();
    e.send("usinewgame");
    let mut left = [1000u64, 1000u64];
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..6 {
        let args = if moves.is_empty() {
            "startpos".to_string()
        } else {
            format!("startpos moves {}", moves.join(" "))
        };
        e.send(&format!("position {args}"));
        e.send(&format!(
            "go btime {} wtime {} binc 100 winc 100",
            left[0], left[1]
        ));
        let start = Instant::now();
        let best = e.bestmove();
        let took = start.elapsed().as_millis() as u64;
        let side = ply % 2;
        assert!(
            took <= left[side] + 100,
            "ply {ply}: {took} ms with {} ms left",
            left[side]
        );
        assert_legal_bestmove(&position_of(&args), &best);
        left[side] = left[side] + 100 - took;
        moves.push(move_of(&best).to_string());
    }
    e.sync();
}

// ---- step 5 ----------------------------------------------------------------------------

#[test]
fn step05_position_shapes() {
    let mut e = Engine::ready();
    for args in [
        format!("sfen {START_SFEN} moves"),
        "startpos moves".to_string(),
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - moves 7g7f".to_string(),
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b 10P8p 1".to_string(),
        "sfen 4k4/9/9/9/9/9/9/9/4K4 w 18p".to_string(),
        format!("sfen {START_SFEN} moves 7g7f 3c3d 8h2b+ 3a2b B*4e"),
    ] {
        e.send(&format!("position {args}"));
        e.send("go byoyomi 100");
        let lines = e.until("bestmove");
        assert!(
            !lines.iter().any(|l| l.contains("error")),
            "{args}: {lines:?}"
        );
        assert_legal_bestmove(&position_of(&args), lines.last().unwrap());
    }
}

// ---- step 6 ----------------------------------------------------------------------------

#[test]
fn step06_every_go_shape_gives_one_bestmove() {
    let mut e = Engine::ready();
    e.send("position startpos moves 7g7f");
    let position = position_of("startpos moves 7g7f");
    for go in [
        "go btime 0 wtime 0 byoyomi 0",
        "go byoyomi 500",
        "go btime 0 byoyomi 500",
        "go btime 30000 wtime 30000 binc 1000 winc 1000",
        "go btime 10000 wtime 10000 byoyomi 300 binc 100 winc 100",
        "go movetime 100",
        "go nodes 10000",
        "go depth 3",
        "go movetime 50 depth 5 btime 1000 wtime 1000 byoyomi 1000",
        "go movetime 0.9",
        "go btime -100 wtime x byoyomi 100",
        "go byoyomi 200 searchmoves 2c2d 8c8d",
    ] {
        e.send(go);
        let start = Instant::now();
        let best = e.bestmove();
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{go} took {:?}",
            start.elapsed()
        );
        assert_legal_bestmove(&position, &best);
        if go.contains("searchmoves") {
            assert!(["2c2d", "8c8d"].contains(&move_of(&best)), "{best}");
        }
        e.sync();
    }
    e.send("go infinite");
    e.none_within(Duration::from_millis(300), &["bestmove"]);
    e.send("stop");
    let best = e.bestmove();
    assert_legal_bestmove(&position, &best);
    e.sync();
}

// ---- step 7 ----------------------------------------------------------------------------

#[test]
fn step07_go_then_stop_1000_times_gives_exactly_one_bestmove_each() {
    let mut e = Engine::ready();
    e.send("position startpos moves 2g2f 8c8d");
    let position = position_of("startpos moves 2g2f 8c8d");
    for i in 0..1000 {
        e.send(if i % 2 == 0 {
            "go infinite"
        } else {
            "go byoyomi 1000"
        });
        e.send("stop");
        let best = e.bestmove();
        if i % 100 == 0 {
            assert_legal_bestmove(&position, &best);
        }
    }
    // Pipelined without waiting: 200 pairs must give 200 bestmoves, no more.
    let mut burst = String::new();
    for _ in 0..200 {
        burst.push_str("go infinite\nstop\n");
    }
    e.send(burst.trim_end());
    for _ in 0..200 {
        e.bestmove();
    }
    e.none_within(Duration::from_millis(300), &["bestmove"]);
    e.sync();
}

// ---- step 8 ----------------------------------------------------------------------------

#[test]
fn step08_ponder_then_ponderhit() {
    let mut e = Engine::ready();
    e.send("position startpos moves 7g7f 3c3d");
    // A short clock, so the search's whole budget after ponderhit (time + byoyomi less the
    // latency margins: well under 2 s) decides when it moves, not the machine's load.
    e.send("go ponder btime 1000 wtime 1000 byoyomi 500");
    e.none_within(Duration::from_secs(2), &["bestmove"]);
    e.send("ponderhit");
    let start = Instant::now();
    let best = e.bestmove();
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert_legal_bestmove(&position_of("startpos moves 7g7f 3c3d"), &best);
    e.none_within(Duration::from_millis(200), &["bestmove"]);
    e.sync();
}

#[test]
fn step08_ponder_then_stop_and_gameover_without_stop() {
    let mut e = Engine::ready();
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go ponder btime 10000 wtime 10000 byoyomi 500");
    e.none_within(Duration::from_millis(500), &["bestmove"]);
    e.send("stop");
    e.bestmove();
    e.none_within(Duration::from_millis(200), &["bestmove"]);
    // Shogidokoro sends gameover without stop when the opponent resigns during ponder.
    e.send("go ponder btime 10000 wtime 10000 byoyomi 500");
    e.none_within(Duration::from_millis(500), &["bestmove"]);
    e.send("gameover lose");
    e.bestmove();
    e.sync();
    // YaneuraOu's extension: go ponder without times, the clock comes with ponderhit.
    e.send("usinewgame");
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go ponder");
    e.none_within(Duration::from_millis(500), &["bestmove"]);
    e.send("ponderhit btime 0 wtime 0 byoyomi 300");
    let start = Instant::now();
    e.bestmove();
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    e.sync();
}

/// cshogi.cli sends `go ponder` from a worker thread and `ponderhit` from its main thread;
/// when the opponent answers at once, `ponderhit` can arrive before `go ponder`. Seen in a
/// real cshogi.cli --ponder match: the engine then pondered forever and the match hung.
#[test]
fn step08_ponderhit_that_overtakes_go_ponder_still_counts() {
    let mut e = Engine::ready();
    e.send("position startpos moves 7g7f 3c3d");
    e.send("ponderhit");
    e.send("go ponder btime 0 wtime 0 byoyomi 300");
    let start = Instant::now();
    let best = e.bestmove();
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert_legal_bestmove(&position_of("startpos moves 7g7f 3c3d"), &best);
    // Only the very next command: a stray ponderhit before anything else is forgotten.
    e.send("ponderhit");
    e.sync();
    e.send("go ponder btime 0 wtime 0 byoyomi 300");
    e.none_within(Duration::from_millis(500), &["bestmove"]);
    e.send("stop");
    e.bestmove();
    e.sync();
}

// ---- step 9 ----------------------------------------------------------------------------

#[test]
fn step09_isready_during_go_infinite_answers_at_once_and_the_search_goes_on() {
    let mut e = Engine::ready();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let start = Instant::now();
    e.sync();
    assert!(
        start.elapsed() < Duration::from_millis(200),
        "{:?}",
        start.elapsed()
    );
    e.none_within(Duration::from_millis(500), &["bestmove"]);
    e.send("stop");
    e.bestmove();
    e.none_within(Duration::from_millis(200), &["bestmove"]);
}

// ---- step 10 ---------------------------------------------------------------------------

#[test]
fn step10_go_mate_answers_one_checkmate_line_never_bestmove() {
    let mut e = Engine::ready();
    for (position, go) in [
        (MATE3_SFEN, "go mate 1000"),
        (MATE3_SFEN, "go mate infinite"),
        (START_SFEN, "go mate 300"),
    ] {
        e.send(&format!("position sfen {position}"));
        e.send(go);
        let start = Instant::now();
        let line = e.checkmate();
        assert!(start.elapsed() < Duration::from_secs(5));
        if let Some(moves) = line.strip_prefix("checkmate ") {
            if !["nomate", "timeout", "notimplemented"].contains(&moves) {
                let mut p = Position::from_sfen(position).unwrap();
                for m in moves.split(' ') {
                    let mv = p
                        .parse_usi_move(m)
                        .unwrap_or_else(|err| panic!("{line}: {err}"));
                    p.play(mv);
                }
                assert!(p.in_check() && !p.has_legal_move(), "{line} does not mate");
            }
        }
        if position == START_SFEN {
            // No check is possible at the start, so a solver may prove nomate at once.
            assert!(
                ["checkmate nomate", "checkmate timeout"].contains(&line.as_str()),
                "{line}"
            );
        }
        e.none_within(Duration::from_millis(100), &["bestmove", "checkmate"]);
    }
    // stop during go mate infinite on a position that is hard to decide: one checkmate line.
    e.send(&format!("position sfen {HARD_MATE_SFEN}"));
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    e.checkmate();
    e.none_within(Duration::from_millis(200), &["bestmove", "checkmate"]);
    e.sync();
}

#[test]
fn step10_go_mate_finds_a_mate_in_3() {
    let mut e = Engine::ready();
    e.send(&format!("position sfen {MATE3_SFEN}"));
    e.send("go mate 5000");
    let line = e.checkmate();
    let moves: Vec<&str> = line
        .strip_prefix("checkmate ")
        .unwrap()
        .split(' ')
        .collect();
    assert_eq!(moves.len(), 3, "{line}");
    let mut p = Position::from_sfen(MATE3_SFEN).unwrap();
    for m in &moves {
        let mv = p
            .parse_usi_move(m)
            .unwrap_or_else(|err| panic!("{line}: {err}"));
        p.play(mv);
    }
    assert!(p.in_check() && !p.has_legal_move(), "{line} does not mate");
}

// ---- step 11 ---------------------------------------------------------------------------

#[test]
fn step11_no_legal_move_resigns_without_a_ponder_move() {
    let mut e = Engine::ready();
    e.send(&format!("position sfen {MATED_SFEN}"));
    e.send("go byoyomi 1000");
    assert_eq!(e.bestmove(), "bestmove resign");
    // Also while pondering: nothing before stop.
    e.send("go ponder byoyomi 1000");
    e.none_within(Duration::from_millis(300), &["bestmove"]);
    e.send("stop");
    assert_eq!(e.bestmove(), "bestmove resign");
    e.sync();
}

#[test]
fn step11_declaration_only_when_the_rule_allows() {
    let mut e = Engine::ready();
    e.send(&format!("position sfen {DECLARE_SFEN}"));
    e.send("go byoyomi 500");
    assert_eq!(e.bestmove(), "bestmove win", "csa27 is the default");
    for rule in ["none", "try", "jsa24"] {
        e.send(&format!("setoption name EnteringKingRule value {rule}"));
        e.send("go byoyomi 500");
        let best = e.bestmove();
        assert_ne!(best, "bestmove win", "rule {rule}");
        assert_legal_bestmove(&Position::from_sfen(DECLARE_SFEN).unwrap(), &best);
    }
    e.send("setoption name EnteringKingRule value csa27");
    e.send("go infinite");
    e.none_within(Duration::from_millis(300), &["bestmove"]);
    e.send("stop");
    assert_eq!(e.bestmove(), "bestmove win");
    e.sync();
}

// ---- step 12 ---------------------------------------------------------------------------

#[test]
fn step12_bad_input_is_reported_and_the_previous_position_kept() {
    let mut e = Engine::ready();
    e.send("position startpos moves 7g7f");
    let kept = position_of("startpos moves 7g7f");
    for bad in [
        "position startpos moves 7g7f 7g7f",
        "position startpos moves 7g7f 3c3d 1a1b",
        "position startpos moves 7g7f zz",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9 b - 1",
        "position sfen 9/9/9/9/9/9/9/9/9 x - 1",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 19P 1",
        "position sfen",
        "position",
        "position fen startpos",
        "frobnicate",
    ] {
        e.send(bad);
        e.send("isready");
        let lines = e.until("readyok");
        assert!(
            lines.iter().any(|l| l.starts_with("info string error")),
            "{bad}: {lines:?}"
        );
        e.send("go byoyomi 100");
        let best = e.bestmove();
        assert_legal_bestmove(&kept, &best);
    }
    // Commands that do not fit the state are ignored silently.
    e.send("stop");
    e.send("ponderhit");
    e.none_within(Duration::from_millis(200), &["bestmove"]);
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go byoyomi 100");
    let best = e.bestmove();
    assert_legal_bestmove(&position_of("startpos moves 7g7f 3c3d"), &best);
}

/// Issue 34, and docs/USI.md "Hands written with a letter more than once": other programs
/// read `pppp` as one pawn (cshogi) or four (YaneuraOu); Shishi refuses it, naming the letter,
/// and keeps the position it had.
#[test]
fn step12_a_hand_letter_written_twice_is_refused_by_name() {
    let mut e = Engine::ready();
    e.send("position startpos moves 7g7f");
    for sfen in [
        "4k4/9/9/9/9/9/9/9/4K4 b SPbslpppp 1",
        "4k4/9/9/9/9/9/9/9/4K4 b 2P3P 1",
    ] {
        e.send(&format!("position sfen {sfen}"));
        e.send("isready");
        let lines = e.until("readyok");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error") && l.contains("written twice")),
            "{sfen}: {lines:?}"
        );
    }
    e.send("go byoyomi 100");
    let best = e.bestmove();
    assert_legal_bestmove(&position_of("startpos moves 7g7f"), &best);
}

/// Issue 12: SFEN hands of 19+ of one piece panicked the engine in shogi, Shogammon and the
/// Central Madness; now each is refused with one error line and the engine goes on.
#[test]
fn step12_oversized_hands_are_refused_in_every_variant() {
    let mut e = Engine::ready();
    let nineteen_p = "p".repeat(19);
    for variant in ["shogi", "shogammon", "madness", "chukagamigi", "chushogi"] {
        e.send(&format!("setoption name USI_Variant value {variant}"));
        for sfen in [
            "4k4/9/9/9/9/9/9/9/4K4 b 10p10p 1".to_string(),
            format!("4k4/9/9/9/9/9/9/9/4K4 b {nineteen_p} 1"),
            "8k/9/9/9/09/9/1gn6/9/K8 b - 1".to_string(),
            "5k6/12/12/12/12/12/12/12/12/12/12/5K6 b 13p12p 1".to_string(),
            "5k6/12/12/12/012/12/12/12/12/12/12/5K6 b - 1".to_string(),
        ] {
            e.send(&format!("position sfen {sfen} moves"));
            e.send("isready");
            let lines = e.until("readyok");
            let errors = lines
                .iter()
                .filter(|l| l.starts_with("info string error position refused"))
                .count();
            assert_eq!(errors, 1, "{variant} {sfen}: {lines:?}");
        }
    }
}

/// Issue 12: 12,500 bad `searchmoves` tokens answered with 12,500 error lines; now one line,
/// and the search still keeps to the one legal move given.
#[test]
fn step12_searchmoves_flood_makes_one_error_line() {
    let mut e = Engine::ready();
    e.send("position startpos");
    let junk: Vec<String> = (0..12_500).map(|i| format!("x{i}")).collect();
    e.send(&format!(
        "go byoyomi 100 searchmoves {} 7g7f",
        junk.join(" ")
    ));
    let lines = e.until("bestmove");
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("12500 moves ignored"), "{}", errors[0]);
    assert_eq!(move_of(lines.last().expect("bestmove")), "7g7f");
}

// ---- step 13 ---------------------------------------------------------------------------

#[test]
fn step13_quit_exits_within_500ms_even_mid_search() {
    for during_search in [false, true] {
        let mut e = Engine::ready();
        if during_search {
            e.send("position startpos");
            e.send("go infinite");
            std::thread::sleep(Duration::from_millis(100));
        }
        e.send("quit");
        let took = e.wait_exit(Duration::from_secs(2));
        assert!(took < Duration::from_millis(500), "quit took {took:?}");
    }
}

#[test]
fn step13_eof_exits_within_500ms_even_mid_search() {
    for during_search in [false, true] {
        let mut e = Engine::ready();
        if during_search {
            e.send("position startpos");
            e.send("go infinite");
            std::thread::sleep(Duration::from_millis(100));
        }
        e.stdin = None; // closes the pipe
        let took = e.wait_exit(Duration::from_secs(2));
        assert!(took < Duration::from_millis(500), "EOF took {took:?}");
    }
}

#[test]
fn step13_sigterm_exits() {
    let mut e = Engine::ready();
    e.send("position startpos");
    e.send("go infinite");
    let status = Command::new("kill")
        .args(["-TERM", &e.child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success());
    let took = e.wait_exit(Duration::from_secs(2));
    assert!(took < Duration::from_millis(500), "SIGTERM took {took:?}");
}

// ---- step 14 ---------------------------------------------------------------------------

#[test]
fn step14_output_hygiene_multipv_and_legal_lines() {
    // Full logging must not leak onto stdout: every line is still checked by check_line.
    let mut e = Engine::start_with_log(Some("trace"));
    e.send("usi");
    e.until("usiok");
    e.sync();
    for multipv in [1, 3] {
        e.send(&format!("setoption name MultiPV value {multipv}"));
        let args = "startpos moves 7g7f 3c3d 2g2f";
        e.send(&format!("position {args}"));
        e.send("go byoyomi 300");
        let lines = e.until("bestmove");
        let root = position_of(args);
        assert_legal_bestmove(&root, lines.last().unwrap());
        let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info ")).collect();
        for info in &infos {
            if info.starts_with("info string") {
                continue;
            }
            assert_eq!(
                info.contains(" multipv "),
                multipv > 1,
                "multipv shown iff MultiPV > 1: {info}"
            );
            if let Some((_, pv)) = info.split_once(" pv ") {
                let mut p = root.clone();
                for m in pv.split(' ') {
                    let mv = p
                        .parse_usi_move(m)
                        .unwrap_or_else(|err| panic!("illegal pv move in {info}: {err}"));
                    p.play(mv);
                }
            }
        }
    }
    // Lines from a search and from the protocol thread never interleave (checked by
    // check_line on every line): isready storms during an infinite search.
    e.send("setoption name MultiPV value 1");
    e.send("go infinite");
    for _ in 0..200 {
        e.send("isready");
    }
    for _ in 0..200 {
        e.until("readyok");
    }
    e.send("stop");
    e.bestmove();
    e.sync();
}

/// Shogammon over USI: after a roll, `go` answers the whole turn (both die actions, joined
/// by `,`, each legal in turn); before a roll it analyses the 21 rolls in `info string`
/// lines and answers `bestmove (none)`.
#[test]
fn shogammon_turns_are_answered_whole_and_rolls_analysed() {
    use shishi::rules::variants::shogammon;
    let mut e = Engine::ready();
    e.send("setoption name USI_Variant value shogammon");
    e.send("position startpos moves r:61");
    e.send("go depth 1");
    let best = e.bestmove();
    let turn: Vec<&str> = best.split(' ').nth(1).unwrap().split(',').collect();
    assert_eq!(turn.len(), 2, "{best}");
    let mut pos = shogammon::Position::startpos();
    for token in std::iter::once("r:61").chain(turn) {
        let action = pos
            .parse_action(token)
            .unwrap_or_else(|err| panic!("{token} in {best}: {err}"));
        pos.play(action);
    }
    e.send("position startpos");
    e.send("go depth 1");
    let lines = e.until("bestmove");
    let outcomes = lines
        .iter()
        .filter(|l| l.starts_with("info string outcome r:"))
        .count();
    assert_eq!(outcomes, 21, "{lines:#?}");
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    e.send("quit");
}

/// The Central Madness over USI: the engine reads its own view (the opponent's card as
/// `draw:?`) and answers a decision legal in that view.
#[test]
fn madness_answers_from_its_own_view() {
    use shishi::rules::variants::madness;
    let mut e = Engine::ready();
    e.send("setoption name USI_Variant value madness");
    e.send("position startpos moves draw:? draw:9 7g7f");
    e.send("go depth 2");
    let best = e.bestmove();
    let text = best.split(' ').nth(1).unwrap().replace(',', " ");
    let view = madness::PlayerView::from_position_text(
        &format!("startpos moves draw:? draw:9 7g7f {text}"),
        madness::ViewCards::new(shishi::rules::geometry::Color::Gote),
    );
    assert!(view.is_ok(), "{best}: {:?}", view.err());
    e.send("quit");
}

/// The Central Madness's entering-king declaration (docs/RULES.md, the Madness's impasse):
/// `win` takes the place of the normal move, judged after the madness phase. Sente's silver
/// on 5e is the tenth piece the slide toward rank a (value 3) brings into the enemy camp.
#[test]
fn madness_declares_a_win_only_at_the_normal_move() {
    const ENTERING: &str = "+R+BGGGG1K1/SSS6/9/9/4S4/pppppppp1/9/9/4k4 b 10Prb4n4l 1";
    let mut e = Engine::ready();
    e.send("setoption name USI_Variant value madness");
    // At the normal move after the card's slide and the redraw: declare.
    e.send(&format!(
        "position sfen {ENTERING} moves draw:3 draw:? c:3 mad= draw:5"
    ));
    e.send("go depth 2");
    assert_eq!(e.bestmove(), "bestmove win");
    // At the promotion choice after a rolled 3: the choice alone, so the next go declares.
    e.send(&format!(
        "position sfen {ENTERING} moves draw:5 draw:? roll r:3"
    ));
    e.send("go depth 2");
    let best = e.bestmove();
    assert!(best == "bestmove mad+" || best == "bestmove mad=", "{best}");
    // Holding the 3 at the card-or-roll choice: the search plays it (a certain win).
    e.send(&format!("position sfen {ENTERING} moves draw:3 draw:?"));
    e.send("go depth 2");
    assert_eq!(e.bestmove(), "bestmove c:3,mad+");
    // Under `EnteringKingRule none` the engine never declares.
    e.send("setoption name EnteringKingRule value none");
    e.send(&format!(
        "position sfen {ENTERING} moves draw:3 draw:? c:3 mad= draw:5"
    ));
    e.send("go depth 2");
    let best = e.bestmove();
    assert!(
        best.starts_with("bestmove ") && best != "bestmove win",
        "{best}"
    );
    e.send("quit");
}

// ---- Hardening: what an outside tester once broke (each test failed before its fix) ----

/// `USI_Hash 1048576` (the declared maximum, 1 TiB) once aborted the process on the
/// allocation. Under an address-space limit of about 1.2 GB the table now falls back to a
/// size that can be had, says so in an `info string`, and the engine plays on.
#[test]
fn an_impossible_hash_size_falls_back_and_says_so() {
    let mut command = Command::new("sh");
    command.args([
        "-c",
        concat!("ulimit -v 1200000 && exec ", env!("CARGO_BIN_EXE_shishi")),
    ]);
    let mut e = Engine::start_command(command);
    e.send("usi");
    e.until("usiok");
    e.send("setoption name USI_Hash value 1048576");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string USI_Hash 1048576 MiB cannot be had")),
        "{lines:#?}"
    );
    e.send("position startpos");
    e.send("go depth 2");
    e.bestmove();
    e.send("quit");
    e.wait_exit(Duration::from_secs(5));
}

/// `quit` was once ignored while `isready` filled a table (`USI_Hash 2048`: `quit` at
/// 1.0 s, exit at 11.6 s): the protocol thread waited for the fill. It now reads on, and
/// `quit` cuts the fill short. (8192 MiB, where the machine has it, so that the fill
/// outlasts the bound on a quiet machine too; cut short, it never touches that much.)
/// The `isready` before `quit` is still answered: a piped `usi`, `isready`, `quit` once
/// printed no `readyok` (the process ended before the search thread reached it).
#[test]
fn quit_during_a_table_fill_exits_at_once() {
    for delay in [Duration::ZERO, Duration::from_millis(150)] {
        let mut e = Engine::start();
        e.send("usi");
        e.until("usiok");
        e.send("setoption name USI_Hash value 8192");
        e.send("isready");
        std::thread::sleep(delay);
        e.send("quit");
        let took = e.wait_exit(Duration::from_secs(5));
        assert!(took < Duration::from_secs(1), "quit took {took:?}");
        let rest = e.rest_after_exit();
        assert!(
            rest.iter().any(|l| l == "readyok"),
            "no readyok after isready, quit (delay {delay:?}): {rest:#?}"
        );
    }
}

/// A `stop` during the fill of `isready` cuts it short: `readyok` follows at once, with a
/// line saying the table is made again at the next `isready` or `go`; the engine then
/// plays on.
#[test]
fn stop_during_a_table_fill_answers_at_once() {
    let mut e = Engine::start();
    e.send("usi");
    e.until("usiok");
    e.send("setoption name USI_Hash value 8192");
    e.send("isready");
    e.send("stop");
    let start = Instant::now();
    let lines = e.until("readyok");
    let took = start.elapsed();
    assert!(took < Duration::from_secs(2), "readyok took {took:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string the 8192 MiB table's fill was stopped")),
        "{lines:#?}"
    );
    // A smaller table is made at the next isready; the engine plays.
    e.send("setoption name USI_Hash value 16");
    e.sync();
    e.send("position startpos");
    e.send("go depth 3");
    e.bestmove();
    // A go that follows a stopped fill remakes the table on its own clock, and a stop
    // cuts that short too.
    e.send("setoption name USI_Hash value 2048");
    e.send("position startpos");
    e.send("go infinite");
    e.send("stop");
    let start = Instant::now();
    e.bestmove();
    let took = start.elapsed();
    assert!(took < Duration::from_secs(2), "bestmove took {took:?}");
    e.send("quit");
    e.wait_exit(Duration::from_secs(2));
}

/// Milliseconds from `go …` to its `bestmove`.
fn think_ms(e: &mut Engine, go: &str) -> u128 {
    let start = Instant::now();
    e.send(go);
    e.bestmove();
    start.elapsed().as_millis()
}

/// With the default `NetworkDelay2` (1120 ms), a byoyomi of 1 s was once answered in 11 ms:
/// the delay swallowed it. Byoyomi is now used, less a margin of at most a quarter.
#[test]
fn short_byoyomi_is_used_with_the_default_delays() {
    let mut e = Engine::ready();
    e.send("position startpos");
    let ms = think_ms(&mut e, "go btime 0 wtime 0 byoyomi 1000");
    assert!(ms >= 700, "byoyomi 1000 answered after {ms} ms");
    e.send("position startpos moves 7g7f");
    let ms = think_ms(&mut e, "go btime 0 wtime 0 byoyomi 300");
    assert!(ms >= 200, "byoyomi 300 answered after {ms} ms");
    e.send("quit");
}

/// Shogammon once allocated its own table at the first `go`, on the clock (about 2 s at
/// 1 GiB) and beside the shogi table. `isready` now allocates the table of the game's
/// search; at 512 MiB an allocation at `go` would take far longer than the answer may.
#[test]
fn the_chance_games_table_is_allocated_at_isready() {
    let mut e = Engine::start();
    e.send("usi");
    e.until("usiok");
    e.send("setoption name USI_Hash value 512");
    e.send("setoption name USI_Variant value shogammon");
    e.sync();
    e.send("position startpos moves r:61 7g7f 5i4h r:33");
    let ms = think_ms(&mut e, "go movetime 100");
    assert!(ms < 600, "go movetime 100 answered after {ms} ms");
    e.send("quit");
}

/// The Madness engine once played from a deal that hid both cards. A stream that hides the
/// engine's own card is refused, and the previous position kept.
#[test]
fn madness_refuses_a_stream_that_hides_the_engines_own_card() {
    let mut e = Engine::ready();
    e.send("setoption name USI_Variant value madness");
    e.send("position startpos moves draw:? draw:?");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error") && l.contains("draw:?")),
        "{lines:#?}"
    );
    e.send("quit");
}

/// The chance games once printed their last `info` line twice and an outcome row with an
/// empty `pv`.
#[test]
fn chance_games_print_each_info_line_once_and_no_empty_pv() {
    let mut e = Engine::ready();
    for (variant, position) in [
        ("shogammon", "position startpos moves r:61 7g7f 5i4h r:33"),
        ("shogammon", "position startpos"),
        ("madness", "position startpos"),
        ("madness", "position startpos moves draw:3 draw:?"),
    ] {
        e.send(&format!("setoption name USI_Variant value {variant}"));
        e.send(position);
        e.send("go depth 2");
        let lines = e.until("bestmove");
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        for pair in infos.windows(2) {
            assert_ne!(pair[0], pair[1], "{variant} {position}: {lines:#?}");
        }
        assert!(
            lines.iter().all(|l| !l.trim_end().ends_with(" pv")),
            "{variant} {position}: {lines:#?}"
        );
    }
    e.send("quit");
}

/// `go mate` in Chu Kagamigi answers with a mate line (two-digit files) that replays to
/// checkmate; the games without checkmate answer `checkmate notimplemented`.
#[test]
fn go_mate_solves_chu_kagamigi_and_declines_the_games_without_mate() {
    use shishi::rules::variants::kagamigi;
    let mut e = Engine::ready();
    e.send("setoption name USI_Variant value chukagamigi");
    let sfen = "5k6/12/6Y5/12/12/12/12/12/12/12/12/2K9 b R 1";
    e.send(&format!("position sfen {sfen}"));
    e.send("go mate 5000");
    let line = e.checkmate();
    let moves = line.strip_prefix("checkmate ").expect("a checkmate line");
    let mut p = kagamigi::Position::from_sfen(sfen).unwrap();
    for m in moves.split(' ') {
        let mv = p
            .parse_usi_move(m)
            .unwrap_or_else(|err| panic!("{line}: {err}"));
        p.play(mv);
    }
    assert!(p.in_check() && !p.has_legal_move(), "{line} does not mate");
    for variant in ["chushogi", "shogammon", "madness"] {
        e.send(&format!("setoption name USI_Variant value {variant}"));
        e.send("position startpos");
        e.send("go mate 300");
        assert_eq!(e.checkmate(), "checkmate notimplemented", "{variant}");
    }
    e.sync();
}

// ---- the evaluation options and `e` ----------------------------------------------------

/// `ShogiEval`/`EvalDir`/`EvalFile` are read at `isready`: a file when one is named, else
/// `ShogiEval`'s choice (the built-in net by default, or the hand-written tables); a file that
/// cannot be used is reported and `ShogiEval`'s choice goes on; `e` prints the evaluation in
/// use.
/// `lines` (from `isready`) say that the net built into the engine was loaded.
fn assert_loaded_the_builtin_net(lines: &[String]) {
    assert!(
        lines
            .iter()
            .any(|l| l == "info string loaded the net <builtin> (kp_256x2-32-32)"),
        "{lines:?}"
    );
}

#[test]
fn nets_are_read_at_isready_and_e_prints_the_evaluation() {
    use shishi::eval::nnue::features::FeatureSet;
    use shishi::eval::nnue::{file, Network};
    let dir = std::env::temp_dir().join(format!("shishi-usi-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
    let pos = Position::from_sfen(sfen).unwrap();
    let hand_written = format!("eval = {}", shishi::eval::shogi::evaluate(&pos));
    let builtin = format!(
        "eval = {}",
        shishi::eval::nnue::builtin::network().evaluate(&pos)
    );
    let net = Network::random(FeatureSet::HalfKp, 1);
    let with_net = format!("eval = {}", net.evaluate(&pos));
    assert_ne!(builtin, with_net);
    assert_ne!(builtin, hand_written);

    let mut e = Engine::ready();
    e.send(&format!("position sfen {sfen}"));
    let eval = |e: &mut Engine| {
        e.send("e");
        e.until("eval").last().unwrap().clone()
    };
    // The built-in net by default; the hand-written tables one option away, and back.
    assert_eq!(eval(&mut e), builtin);
    let lines = e.set_and_wait_ready("ShogiEval value hand-written");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    assert_eq!(eval(&mut e), hand_written);
    let lines = e.set_and_wait_ready("ShogiEval value net");
    assert_loaded_the_builtin_net(&lines);
    assert_eq!(eval(&mut e), builtin);
    e.send("go depth 3");
    assert_legal_bestmove(&pos, &e.bestmove());
    let lines = e.set_and_wait_ready("ShogiEval value hand-written");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    assert_eq!(eval(&mut e), hand_written);
    // No nn.bin in the folder: reported, the hand-written evaluation goes on.
    let lines = e.set_and_wait_ready(&format!("EvalDir value {}", dir.display()));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error cannot use the net")
                && l.ends_with("using the hand-written evaluation")),
        "{lines:?}"
    );
    assert_eq!(eval(&mut e), hand_written);
    // A truncated file, with ShogiEval at net: the built-in net goes on.
    let bytes = file::write(&net);
    std::fs::write(dir.join("nn.bin"), &bytes[..bytes.len() / 2]).unwrap();
    e.set_and_wait_ready("ShogiEval value net");
    let lines = e.set_and_wait_ready(&format!("EvalDir value {}", dir.display()));
    assert!(
        lines.iter().any(|l| l.contains("error")
            && l.contains("truncated")
            && l.ends_with("using the built-in net")),
        "{lines:?}"
    );
    assert_eq!(eval(&mut e), builtin);
    // The whole file, named by EvalFile, whatever ShogiEval says.
    e.set_and_wait_ready("ShogiEval value hand-written");
    std::fs::write(dir.join("test.bin"), &bytes).unwrap();
    let lines = e.set_and_wait_ready(&format!(
        "EvalFile value {}",
        dir.join("test.bin").display()
    ));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string loaded the net")),
        "{lines:?}"
    );
    assert_eq!(eval(&mut e), with_net);
    e.send("go depth 3");
    let best = e.bestmove();
    assert_legal_bestmove(&pos, &best);
    // Another architecture (its hash differs): refused, the hand-written evaluation returns.
    let mut other = bytes.clone();
    other[4] ^= 1;
    std::fs::write(dir.join("nn.bin"), &other).unwrap();
    e.set_and_wait_ready("EvalFile value <empty>");
    let lines = e.set_and_wait_ready(&format!("EvalDir value {}", dir.display()));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("error") && l.contains("hash")),
        "{lines:?}"
    );
    assert_eq!(eval(&mut e), hand_written);
    e.send("go depth 3");
    assert_legal_bestmove(&pos, &e.bestmove());
    // A kp_256x2-32-32 net is read the same way, told apart by its hash.
    let kp = Network::random(FeatureSet::Kp, 1);
    std::fs::write(dir.join("kp.bin"), file::write(&kp)).unwrap();
    let lines = e.set_and_wait_ready(&format!("EvalFile value {}", dir.join("kp.bin").display()));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string loaded the net") && l.ends_with("(kp_256x2-32-32)")),
        "{lines:?}"
    );
    let with_kp = format!("eval = {}", kp.evaluate(&pos));
    assert_ne!(with_kp, with_net);
    assert_eq!(eval(&mut e), with_kp);
    e.send("go depth 3");
    assert_legal_bestmove(&pos, &e.bestmove());
    // Naming no file returns to ShogiEval's choice.
    e.set_and_wait_ready("EvalFile value <empty>");
    e.set_and_wait_ready("EvalDir value <builtin>");
    assert_eq!(eval(&mut e), hand_written);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `ChuEvalFile` and `KagamigiEvalFile` name each 12×12 game's net, read at `isready`: `e`
/// prints the tables' evaluation corrected by the net's; a net of another game is refused
/// with the reason and what plays without a file goes on (the game's built-in net under
/// `ChuEval net` / `KagamigiEval net`, its tables under `hand-written`); `<empty>` returns to
/// it. (The search with a 12×12 net: `search::tests::the_12x12_games_search_with_their_own_nets`.)
#[test]
fn the_12x12_games_read_their_own_nets() {
    use shishi::eval::board12_choice::Board12Evaluator;
    use shishi::eval::nnue::builtin::network_of;
    use shishi::eval::nnue::features::{FeatureSet, NetGame};
    use shishi::eval::nnue::{file, Network};
    use shishi::eval::shogi_choice::EvalChoice;
    use shishi::rules::variants::{chu, kagamigi};
    let dir = std::env::temp_dir().join(format!("shishi-usi-12x12-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chu_net = Network::random(FeatureSet::ChuP, 6);
    let kagamigi_net = Network::random(FeatureSet::KagamigiP, 6);
    std::fs::write(dir.join("chu.nn"), file::write(&chu_net)).unwrap();
    std::fs::write(dir.join("kagamigi.nn"), file::write(&kagamigi_net)).unwrap();
    let eval = |e: &mut Engine| {
        e.send("e");
        e.until("eval").last().unwrap().clone()
    };
    let mut e = Engine::ready();
    let chu_start = chu::Position::startpos();
    let kagamigi_start = kagamigi::Position::startpos();
    // A 12×12 net corrects the game's tables: `e` is the tables' value plus the net's.
    for (variant, option, choice, default, net, other, net_eval, tables_eval, built_in_eval) in [
        (
            "chushogi",
            "ChuEvalFile",
            "ChuEval",
            EvalChoice::CHU_DEFAULT,
            "chu.nn",
            "kagamigi.nn",
            chu_net.evaluate_board12(&chu_start),
            Board12Evaluator::<chu::Position>::with_net(None).evaluate(&chu_start),
            Board12Evaluator::<chu::Position>::with_net(Some(network_of(NetGame::Chu)))
                .evaluate(&chu_start),
        ),
        (
            "chukagamigi",
            "KagamigiEvalFile",
            "KagamigiEval",
            EvalChoice::KAGAMIGI_DEFAULT,
            "kagamigi.nn",
            "chu.nn",
            kagamigi_net.evaluate_board12(&kagamigi_start),
            Board12Evaluator::<kagamigi::Position>::with_net(None).evaluate(&kagamigi_start),
            Board12Evaluator::<kagamigi::Position>::with_net(Some(network_of(NetGame::Kagamigi)))
                .evaluate(&kagamigi_start),
        ),
    ] {
        assert_ne!(net_eval, 0);
        assert_ne!(built_in_eval, tables_eval, "{variant}");
        let with_file = tables_eval + net_eval;
        e.set_and_wait_ready(&format!("USI_Variant value {variant}"));
        e.send("position startpos");
        for chosen in [default, EvalChoice::HandWritten, EvalChoice::Net] {
            e.set_and_wait_ready(&format!("{choice} value {}", chosen.name()));
            let (without_file, fallback) = match chosen {
                EvalChoice::Net => (built_in_eval, "uses its built-in net"),
                EvalChoice::HandWritten => (tables_eval, "uses its hand-written evaluation"),
            };
            assert_eq!(eval(&mut e), format!("eval = {without_file}"), "{variant}");
            // A file wins over the choice.
            let lines =
                e.set_and_wait_ready(&format!("{option} value {}", dir.join(net).display()));
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with("info string loaded the net")
                        && l.contains("-p_256x2-32-32")),
                "{lines:?}"
            );
            assert_eq!(eval(&mut e), format!("eval = {with_file}"), "{variant}");
            // The other game's net: refused, what plays without a file goes on.
            let lines =
                e.set_and_wait_ready(&format!("{option} value {}", dir.join(other).display()));
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with("info string error cannot use the net")
                        && l.contains("evaluates")
                        && l.ends_with(fallback)),
                "{lines:?}"
            );
            assert_eq!(eval(&mut e), format!("eval = {without_file}"), "{variant}");
            e.set_and_wait_ready(&format!("{option} value <empty>"));
            assert_eq!(eval(&mut e), format!("eval = {without_file}"), "{variant}");
        }
        e.set_and_wait_ready(&format!("{choice} value {}", default.name()));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The Central Madness values its board as `MadnessEval` chooses, apart from standard shogi's
/// `ShogiEval`: by default with its own built-in net (whatever `ShogiEval` says), with the
/// hand-written evaluation under `MadnessEval hand-written`, and with the file `EvalFile`
/// names when one is; the reported score is the in-process chance search's with that
/// evaluation.
#[test]
fn madness_values_its_board_as_madness_eval_chooses() {
    use shishi::eval::nnue::builtin;
    use shishi::rules::geometry::Color;
    use shishi::rules::variants::madness::PlayerView;
    use shishi::search::chance::{ChanceLimits, ChanceSearcher, ChanceSettings, Depth};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let tokens = ["draw:3", "draw:?", "7g7f", "3c3d"];
    let score = |net: Option<Arc<shishi::eval::nnue::Network>>| {
        let mut view = PlayerView::startpos(Color::Sente);
        view.play_texts(tokens).unwrap();
        let mut searcher = ChanceSearcher::new(ChanceSettings::default());
        searcher.set_network(net);
        let limits = ChanceLimits {
            depth: Some(Depth(2)),
            ..ChanceLimits::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let value = searcher
            .search(&mut view, Color::Sente, &limits, &stop)
            .value;
        format!("score cp {}", value.0)
    };
    let hand_written = score(None);
    let with_net = score(Some(builtin::madness_network()));
    let with_shogi_net = score(Some(builtin::network()));
    assert_ne!(hand_written, with_net);
    assert_ne!(with_shogi_net, with_net);

    let mut e = Engine::ready();
    e.send("setoption name USI_Variant value madness");
    let searched = |e: &mut Engine| {
        e.send(&format!("position startpos moves {}", tokens.join(" ")));
        e.send("go depth 2");
        let lines = e.until("bestmove");
        let last = lines
            .iter()
            .rfind(|l| l.starts_with("info depth 2 "))
            .unwrap_or_else(|| panic!("no depth 2 line: {lines:#?}"))
            .clone();
        let at = last.find("score cp ").expect("a cp score");
        let end = last[at + 9..].find(' ').map_or(last.len(), |i| at + 9 + i);
        last[at..end].to_string()
    };
    e.set_and_wait_ready("USI_Hash value 16");
    // Standard shogi's default, its built-in net, is loaded; the Madness uses its own.
    assert_eq!(searched(&mut e), with_net);
    // ShogiEval does not reach the Madness's board.
    e.set_and_wait_ready("ShogiEval value hand-written");
    assert_eq!(searched(&mut e), with_net);
    e.set_and_wait_ready("MadnessEval value hand-written");
    assert_eq!(searched(&mut e), hand_written);
    e.set_and_wait_ready("ShogiEval value net");
    assert_eq!(searched(&mut e), hand_written);
    // A net file named for standard shogi values the Madness's board under MadnessEval net.
    let dir = std::env::temp_dir().join(format!("shishi-usi-madness-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("nn.bin");
    std::fs::write(&file, builtin::FILE_BYTES).unwrap();
    e.set_and_wait_ready(&format!("EvalFile value {}", file.display()));
    assert_eq!(searched(&mut e), hand_written);
    e.set_and_wait_ready("MadnessEval value net");
    assert_eq!(searched(&mut e), with_shogi_net);
    e.set_and_wait_ready("EvalFile value <empty>");
    assert_eq!(searched(&mut e), with_net);
    e.send("quit");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `ShogammonEvalFile` names Shogammon's net, read at `isready`: the score the engine reports
/// is the in-process chance search's with that net correcting the hand-written evaluation; a
/// net of another game is refused with the reason and what plays without a file goes on (the
/// hand-written evaluation, or under `ShogammonEval net` the built-in net); `<empty>` returns
/// to it.
#[test]
fn shogammon_reads_its_own_net() {
    use shishi::eval::nnue::features::{FeatureSet, NetGame};
    use shishi::eval::nnue::{builtin, file, Network};
    use shishi::rules::geometry::Color;
    use shishi::rules::variants::shogammon::Position;
    use shishi::search::chance::{ChanceLimits, ChanceSearcher, ChanceSettings, Depth};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let dir = std::env::temp_dir().join(format!("shishi-usi-shogammon-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = Network::random(FeatureSet::ShogammonP, 8);
    std::fs::write(dir.join("shogammon.nn"), file::write(&net)).unwrap();
    std::fs::write(
        dir.join("chu.nn"),
        file::write(&Network::random(FeatureSet::ChuP, 8)),
    )
    .unwrap();
    let tokens = ["r:31", "7g7f", "3i3h", "r:21"];
    let net = Arc::new(net);
    let score = |net: Option<Arc<Network>>| {
        let mut pos = Position::startpos();
        for token in tokens {
            let action = pos.parse_action(token).unwrap();
            pos.play(action);
        }
        let mut searcher = ChanceSearcher::new(ChanceSettings::default());
        searcher.set_shogammon_network(net);
        let limits = ChanceLimits {
            depth: Some(Depth(1)),
            ..ChanceLimits::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let value = searcher.search(&mut pos, Color::Gote, &limits, &stop).value;
        format!("score cp {}", value.0)
    };
    let built_in = builtin::network_of(NetGame::Shogammon);
    let (hand_written, with_net, with_built_in) =
        (score(None), score(Some(net)), score(Some(built_in)));
    assert_ne!(hand_written, with_net);
    assert_ne!(hand_written, with_built_in);

    let mut e = Engine::ready();
    e.set_and_wait_ready("USI_Variant value shogammon");
    let searched = |e: &mut Engine| {
        e.send(&format!("position startpos moves {}", tokens.join(" ")));
        e.send("go depth 1");
        let lines = e.until("bestmove");
        let last = lines
            .iter()
            .rfind(|l| l.starts_with("info depth 1 "))
            .unwrap_or_else(|| panic!("no depth 1 line: {lines:#?}"))
            .clone();
        let at = last.find("score cp ").expect("a cp score");
        let end = last[at + 9..].find(' ').map_or(last.len(), |i| at + 9 + i);
        last[at..end].to_string()
    };
    // The default: the hand-written evaluation.
    assert_eq!(searched(&mut e), hand_written);
    let option = |file: &str| format!("ShogammonEvalFile value {}", dir.join(file).display());
    let lines = e.set_and_wait_ready(&option("shogammon.nn"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string loaded the net")
                && l.contains("shogammon-p_256x2-32-32")),
        "{lines:?}"
    );
    assert_eq!(searched(&mut e), with_net);
    let lines = e.set_and_wait_ready(&option("chu.nn"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error cannot use the net")
                && l.contains("evaluates chushogi, not shogammon")
                && l.ends_with("shogammon uses its hand-written evaluation")),
        "{lines:?}"
    );
    assert_eq!(searched(&mut e), hand_written);
    // Under `ShogammonEval net` the same refusal falls back to the built-in net, and a file
    // still wins over the choice.
    e.set_and_wait_ready("ShogammonEval value net");
    let lines = e.set_and_wait_ready(&option("chu.nn"));
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("shogammon uses its built-in net")),
        "{lines:?}"
    );
    assert_eq!(searched(&mut e), with_built_in);
    e.set_and_wait_ready(&option("shogammon.nn"));
    assert_eq!(searched(&mut e), with_net);
    e.set_and_wait_ready("ShogammonEvalFile value <empty>");
    assert_eq!(searched(&mut e), with_built_in);
    e.set_and_wait_ready("ShogammonEval value hand-written");
    assert_eq!(searched(&mut e), hand_written);
    e.send("quit");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A node limit stops the search inside an iteration; the last `info` before `bestmove`
/// still counts every node searched (the budget, give or take one poll), not only those of
/// the last whole iteration.
#[test]
fn the_last_info_of_a_node_limited_search_counts_the_whole_budget() {
    let mut e = Engine::ready();
    for budget in [30_000u64, 70_000] {
        e.send("usinewgame");
        e.send("position startpos moves 7g7f 3c3d 2g2f 8c8d");
        e.send(&format!("go nodes {budget}"));
        let lines = e.until("bestmove");
        let last_info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap_or_else(|| panic!("no info line: {lines:?}"));
        let tokens: Vec<&str> = last_info.split(' ').collect();
        let at = tokens.iter().position(|t| *t == "nodes").expect("nodes");
        let nodes: u64 = tokens[at + 1].parse().expect("a count");
        assert!(
            (budget..budget + 1_000).contains(&nodes),
            "go nodes {budget}: last info says {nodes}: {last_info}"
        );
    }
}
