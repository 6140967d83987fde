//! The short pass of `scripts/fuzz_cecp.py` in the test suite: mutated CECP command streams
//! in shogi, Chu Shogi and Chu Kagamigi against the test build of the engine (optimised,
//! debug assertions on). The script checks after every step that `ping N` got `pong N`
//! within 2 s, that each `go` and each accepted move on the engine's turn got exactly one
//! move and nothing else got one, that only protocol lines were printed, and that the engine
//! is alive. `FUZZ_LINES` and `FUZZ_SEED` change the length and the seed (the long pass runs
//! the script itself: `python3 scripts/fuzz_cecp.py --lines 1000000`).

#[path = "common/fuzz_script.rs"]
mod fuzz_script;

#[test]
fn mutated_cecp_streams_in_three_games_leave_the_engine_answering() {
    fuzz_script::run_short_pass("fuzz_cecp.py", "34");
}
