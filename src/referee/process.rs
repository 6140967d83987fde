//! An engine child process seen as lines: spawning a command line, writing commands,
//! reading its stdout through a channel with deadlines, noticing that it died, and
//! killing it. Protocol knowledge lives in `usi_client.rs` and `cecp_client.rs`.

use crossbeam_channel::{Receiver, RecvTimeoutError, TryRecvError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// What went wrong talking to an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The command could not be started at all (missing binary, bad path).
    Spawn(String),
    /// The process exited or closed its stdout.
    Dead(String),
    /// No expected answer before the deadline.
    Timeout(String),
    /// It said something the protocol does not allow.
    Protocol(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(s) => write!(f, "cannot start the engine: {s}"),
            EngineError::Dead(s) => write!(f, "the engine died: {s}"),
            EngineError::Timeout(s) => write!(f, "the engine timed out: {s}"),
            EngineError::Protocol(s) => write!(f, "protocol error: {s}"),
        }
    }
}

/// Splits a command line into words: whitespace separates, single and double quotes
/// group, a backslash escapes the next character outside single quotes.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => word.push(c),
            (_, '\\') => {
                word.push(chars.next().ok_or("a trailing backslash")?);
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unbalanced quote in {text:?}"));
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty engine command".into());
    }
    Ok(words)
}

/// A running engine process.
pub struct EngineProcess {
    tag: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl EngineProcess {
    /// Starts `command` (a command line). `tag` names the engine in the logs.
    pub fn spawn(command: &str, tag: &str) -> Result<EngineProcess, EngineError> {
        let words = split_command(command).map_err(EngineError::Spawn)?;
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", words[0])))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, rx) = crossbeam_channel::unbounded();
        let out_tag = tag.to_string();
        std::thread::spawn(move || {
            // Bytes, not `lines()`: a line that is not UTF-8 must not look like a death.
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let line = String::from_utf8_lossy(&buf)
                    .trim_end_matches(['\n', '\r'])
                    .to_string();
                log::trace!("{out_tag} > {line}");
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let err_tag = tag.to_string();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                log::debug!("{err_tag} (stderr) {line}");
            }
        });
        log::debug!("{tag}: started {command:?} as pid {}", child.id());
        Ok(EngineProcess {
            tag: tag.to_string(),
            stdin: child.stdin.take(),
            child,
            lines: rx,
        })
    }

    pub fn tag(&self) -> &str {
        &self.tag
    }

    /// Writes one line (a newline is added) and flushes.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::trace!("{} < {line}", self.tag);
        let result = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|_| stdin.flush()),
            None => Err(std::io::Error::other("stdin closed")),
        };
        result.map_err(|e| EngineError::Dead(format!("{} ({e})", self.exit_description())))
    }

    /// The next line, waiting until `deadline`.
    pub fn recv_until(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
    ) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(format!(
                "no {waiting_for} within the time allowed"
            ))),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Dead(format!(
                "{} while waiting for {waiting_for}",
                self.exit_description()
            ))),
        }
    }

    /// Discards every line already received. Fails if the process has closed its output.
    pub fn drain(&mut self) -> Result<(), EngineError> {
        loop {
            match self.lines.try_recv() {
                Ok(line) => log::trace!("{} (stale) {line}", self.tag),
                Err(TryRecvError::Empty) => return Ok(()),
                Err(TryRecvError::Disconnected) => {
                    return Err(EngineError::Dead(self.exit_description()))
                }
            }
        }
    }

    /// How the process ended, as far as can be told now.
    pub fn exit_description(&mut self) -> String {
        // Give a crashing process a moment to be reaped so the status is known.
        for _ in 0..20 {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!("exited with {status}"),
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => return format!("unknown state ({e})"),
            }
        }
        "closed its output".into()
    }

    /// Asks the engine to quit with `quit_command`, then kills it if it has not exited
    /// within `grace`.
    pub fn shutdown(mut self, quit_command: &str, grace: Duration) {
        let _ = self.send(quit_command);
        self.stdin = None;
        let end = Instant::now() + grace;
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Ends the engine held in `slot`, if there is one: `quit`, then a kill after a second.
    /// Both protocols spell the command `quit`.
    pub fn quit_slot(slot: &mut Option<EngineProcess>) {
        if let Some(process) = slot.take() {
            process.shutdown("quit", Duration::from_millis(1000));
        }
    }

    /// Kills the process at once and reaps it.
    pub fn kill(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            log::debug!("{}: killing pid {}", self.tag, self.child.id());
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(split_command("a b  c").unwrap(), vec!["a", "b", "c"]);
        assert_eq!(
            split_command(r#"python3 'my engine.py' "x y" z\ w"#).unwrap(),
            vec!["python3", "my engine.py", "x y", "z w"]
        );
        assert!(split_command("'open").is_err());
        assert!(split_command("   ").is_err());
    }

    #[test]
    fn a_missing_binary_is_a_spawn_error() {
        let err = EngineProcess::spawn("/nonexistent/engine", "t")
            .err()
            .unwrap();
        assert!(matches!(err, EngineError::Spawn(_)), "{err:?}");
    }

    #[test]
    fn lines_deadlines_and_death() {
        let mut p = EngineProcess::spawn("sh -c 'read x; echo got $x; exit 3'", "sh").unwrap();
        p.send("hello").unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        assert_eq!(p.recv_until(deadline, "echo").unwrap(), "got hello");
        let err = p.recv_until(deadline, "more").unwrap_err();
        assert!(
            matches!(&err, EngineError::Dead(s) if s.contains("exit status: 3")),
            "{err:?}"
        );
        let mut quiet = EngineProcess::spawn("sleep 5", "sleep").unwrap();
        let err = quiet
            .recv_until(Instant::now() + Duration::from_millis(50), "anything")
            .unwrap_err();
        assert!(matches!(err, EngineError::Timeout(_)));
    }
}
