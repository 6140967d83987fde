//! The short pass of `scripts/fuzz_usi.py` in the test suite: mutated USI command streams in
//! all five games against the test build of the engine (optimised, debug assertions on, so
//! every make/unmake is also checked against a recount). The script checks after each batch
//! that the engine is alive, answers `isready` within 2 s and answered every `go` exactly
//! once. `FUZZ_LINES` and `FUZZ_SEED` change the length and the seed (the long pass runs the
//! script itself: `python3 scripts/fuzz_usi.py --lines 1000000`).

#[path = "common/fuzz_script.rs"]
mod fuzz_script;

#[test]
fn mutated_usi_streams_in_every_game_leave_the_engine_answering() {
    fuzz_script::run_short_pass("fuzz_usi.py", "12");
}
