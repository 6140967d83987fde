//! Running the `shishi` binary from a test: with arguments, or with a script on its stdin
//! (the end of input follows the script), and its output as text.

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

/// Runs `shishi` with `args` and returns its output.
pub fn shishi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Runs `shishi` with `args`, writes `script` to its stdin, closes it, and returns its
/// output (stdout and stderr).
#[allow(dead_code)] // Not every test binary pipes a script.
pub fn shishi_with_input(args: &[&str], script: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    child.wait_with_output().expect("the binary ends")
}

/// Starts `shishi` with `args` for a conversation: stdin and stdout piped, stderr dropped.
#[allow(dead_code)] // Not every test binary talks to the engine line by line.
pub fn spawn_shishi(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs")
}

/// Output bytes as text (invalid UTF-8 replaced).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
