//! The referee's side of CECP (the XBoard/WinBoard protocol), for GNU Shogi (shogi) and
//! HaChu (Chu Shogi): start-up and feature negotiation, `new`/`variant`/`force`, sending
//! moves (`usermove` or bare), `level`/`st`, `time`/`otim`, `go`, reading `move …` (or the
//! older `N. ... move` form), `resign` and result lines, and `quit`. An engine is sent its
//! own time control (`level`/`st`). On a clock, `time` is its own clock and `otim` the
//! opponent's under the opponent's own control (0 when the opponent has none: a node limit
//! or a move time); under a move time both are the move's time.
//!
//! Two dialects are spoken, because the engines differ (plus HaChu's particulars):
//! * **protover 2** engines answer `protover 2` with `feature … done=1` lines. They get
//!   `usermove` if they asked for it, `post`, `easy`, `otim`, `level 0 BASE INC`, and
//!   `ping 1` after each game's set-up when they announced `ping=1` (waited for off the
//!   clock, as USI's `isready`); a move
//!   time is `st N` when it is whole seconds (what `st` can say) and otherwise a session of
//!   one move, `level 1 M:SS 0`, on the clock `time` gives before each move.
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
//! * **HaChu** (Chu Shogi, `variant chu`; Debian's 0.21, checked by hand) speaks protover 2
//!   with `usermove=1` and `memory=1`. It crashes on its first search unless it was sent
//!   `memory N` first, so the referee always sends `memory` (64 MB, or the seat's `memory`
//!   option) to an engine that announces `memory=1`. Its first mover is sente (XBoard's
//!   "white"); `1-0` means sente won. `level 0 M:S INC` reads INC as whole seconds (0.3
//!   becomes 0), and `st N` plays on the clock of `time`, which is therefore sent with `st`
//!   as well.
//!
//! Moves: GNU Shogi writes shogi coordinates exactly like USI (`7g7f`, `8h2b+`, `P*5e`).
//! XBoard coordinates (files a–i or a–l from sente's left, ranks 1–9 or 1–12 from sente's
//! side, drops `P@e5`) are read too, and are what HaChu speaks ([`Notation::XBoard`]). A
//! Chu double move is two legs joined by a comma (`g4h5,h5i6` = USI `6i5h4g`, igui
//! `g4h5,h5g4` = `6i5h6i`); HaChu prints its own as two lines, `move g4h5,` then
//! `move h5i6`, which are joined here. Jitto (a Lion's pass) is XBoard's null move `@@@@`
//! both ways.

use super::engine_options::{self, Dialect, OfferedOption};
use super::player::{Answer, Player, PlayerResult, Reply, Score, Turn};
use super::process::{EngineError, EngineProcess};
use super::tc::{Millis, TimeControl};
use crate::rules::geometry::Color;
use crate::rules::variants::{GameChoice, Variant};
use crate::rules::xboard_moves::{usi_to_xboard, xboard_to_usi, BoardSize};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How long to wait for the first `feature` line before assuming protover 1.
pub const FEATURE_TIMEOUT: Duration = Duration::from_secs(2);
/// How long an engine that sent `done=0` may take to send `done=1`.
const FEATURE_DONE_TIMEOUT: Duration = Duration::from_secs(60);
/// How long an engine that announced `ping=1` may take to answer the `ping` after a game's
/// set-up (as USI's `isready`, the time is not on its clock).
const SETUP_PING_TIMEOUT: Duration = Duration::from_secs(60);
/// The hash size sent to engines that announce `memory=1`, unless a `memory` option says
/// otherwise.
const DEFAULT_MEMORY_MB: u32 = 64;
/// How long an engine with `ping=1` may take to answer the `ping` after its options.
const PONG_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the referee listens for complaints about the options of an engine without
/// `ping` (nothing tells when it has read them).
const COMPLAINT_WINDOW: Duration = Duration::from_millis(500);

/// The coordinates an engine uses for moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Shogi coordinates, identical to USI (GNU Shogi).
    Shogi,
    /// XBoard coordinates: `c3c4`, `P@e5`, legs joined by `,` (HaChu, XBoard).
    XBoard,
}

/// Converts a USI move to an engine's notation (see [`usi_to_xboard`] for `pass`).
pub fn usi_to_engine(usi: &str, notation: Notation, board: BoardSize, pass: bool) -> String {
    match notation {
        Notation::Shogi => usi.to_string(),
        Notation::XBoard => usi_to_xboard(usi, board, pass),
    }
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
    /// A move as the engine wrote it (a first leg ends with `,` when the rest follows on
    /// the next `move` line).
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
        ["move", mv, ..] => return EngineLine::Move(mv.to_string()),
        ["resign", ..] => return EngineLine::Resign,
        [n, "...", mv, ..] if n.ends_with('.') && n[..n.len() - 1].parse::<u32>().is_ok() => {
            return EngineLine::Move(mv.to_string())
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

/// Whether a result line gives the game to the engine's opponent (then it is a
/// resignation): in XBoard's terms the first mover, sente, is "white", so `1-0` is a sente
/// win.
fn claims_own_loss(claim: &str, engine_side: Color) -> bool {
    let first = claim.split_whitespace().next().unwrap_or("");
    matches!(
        (first, engine_side),
        ("0-1", Color::Sente) | ("1-0", Color::Gote)
    )
}

/// A CECP engine seat.
pub struct CecpPlayer {
    name: String,
    command: String,
    options: Vec<(String, String)>,
    process: Option<EngineProcess>,
    features: HashMap<String, String>,
    protover2: bool,
    variant: GameChoice,
    notation: Notation,
    board: BoardSize,
    /// How many moves of the current game the engine has been told.
    synced: usize,
    /// Whether the running process has already played a game (for `reuse=0`).
    played: bool,
    /// The options the engine declared (`feature option="…"`).
    offered: Vec<OfferedOption>,
    /// What the last start-up found worth telling the user.
    warnings: Vec<String>,
    /// Whether the user was told that a protover 1 engine cannot be given a move time
    /// under a second.
    warned_whole_seconds: bool,
}

impl CecpPlayer {
    /// A seat for a `variant` game. Standard shogi is spoken in shogi coordinates (GNU
    /// Shogi), Chu Shogi in XBoard coordinates (HaChu). The option `memory=MB` is sent as
    /// the `memory` command; the others as `option NAME=VALUE`.
    pub fn new(
        name: &str,
        command: &str,
        options: &[(String, String)],
        variant: GameChoice,
    ) -> CecpPlayer {
        CecpPlayer {
            name: name.to_string(),
            command: command.to_string(),
            options: options.to_vec(),
            process: None,
            features: HashMap::new(),
            protover2: false,
            variant,
            notation: if variant.variant == Variant::Shogi {
                Notation::Shogi
            } else {
                Notation::XBoard
            },
            board: variant.spec().board(),
            synced: 0,
            played: false,
            offered: Vec::new(),
            warnings: Vec::new(),
            warned_whole_seconds: false,
        }
    }

    /// Starts the engine, negotiates its features and sets its options (checked against its
    /// `feature option=` declarations, then against its complaints), then stops it: the
    /// referee's check before a match. Returns the warnings worth showing.
    pub fn probe(&mut self) -> Result<Vec<String>, EngineError> {
        let started = self.start();
        self.quit();
        started.map(|()| std::mem::take(&mut self.warnings))
    }

    /// The complaints the engine prints after its options: up to `pong 1` when it took
    /// `ping=1`, else within [`COMPLAINT_WINDOW`].
    fn option_complaints(p: &mut EngineProcess, ping: bool) -> Result<Vec<String>, EngineError> {
        let deadline = if ping {
            p.send("ping 1")?;
            Instant::now() + PONG_TIMEOUT
        } else {
            Instant::now() + COMPLAINT_WINDOW
        };
        let mut complaints = Vec::new();
        loop {
            let line = match p.recv_until(deadline, "pong 1") {
                Ok(line) => line,
                Err(EngineError::Timeout(_)) if !ping => return Ok(complaints),
                Err(e) => return Err(e),
            };
            if ping && line.trim() == "pong 1" {
                return Ok(complaints);
            }
            if engine_options::is_complaint(&line) {
                complaints.push(line.trim().to_string());
            }
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
        self.offered.clear();
        self.warnings.clear();
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
                if key == "option" {
                    self.offered
                        .extend(engine_options::parse_cecp_option(&value));
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
            let (memory, options): (Vec<_>, Vec<_>) = self
                .options
                .iter()
                .cloned()
                .partition(|(name, _)| name == "memory");
            let unlisted = engine_options::check_all(&self.offered, &options, Dialect::Cecp)
                .map_err(EngineError::Protocol)?;
            for (name, value) in &options {
                p.send(&format!("option {name}={value}"))?;
            }
            if self.features.get("memory").map(String::as_str) == Some("1") {
                let mb = memory
                    .last()
                    .map_or_else(|| DEFAULT_MEMORY_MB.to_string(), |(_, mb)| mb.clone());
                p.send(&format!("memory {mb}"))?;
            }
            if !self.options.is_empty() {
                let ping = self.features.get("ping").map(String::as_str) == Some("1");
                let complaints = Self::option_complaints(&mut p, ping)?;
                if !complaints.is_empty() {
                    return Err(EngineError::Protocol(format!(
                        "the engine complained while its options were set: {}",
                        complaints.join(" | ")
                    )));
                }
            }
            self.warnings = engine_options::unlisted_warning(&unlisted, &self.offered)
                .into_iter()
                .collect();
        } else if !self.options.is_empty() {
            return Err(EngineError::Protocol(format!(
                "the engine sent no `feature` line within {} s (protover 1, as GNU Shogi), \
                 so it takes no options; {} cannot be set",
                FEATURE_TIMEOUT.as_secs(),
                engine_options::requested_text(&self.options)
            )));
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

    fn level_command(&mut self, tc: TimeControl) -> Result<String, EngineError> {
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
            // `st` takes whole seconds (HaChu reads `st 0.5` as `st 0`): a move time that is
            // not one is a session of one move on the clock `time` reports before each move.
            (TimeControl::MoveTime(ms), true) if ms.0 % 1000 == 0 => format!("st {}", ms.0 / 1000),
            (TimeControl::MoveTime(ms), true) => {
                format!("level 1 {} 0", min_sec(Millis(ms.0.div_ceil(1000) * 1000)))
            }
            // Whole seconds, rounded down, at least one: a protover 1 engine (GNU Shogi) has
            // no other per-move limit.
            (TimeControl::MoveTime(ms), false) => {
                if ms.0 < 1000 && !self.warned_whole_seconds {
                    self.warned_whole_seconds = true;
                    log::warn!(
                        "{}: a protover 1 engine takes whole seconds per move; it is given 1 s \
                         for a move time of {} ms and may lose on time",
                        self.name,
                        ms.0
                    );
                }
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

    fn new_game(&mut self, base: &str, control: TimeControl) -> Result<(), EngineError> {
        let Some(variant_name) = self.variant.spec().cecp_name else {
            return Err(EngineError::Protocol(format!(
                "no CECP engine plays {}",
                self.variant
            )));
        };
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
        let level = self.level_command(control)?;
        let variants = self.features.get("variants").cloned();
        let protover2 = self.protover2;
        let speaks_ping = self.features.get("ping").map(String::as_str) == Some("1");
        let p = self.process()?;
        p.drain()?;
        p.send("new")?;
        match variants {
            Some(variants) => {
                if !variants.split(',').any(|v| v.trim() == variant_name) {
                    return Err(EngineError::Protocol(format!(
                        "the engine does not offer the variant {variant_name} (variants={variants:?})"
                    )));
                }
                p.send(&format!("variant {variant_name}"))?;
            }
            // GNU Shogi (protover 1) announces nothing and plays only shogi.
            None if variant_name == "shogi" => {}
            None => {
                return Err(EngineError::Protocol(format!(
                    "the engine announces no variants, so it cannot be asked for {variant_name}"
                )))
            }
        }
        p.send("force")?;
        if protover2 {
            p.send("post")?;
            p.send("easy")?;
        }
        p.send(&level)?;
        // Off the clock, as USI's `isready`: an engine that speaks `ping` answers once it has
        // done what the set-up asked (shishi --xboard fills its hash table on `memory` and
        // `new`), so that this is not charged to its first move.
        if speaks_ping {
            p.send("ping 1")?;
            let deadline = Instant::now() + SETUP_PING_TIMEOUT;
            while p.recv_until(deadline, "pong 1")?.trim() != "pong 1" {}
        }
        self.synced = 0;
        Ok(())
    }

    fn play(&mut self, turn: &Turn) -> Result<Answer, EngineError> {
        let usermove = self.features.get("usermove").map(String::as_str) == Some("1");
        let protover2 = self.protover2;
        let (notation, board) = (self.notation, self.board);
        let synced = self.synced.min(turn.moves.len());
        let p = self.process()?;
        p.drain()?;
        p.send("force")?;
        for (i, mv) in turn.moves.iter().enumerate().skip(synced) {
            let pass = turn.passes.get(i).copied().unwrap_or(false);
            let text = usi_to_engine(mv, notation, board, pass);
            p.send(&if usermove {
                format!("usermove {text}")
            } else {
                text
            })?;
        }
        let clocks = turn.clocks;
        let own_control = clocks.control(turn.side);
        // Each side's clock as its own control has it (CECP has no byoyomi: it is added to
        // the main time); 0 for an opponent without a clock.
        let usable = |c: Color| match clocks.control(c) {
            TimeControl::Byoyomi { byoyomi, .. } => clocks.remaining[c.index()].0 + byoyomi.0,
            _ => clocks.remaining[c.index()].0,
        };
        let timed = matches!(
            own_control,
            TimeControl::Fischer { .. } | TimeControl::Byoyomi { .. }
        );
        let (own, other) = match own_control {
            // `st` engines such as HaChu budget from `time`: give them the move's time.
            TimeControl::MoveTime(ms) => (ms.0 / 10, ms.0 / 10),
            _ => (usable(turn.side) / 10, usable(turn.side.flip()) / 10),
        };
        if protover2 {
            if timed || matches!(own_control, TimeControl::MoveTime(_)) {
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
        // The legs of a multi-leg move printed one `move` line each (`move g4h5,`).
        let mut legs = String::new();
        let reply = loop {
            let line = p.recv_until(turn.deadline, "a move")?;
            match classify(&line) {
                EngineLine::Move(mv) if mv.ends_with(',') => legs.push_str(&mv),
                EngineLine::Move(mv) => {
                    legs.push_str(&mv);
                    break Reply::Move(xboard_to_usi(&legs, board));
                }
                EngineLine::Resign => break Reply::Resign,
                EngineLine::Claim(c) if claims_own_loss(&c, turn.side) => break Reply::Resign,
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

    fn process_slot(&mut self) -> Option<&mut Option<EngineProcess>> {
        Some(&mut self.process)
    }

    fn reset(&mut self) {
        // Dropping the process kills it; a fresh one has played no game.
        self.process = None;
        self.played = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shogi_notation_is_usi_and_xboard_notation_converts() {
        let b = BoardSize::SHOGI;
        assert_eq!(usi_to_engine("7g7f", Notation::Shogi, b, false), "7g7f");
        assert_eq!(usi_to_engine("7g7f", Notation::XBoard, b, false), "c3c4");
        assert_eq!(
            usi_to_engine("6f5e6f", Notation::XBoard, BoardSize::CHU, true),
            "@@@@"
        );
    }

    #[test]
    fn a_claim_of_ones_own_loss_is_a_resignation() {
        assert!(claims_own_loss("0-1 {resign}", Color::Sente));
        assert!(claims_own_loss("1-0 {king capture}", Color::Gote));
        assert!(!claims_own_loss("1-0 {king capture}", Color::Sente));
        assert!(!claims_own_loss("1/2-1/2 {repetition}", Color::Gote));
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
        // Moves come back as written; `play` converts them.
        assert_eq!(classify("move b2h8+"), EngineLine::Move("b2h8+".into()));
        assert_eq!(classify("move g4h5,"), EngineLine::Move("g4h5,".into()));
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

    /// `st` takes whole seconds; any other move time is a one-move session on the clock
    /// `time` reports (issue 34: `movetime=500` was sent as `st 1`, every game forfeited).
    #[test]
    fn move_times_are_sent_as_limits_the_engine_can_meet() {
        let mut player = CecpPlayer::new("e", "e", &[], GameChoice::from(Variant::Shogi));
        let level = |player: &mut CecpPlayer, ms| {
            player
                .level_command(TimeControl::MoveTime(Millis(ms)))
                .unwrap()
        };
        player.protover2 = true;
        for (ms, command) in [
            (1000, "st 1"),
            (3000, "st 3"),
            (500, "level 1 0:01 0"),
            (1, "level 1 0:01 0"),
            (2500, "level 1 0:03 0"),
        ] {
            assert_eq!(level(&mut player, ms), command, "{ms} ms");
        }
        player.protover2 = false;
        for (ms, command) in [
            (500, "level 0 0:01"),
            (1500, "level 0 0:01"),
            (61_000, "level 0 1:01"),
        ] {
            assert_eq!(level(&mut player, ms), command, "{ms} ms, protocol 1");
        }
        assert!(player.warned_whole_seconds);
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
