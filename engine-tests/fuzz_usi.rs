//! The short pass of `scripts/fuzz_usi.py` in the test suite: mutated USI command streams in
//! all five games against the test build of the engine (optimised, debug assertions on, so
//! every make/unmake is also checked against a recount). The script checks after each batch
//! that the engine is alive, answers `isready` within 2 s and answered every `go` exactly
//! once. `FUZZ_LINES` and `FUZZ_SEED` change the length and the seed (the long pass runs the
//! script itself: `python3 scripts/fuzz_usi.py --lines 1000000`).

use std::process::Command;

#[test]
fn mutated_usi_streams_in_every_game_leave_the_engine_answering() {
    let lines = std::env::var("FUZZ_LINES").unwrap_or_else(|_| "2500".to_string());
    let seed = std::env::var("FUZZ_SEED").unwrap_or_else(|_| "12".to_string());
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/fuzz_usi.py");
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
