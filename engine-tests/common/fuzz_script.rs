//! The short pass of a fuzz script of `scripts/` in the test suite: runs it against the test
//! build of the engine with `FUZZ_LINES` lines (default 2500) and seed `FUZZ_SEED` (default
//! the caller's), and fails unless it exits cleanly reporting ` 0 failures`.

use std::process::Command;

/// Runs `scripts/<script>` as the short pass and asserts that it found nothing.
pub fn run_short_pass(script: &str, default_seed: &str) {
    let lines = std::env::var("FUZZ_LINES").unwrap_or_else(|_| "2500".to_string());
    let seed = std::env::var("FUZZ_SEED").unwrap_or_else(|_| default_seed.to_string());
    let script = format!("{}/scripts/{script}", env!("CARGO_MANIFEST_DIR"));
    let output = Command::new("python3")
        .args([script.as_str(), "--engine", env!("CARGO_BIN_EXE_shishi")])
        .args(["--lines", &lines, "--seed", &seed])
        .current_dir(std::env::temp_dir())
        .output()
        .expect("python3 runs (the test suite needs python3, see README)");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains(" 0 failures"), "{stdout}");
}
