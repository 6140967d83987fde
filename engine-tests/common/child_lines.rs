//! Starting an engine process for a protocol test: stdin and stdout piped, stderr dropped,
//! and stdout read line by line on a thread into a channel, so that a hung engine fails a
//! test by timeout instead of hanging it.

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};

/// Spawns `command` and returns the child, its stdin and its stdout lines.
pub fn spawn(mut command: Command) -> (Child, Option<ChildStdin>, Receiver<String>) {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = command.spawn().expect("start the engine");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let stdin = child.stdin.take();
    (child, stdin, lines)
}
