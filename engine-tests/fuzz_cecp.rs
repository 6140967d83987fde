//! The short pass of `scripts/fuzz_cecp.py` in the test suite: mutated CECP command streams
//! in shogi, Chu Shogi and Chu Kagamigi against the test build of the engine (optimised,
//! debug assertions on). The script checks after every step that `ping N` got `pong N`
//! within 2 s, that each `go` and each accepted move on the engine's turn got exactly one
//! move and nothing else got one, that only protocol lines were printed, and that the engine
//! is alive. `FUZZ_LINES` and `FUZZ_SEED` change the length and the seed (the long pass runs
//! the script itself: `python3 scripts/fuzz_cecp.py --lines 1000000`).

use std::process::Command;

#[test]
fn mutated_cecp_streams_in_three_games_leave_the_engine_answering() {
    let lines = std::env::var("FUZZ_LINES").unwrap_or_else(|_| "2500".to_string());
    let seed = std::env::var("FUZZ_SEED").unwrap_or_else(|_| "34".to_string());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/fuzz_cecp.py");
    let output = Command::new("python3")
        .args([script, "--engine", env!("CARGO_BIN_EXE_shishi")])
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
