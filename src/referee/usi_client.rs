//! The referee's side of USI: start-up (`usi`/`usiok`, the options checked against the
//! engine's declarations, `setoption`, and `isready`/`readyok` to hear the engine's
//! complaints about them), `isready`/`readyok` and `usinewgame` before each game, `position`
//! + `go` for each move, reading `info` scores and `bestmove`, `gameover` and `quit`.

use super::engine_options::{self, Dialect};
use super::player::{Answer, Player, PlayerResult, Reply, Score, Turn};
use super::process::{EngineError, EngineProcess};
use super::tc::{Millis, TimeControl};
use std::io::Write as _;
use std::time::{Duration, Instant};

/// How long `usi` → `usiok` may take.
const USIOK_TIMEOUT: Duration = Duration::from_secs(10);
/// How long `isready` → `readyok` may take (engines load big files here).
const READYOK_TIMEOUT: Duration = Duration::from_secs(60);

/// A USI engine seat.
pub struct UsiPlayer {
    name: String,
    command: String,
    options: Vec<(String, String)>,
    process: Option<EngineProcess>,
    /// What the last start-up found worth telling the user (options the engine does not
    /// list but took without a complaint).
    warnings: Vec<String>,
}

/// Waits for `readyok` and returns the complaints the engine printed before it
/// ([`engine_options::is_complaint`]).
fn await_readyok(p: &mut EngineProcess) -> Result<Vec<String>, EngineError> {
    let deadline = Instant::now() + READYOK_TIMEOUT;
    let mut complaints = Vec::new();
    loop {
        let line = p.recv_until(deadline, "readyok")?;
        if line.trim() == "readyok" {
            return Ok(complaints);
        }
        if engine_options::is_complaint(&line) {
            complaints.push(line.trim().to_string());
        }
    }
}

impl UsiPlayer {
    pub fn new(name: &str, command: &str, options: &[(String, String)]) -> UsiPlayer {
        UsiPlayer {
            name: name.to_string(),
            command: command.to_string(),
            options: options.to_vec(),
            process: None,
            warnings: Vec::new(),
        }
    }

    fn start(&mut self) -> Result<&mut EngineProcess, EngineError> {
        if self.process.is_none() {
            let mut p = EngineProcess::spawn(&self.command, &self.name)?;
            p.send("usi")?;
            let deadline = Instant::now() + USIOK_TIMEOUT;
            let mut variants = None;
            let mut offered = Vec::new();
            loop {
                let line = p.recv_until(deadline, "usiok")?;
                if line.trim() == "usiok" {
                    break;
                }
                offered.extend(engine_options::parse_usi_option(&line));
                if let Some(id) = line.trim().strip_prefix("id name ") {
                    log::info!("{}: engine calls itself {id:?}", self.name);
                }
                if let Some(values) = combo_values(&line, "USI_Variant") {
                    variants = Some(values);
                }
            }
            // A game other than shogi must be one the engine offers, or it would play
            // shogi moves into a Chu game.
            if let Some((_, wanted)) = self.options.iter().find(|(n, _)| n == "USI_Variant") {
                let offered = variants.unwrap_or_default();
                if !offered.iter().any(|v| v == wanted) {
                    p.kill();
                    return Err(EngineError::Protocol(format!(
                        "the engine does not offer USI_Variant {wanted} (it offers {})",
                        if offered.is_empty() {
                            "no USI_Variant option".to_string()
                        } else {
                            offered.join(", ")
                        }
                    )));
                }
            }
            let unlisted = engine_options::check_all(&offered, &self.options, Dialect::Usi)
                .map_err(EngineError::Protocol)?;
            for (name, value) in &self.options {
                p.send(&format!("setoption name {name} value {value}"))?;
            }
            // An engine answers a bad `setoption` (if at all) before the next `readyok`.
            p.send("isready")?;
            let complaints = await_readyok(&mut p)?;
            if !complaints.is_empty() {
                return Err(EngineError::Protocol(format!(
                    "the engine complained while its options ({}) were set: {}",
                    engine_options::requested_text(&self.options),
                    complaints.join(" | ")
                )));
            }
            self.warnings = engine_options::unlisted_warning(&unlisted, &offered)
                .into_iter()
                .collect();
            self.process = Some(p);
        }
        Ok(self.process.as_mut().expect("just started"))
    }
}

/// The `var` values of `option name NAME type combo … var A var B`, if the line declares
/// that option.
pub fn combo_values(line: &str, name: &str) -> Option<Vec<String>> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 3 || words[0] != "option" || words[1] != "name" {
        return None;
    }
    let alias = name == "USI_Variant" && words[2] == "UCI_Variant";
    if !(words[2].eq_ignore_ascii_case(name) || alias) {
        return None;
    }
    Some(
        words
            .windows(2)
            .filter(|w| w[0] == "var")
            .map(|w| w[1].to_string())
            .collect(),
    )
}

impl UsiPlayer {
    /// Starts the engine and checks its `usi` answer (the variant it must offer, the
    /// options against its declarations) and its silence while the options are set, then
    /// stops it: the referee's check before a match. Returns the warnings worth showing.
    pub fn probe(&mut self) -> Result<Vec<String>, EngineError> {
        let started = self.start().map(|_| ());
        self.quit();
        started.map(|()| std::mem::take(&mut self.warnings))
    }

    /// `isready` → `readyok`, then `usinewgame`, starting the process if needed. What the
    /// engine complains about meanwhile goes to stderr.
    fn prepare(&mut self) -> Result<(), EngineError> {
        let p = self.start()?;
        p.drain()?;
        p.send("isready")?;
        for complaint in await_readyok(p)? {
            let _ = writeln!(std::io::stderr(), "{}: {complaint}", p.tag());
        }
        p.send("usinewgame")
    }
}

/// Reads `score cp N` / `score mate N` from an `info` line.
pub fn parse_info_score(line: &str) -> Option<Score> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    while let Some(w) = words.next() {
        match w {
            "score" => {
                let kind = words.next()?;
                let value = words.next()?;
                return match kind {
                    "cp" => value.parse().ok().map(Score::Cp),
                    "mate" => match value {
                        "+" | "+0" => Some(Score::Mate(1)),
                        "-" | "-0" => Some(Score::Mate(-1)),
                        v => v.parse().ok().map(Score::Mate),
                    },
                    _ => None,
                };
            }
            // `pv` and `string` run to the end of the line.
            "pv" | "string" => return None,
            _ => {}
        }
    }
    None
}

impl Player for UsiPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _base: &str, _control: TimeControl) -> Result<(), EngineError> {
        // An engine that exited after the last game (some quit on `gameover`) is
        // restarted once, not blamed.
        let reused = self.process.is_some();
        match self.prepare() {
            Err(EngineError::Dead(why)) if reused => {
                log::info!(
                    "{}: restarting after it exited between games ({why})",
                    self.name
                );
                self.reset();
                self.prepare()
            }
            result => result,
        }
    }

    fn play(&mut self, turn: &Turn) -> Result<Answer, EngineError> {
        let p = self.start()?;
        p.drain()?;
        let position = if turn.moves.is_empty() {
            format!("position {}", turn.base)
        } else {
            format!("position {} moves {}", turn.base, turn.moves.join(" "))
        };
        p.send(&position)?;
        let go = turn.clocks.usi_go(turn.side);
        let started = Instant::now();
        p.send(&go)?;
        let mut score = None;
        loop {
            let line = p.recv_until(turn.deadline, "bestmove")?;
            if let Some(s) = parse_info_score(&line) {
                score = Some(s);
                continue;
            }
            let mut words = line.split_whitespace();
            if words.next() != Some("bestmove") {
                continue;
            }
            let elapsed = Millis::of(started.elapsed());
            let reply = match words.next() {
                Some("resign") => Reply::Resign,
                Some("win") => Reply::Win,
                Some(mv) => Reply::Move(mv.to_string()),
                None => return Err(EngineError::Protocol("`bestmove` without a move".into())),
            };
            return Ok(Answer {
                reply,
                elapsed,
                score,
            });
        }
    }

    fn game_over(&mut self, result: PlayerResult) {
        if let Some(p) = self.process.as_mut() {
            let word = match result {
                PlayerResult::Win => "win",
                PlayerResult::Loss => "lose",
                PlayerResult::Draw => "draw",
            };
            let _ = p.send(&format!("gameover {word}"));
        }
    }

    fn process_slot(&mut self) -> Option<&mut Option<EngineProcess>> {
        Some(&mut self.process)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combo_option_values() {
        let line = "option name USI_Variant type combo default shogi var shogi var chushogi";
        assert_eq!(
            combo_values(line, "USI_Variant"),
            Some(vec!["shogi".to_string(), "chushogi".to_string()])
        );
        assert_eq!(combo_values(line, "ChuRules"), None);
        assert_eq!(
            combo_values(
                "option name UCI_Variant type combo var chushogi",
                "USI_Variant"
            ),
            Some(vec!["chushogi".to_string()])
        );
        assert_eq!(combo_values("id name x", "USI_Variant"), None);
    }

    #[test]
    fn info_scores() {
        assert_eq!(
            parse_info_score("info depth 3 score cp -42 pv 7g7f"),
            Some(Score::Cp(-42))
        );
        assert_eq!(
            parse_info_score("info score mate 5 lowerbound"),
            Some(Score::Mate(5))
        );
        assert_eq!(parse_info_score("info score mate -"), Some(Score::Mate(-1)));
        assert_eq!(parse_info_score("info string score cp 5"), None);
        assert_eq!(parse_info_score("info depth 3 pv 7g7f"), None);
        assert_eq!(parse_info_score("bestmove 7g7f"), None);
    }
}
