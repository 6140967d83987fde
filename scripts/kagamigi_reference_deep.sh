#!/usr/bin/env bash
# The long Chu Kagamigi reference checks `cargo test` leaves out: every line of
# positions/perft/chukagamigi.perft and chukagamigi_selfplay.perft recomputed by the simple
# reference generator in engine-tests/kagamigi_reference.rs (and by the fast generator with
# no node limit), then the two generators compared move by move at every node to depth 3 on
# the self-play positions. Prints the time of each suite line and of the whole run.
# Usage: scripts/kagamigi_reference_deep.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --tests --quiet
start=$(date +%s)
cargo test --release --test kagamigi_reference -- --ignored \
  reference_reproduces_every_suite_line reference_agrees_on_self_play_positions_to_depth_three \
  --test-threads 1 --nocapture
echo "kagamigi reference deep checks: $(( $(date +%s) - start )) s"
