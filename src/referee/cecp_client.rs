//! The referee's side of CECP (the XBoard/WinBoard protocol), for GNU Shogi now and HaChu
//! (Chu Shogi) later: start-up and feature negotiation, `new`/`variant`/`force`, sending
//! moves (`usermove` or bare), `level`/`st`, `time`/`otim`, `go`, reading `move …` (or the
//! older `N. ... move` form), `resign` and result lines, and `quit`.
//!
//! Two dialects are spoken, because the engines differ:
//! * **protover 2** engines answer `protover 2` with `feature … done=1` lines. They get
//!   `usermove` if they asked for it, `post`, `easy`, `otim`, `level 0 BASE INC`.
//! * **protover 1** engines (no `feature` reply within [`FEATURE_TIMEOUT`]) such as
//!   GNU Shogi 1.4.2 (Debian's `gnushogi`), whose xshogi mode was checked by hand: it
//!   ignores `xboard`/`protover` with "Illegal move (no match) …", takes bare moves in
//!   force mode, needs `black`/`white` (the side to move) before `go` (after which `time`
//!   and `otime` address the opponent's and the engine's clock), spells the
//!   opponent's clock `otime`, parses `level MOVES MIN:SEC` (a trailing increment is
//!   ignored; `level 0 M:S` means a fixed time per move), and prints its own move as
//!   `N. ... 7g7f REMAINING_MS` (our moves are echoed as `N. 7g7f TIME`, without `...`).
//!   Its `post` and `easy` commands toggle, so they are not sent.
//!
//! Moves: GNU Shogi writes shogi coordinates exactly like USI (`7g7f`, `8h2b+`, `P*5e`).
//! XBoard's own shogi coordinates (files a–i from sente's left, ranks 1–9 from sente's side,
//! drops `P@e5`) are read too, and are what a HaChu seat will send ([`Notation::XBoard`]);
//! that is the seam for Chu Shogi, where the board is 12×12 and moves have up to three legs.

use super::player::{Answer, Player, PlayerResult, Reply, Score, Turn};
use super::process::{EngineError, EngineProcess};
use super::tc::{Clocks, Millis, TimeControl};
use crate::rules::geometry::Color;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How long to wait for the first `feature` line before assuming protover 1.
pub const FEATURE_TIMEOUT: Duration = Duration::from_secs(2);
/// How long an engine that sent `done=0` may take to send `done=1`.
const FEATURE_DONE_TIMEOUT: Duration = Duration::from_secs(60);
const BOARD_FILES: u8 = 9;
const BOARD_RANKS: u8 = 9;

/// The coordinates an engine uses for moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Shogi coordinates, identical to USI (GNU Shogi).
    Shogi,
    /// XBoard coordinates: `c3c4`, `P@e5` (HaChu, XBoard).
    XBoard,
}

/// Converts a USI move to an engine's notation.
pub fn usi_to_engine(usi: &str, notation: Notation) -> String {
    match notation {
        Notation::Shogi => usi.to_string(),
        Notation::XBoard => {
            let conv = |sq: &str| -> Option<String> {
                let split = sq.find(|c: char| !c.is_ascii_digit())?;
                let file: u8 = sq[..split].parse().ok()?;
                let rank = sq.as_bytes().get(split)?.checked_sub(b'a')?;
                let letter = (b'a' + BOARD_FILES.checked_sub(file)?) as char;
                Some(format!("{letter}{}", BOARD_RANKS.checked_sub(rank)?))
            };
            if let Some((piece, to)) = usi.split_once('*') {
                return format!("{piece}@{}", conv(to).unwrap_or_else(|| to.to_string()));
            }
            let (body, suffix) = match usi.strip_suffix('+') {
                Some(b) => (b, "+"),
                None => (usi, ""),
            };
            // Squares are digit(s) then one letter.
            let mid = body
                .char_indices()
                .find(|(_, c)| c.is_ascii_alphabetic())
                .map(|(i, _)| i + 1)
                .unwrap_or(body.len());
            match (conv(&body[..mid]), conv(&body[mid..])) {
                (Some(a), Some(b)) => format!("{a}{b}{suffix}"),
                _ => usi.to_string(),
            }
        }
    }
}

/// Converts an engine's move to USI, accepting either notation (they cannot be confused:
/// shogi squares start with a digit, XBoard squares with a letter). Unreadable text is
/// returned unchanged so that the referee reports it as the engine sent it.
pub fn engine_to_usi(text: &str) -> String {
    let text = text.trim();
    let conv = |sq: &str| -> Option<String> {
        let mut chars = sq.chars();
        let letter = chars.next().filter(|c| c.is_ascii_lowercase())?;
        let rank: u8 = chars.as_str().parse().ok()?;
        let file = BOARD_FILES.checked_sub(letter as u8 - b'a')?;
        let rank_letter = (b'a' + BOARD_RANKS.checked_sub(rank)?) as char;
        (file >= 1 && rank >= 1).then(|| format!("{file}{rank_letter}"))
    };
    if let Some((piece, to)) = text.split_once('@') {
        return match conv(to) {
            Some(to) => format!("{}*{to}", piece.to_ascii_uppercase()),
            None => text.to_string(),
        };
    }
    if text.starts_with(|c: char| c.is_ascii_lowercase()) {
        let (body, suffix) = match text.strip_suffix('+') {
            Some(b) => (b, "+"),
            None => (text.strip_suffix('=').unwrap_or(text), ""),
        };
        let second = body
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_ascii_lowercase())
            .map(|(i, _)| i);
        if let Some(i) = second {
            if let (Some(a), Some(b)) = (conv(&body[..i]), conv(&body[i..])) {
                return format!("{a}{b}{suffix}");
            }
        }
    }
    text.to_string()
}

/// Parses `feature a=1 b="x y"` into pairs.
pub fn parse_features(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = line
        .trim()
        .strip_prefix("feature")
        .unwrap_or("")
        .trim_start();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, tail) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (quoted[..end].to_string(), &quoted[end + 1..]),
                None => (quoted.to_string(), ""),
            }
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (after[..end].to_string(), &after[end..])
        };
        out.push((key, value));
        rest = tail.trim_start();
    }
    out
}

/// What an engine line means while the referee waits for a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    Move(String),
    Resign,
    Claim(String),
    Refused(String),
    Thinking(Score),
    Other,
}

/// Classifies one line of engine output.
pub fn classify(line: &str) -> EngineLine {
    let t = line.trim();
    let words: Vec<&str> = t.split_whitespace().collect();
    match words.as_slice() {
        ["move", mv, ..] => return EngineLine::Move(engine_to_usi(mv)),
        ["resign", ..] => return EngineLine::Resign,
        [n, "...", mv, ..] if n.ends_with('.') && n[..n.len() - 1].parse::<u32>().is_ok() => {
            return EngineLine::Move(engine_to_usi(mv))
        }
        [first, ..] if ["1-0", "0-1", "1/2-1/2"].contains(first) => {
            return EngineLine::Claim(t.to_string())
        }
        _ => {}
    }
    if t.ends_with("mates!") || t.starts_with("Drawn game") {
        return EngineLine::Claim(t.to_string());
    }
    if t.starts_with("Illegal move") || t.starts_with("Error") {
        return EngineLine::Refused(t.to_string());
    }
    // Thinking output: PLY SCORE TIME NODES PV…
    if words.len() >= 4 {
        let ply = words[0].trim_end_matches(['.', '&']);
        if ply.parse::<u32>().is_ok() && words[2].parse::<i64>().is_ok() {
            if let Ok(score) = words[1].parse::<i64>() {
                let score = if score.abs() >= 100_000 {
                    Score::Mate(if score > 0 { 1 } else { -1 })
                } else {
                    Score::Cp(score as i32)
                };
                return EngineLine::Thinking(score);
            }
        }
    }
    EngineLine::Other
}

/// A CECP engine seat.
pub struct CecpPlayer {
    name: String,
    command: String,
    options: Vec<(String, String)>,
    process: Option<EngineProcess>,
    features: HashMap<String, String>,
    protover2: bool,
    notation: Notation,
    /// How many moves of the current game the engine has been told.
    synced: usize,
    /// Whether the running process has already played a game (for `reuse=0`).
    played: bool,
}

impl CecpPlayer {
    pub fn new(name: &str, command: &str, options: &[(String, String)]) -> CecpPlayer {
        CecpPlayer {
            name: name.to_string(),
            command: command.to_string(),
            options: options.to_vec(),
            process: None,
            features: HashMap::new(),
            protover2: false,
            notation: Notation::Shogi,
            synced: 0,
            played: false,
        }
    }

    fn start(&mut self) -> Result<(), EngineError> {
        if self.process.is_some() {
            return Ok(());
        }
        let mut p = EngineProcess::spawn(&self.command, &self.name)?;
        p.send("xboard")?;
        p.send("protover 2")?;
        self.features.clear();
        self.protover2 = false;
        let mut deadline = Instant::now() + FEATURE_TIMEOUT;
        loop {
            let line = match p.recv_until(deadline, "feature done=1") {
                Ok(line) => line,
                Err(EngineError::Timeout(_)) => break,
                Err(e) => return Err(e),
            };
            if !line.trim_start().starts_with("feature") {
                continue;
            }
            self.protover2 = true;
            let mut done = None;
            for (key, value) in parse_features(&line) {
                // SAN is not spoken: the engine must fall back to coordinates.
                let verdict = if key == "san" && value == "1" {
                    "rejected"
                } else {
                    "accepted"
                };
                p.send(&format!("{verdict} {key}"))?;
                if key == "done" {
                    done = Some(value.clone());
                }
                self.features.insert(key, value);
            }
            match done.as_deref() {
                Some("1") => break,
                Some("0") => deadline = Instant::now() + FEATURE_DONE_TIMEOUT,
                _ => {}
            }
        }
        log::info!(
            "{}: CECP protover {}, features {:?}",
            self.name,
            if self.protover2 { 2 } else { 1 },
            self.features
        );
        if self.protover2 {
            for (name, value) in &self.options {
                p.send(&format!("option {name}={value}"))?;
            }
        } else if !self.options.is_empty() {
            log::warn!(
                "{}: a protover 1 engine takes no options; ignoring {:?}",
                self.name,
                self.options
            );
        }
        p.drain()?;
        self.process = Some(p);
        Ok(())
    }

    fn process(&mut self) -> Result<&mut EngineProcess, EngineError> {
        self.process
            .as_mut()
            .ok_or_else(|| EngineError::Dead("not running".into()))
    }

    fn level_command(&self, tc: TimeControl) -> Result<String, EngineError> {
        let min_sec = |ms: Millis| {
            let s = ms.0 / 1000;
            format!("{}:{:02}", s / 60, s % 60)
        };
        let secs = |ms: Millis| {
            let text = format!("{:.3}", ms.0 as f64 / 1000.0);
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        Ok(match (tc, self.protover2) {
            (TimeControl::Nodes(_), _) => {
                return Err(EngineError::Protocol(
                    "node limits are not supported for CECP engines".into(),
                ))
            }
            (TimeControl::MoveTime(ms), true) => format!("st {}", ms.0.div_ceil(1000).max(1)),
            (TimeControl::MoveTime(ms), false) => {
                format!("level 0 {}", min_sec(Millis(ms.0.max(1000))))
            }
            (TimeControl::Fischer { base, inc }, true) => {
                format!("level 0 {} {}", min_sec(base), secs(inc))
            }
            (TimeControl::Byoyomi { base, .. }, true) => format!("level 0 {} 0", min_sec(base)),
            (TimeControl::Fischer { base, .. } | TimeControl::Byoyomi { base, .. }, false) => {
                format!("level 50 {}", min_sec(base))
            }
        })
    }
}

impl Player for CecpPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, base: &str, clocks: &Clocks) -> Result<(), EngineError> {
        if base != "startpos" {
            return Err(EngineError::Protocol(
                "CECP engines can only start from the start position".into(),
            ));
        }
        // An engine that died between games is restarted, not blamed; one that asked for
        // `reuse=0` gets a fresh process for every game.
        let no_reuse = self.features.get("reuse").map(String::as_str) == Some("0");
        if self.process.as_mut().is_some_and(|p| p.drain().is_err()) || (no_reuse && self.played) {
            self.reset();
        }
        self.start()?;
        self.played = true;
        let level = self.level_command(clocks.tc)?;
        let variants = self.features.get("variants").cloned();
        let protover2 = self.protover2;
        let p = self.process()?;
        p.drain()?;
        p.send("new")?;
        if let Some(variants) = variants {
            if !variants.split(',').any(|v| v.trim() == "shogi") {
                return Err(EngineError::Protocol(format!(
                    "the engine does not offer the variant shogi (variants={variants:?})"
                )));
            }
            p.send("variant shogi")?;
        }
        p.send("force")?;
        if protover2 {
            p.send("post")?;
            p.send("easy")?;
        }
        p.send(&level)?;
        self.synced = 0;
        Ok(())
    }

    fn play(&mut self, turn: &Turn) -> Result<Answer, EngineError> {
        let usermove = self.features.get("usermove").map(String::as_str) == Some("1");
        let protover2 = self.protover2;
        let notation = self.notation;
        let synced = self.synced.min(turn.moves.len());
        let p = self.process()?;
        p.drain()?;
        p.send("force")?;
        for mv in &turn.moves[synced..] {
            let text = usi_to_engine(mv, notation);
            p.send(&if usermove {
                format!("usermove {text}")
            } else {
                text
            })?;
        }
        let clocks = turn.clocks;
        let usable = |c: Color| match clocks.tc {
            TimeControl::Byoyomi { byoyomi, .. } => clocks.remaining[c.index()].0 + byoyomi.0,
            _ => clocks.remaining[c.index()].0,
        };
        let timed = matches!(
            clocks.tc,
            TimeControl::Fischer { .. } | TimeControl::Byoyomi { .. }
        );
        let (own, other) = (usable(turn.side) / 10, usable(turn.side.flip()) / 10);
        if protover2 {
            if timed {
                p.send(&format!("time {own}"))?;
                p.send(&format!("otim {other}"))?;
            }
        } else {
            // Protover 1: `black`/`white` names the side to move and gives the engine the
            // other side; `go` then switches it to the side to move. `time` set the clock
            // of the engine's side at the moment it is sent, so after `black`/`white` it
            // is the opponent's clock (checked with GNU Shogi 1.4.2).
            p.send(match turn.side {
                Color::Sente => "black",
                Color::Gote => "white",
            })?;
            if timed {
                p.send(&format!("time {other}"))?;
                p.send(&format!("otime {own}"))?;
            }
        }
        let started = Instant::now();
        p.send("go")?;
        let mut score = None;
        let reply = loop {
            let line = p.recv_until(turn.deadline, "a move")?;
            match classify(&line) {
                EngineLine::Move(mv) => break Reply::Move(mv),
                EngineLine::Resign => break Reply::Resign,
                EngineLine::Claim(c) => break Reply::Claim(c),
                EngineLine::Refused(why) => {
                    return Err(EngineError::Protocol(format!(
                        "the engine refused a legal move: {why}"
                    )))
                }
                EngineLine::Thinking(s) => score = Some(s),
                EngineLine::Other => {}
            }
        };
        let elapsed = Millis::of(started.elapsed());
        // The engine has now seen every move, and its own one if it moved.
        self.synced = turn.moves.len() + usize::from(matches!(reply, Reply::Move(_)));
        Ok(Answer {
            reply,
            elapsed,
            score,
        })
    }

    fn game_over(&mut self, result: PlayerResult) {
        let protover2 = self.protover2;
        if let Ok(p) = self.process() {
            let _ = p.send("force");
            if protover2 {
                let text = match result {
                    PlayerResult::Win | PlayerResult::Loss => "result * {game over}",
                    PlayerResult::Draw => "result 1/2-1/2 {draw}",
                };
                let _ = p.send(text);
            }
        }
    }

    fn reset(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        self.played = false;
    }

    fn quit(&mut self) {
        if let Some(p) = self.process.take() {
            p.shutdown("quit", Duration::from_millis(1000));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xboard_coordinates_round_trip() {
        assert_eq!(usi_to_engine("7g7f", Notation::XBoard), "c3c4");
        assert_eq!(usi_to_engine("8h2b+", Notation::XBoard), "b2h8+");
        assert_eq!(usi_to_engine("P*5e", Notation::XBoard), "P@e5");
        assert_eq!(usi_to_engine("7g7f", Notation::Shogi), "7g7f");
        for usi in ["7g7f", "8h2b+", "P*5e", "1a1b", "9i9h"] {
            assert_eq!(engine_to_usi(&usi_to_engine(usi, Notation::XBoard)), usi);
        }
        assert_eq!(engine_to_usi("7g7f"), "7g7f");
        assert_eq!(engine_to_usi("garbage"), "garbage");
        // Off-board text passes through unchanged rather than panicking.
        assert_eq!(usi_to_engine("7z7f", Notation::XBoard), "7z7f");
        assert_eq!(engine_to_usi("z9a1"), "z9a1");
        assert_eq!(engine_to_usi("a0a1"), "a0a1");
    }

    #[test]
    fn gnushogi_lines() {
        assert_eq!(
            classify("1. ... 7g7f 9340"),
            EngineLine::Move("7g7f".into())
        );
        assert_eq!(
            classify("12. ... P*5e 100"),
            EngineLine::Move("P*5e".into())
        );
        // Our own move echoed back is not the engine's move.
        assert_eq!(classify("1. 7g7f 300000"), EngineLine::Other);
        assert_eq!(classify("move 8h2b+"), EngineLine::Move("8h2b+".into()));
        assert_eq!(classify("move b2h8+"), EngineLine::Move("8h2b+".into()));
        assert!(matches!(classify("White mates!"), EngineLine::Claim(_)));
        assert!(matches!(
            classify("0-1 {Black resigns}"),
            EngineLine::Claim(_)
        ));
        assert!(matches!(
            classify("Illegal move (no match) xboard"),
            EngineLine::Refused(_)
        ));
        assert_eq!(
            classify(" 5 -31 120 45000 7g7f 3c3d"),
            EngineLine::Thinking(Score::Cp(-31))
        );
        assert_eq!(classify("resign"), EngineLine::Resign);
        assert_eq!(classify("Clocks: 0 0"), EngineLine::Other);
    }

    #[test]
    fn features_with_quotes() {
        let f = parse_features(r#"feature myname="GNU Shogi 1.5" usermove=1 done=0"#);
        assert_eq!(
            f,
            vec![
                ("myname".to_string(), "GNU Shogi 1.5".to_string()),
                ("usermove".to_string(), "1".to_string()),
                ("done".to_string(), "0".to_string()),
            ]
        );
    }
}
