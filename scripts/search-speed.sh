#!/bin/sh
# Search speed measurements (run from the repository root after `cargo build --release`):
#  1. nodes/s and depth reached in 10 s from the start position, one thread;
#  2. time to depth and nodes/s with 1 and 2 threads.
# Each is repeated RUNS times (default 5); take the medians. The machine should be quiet.
set -eu
BIN=${BIN:-target/release/shishi}
RUNS=${RUNS:-5}
DEPTH=${DEPTH:-14}
echo "== 10 s from startpos, 1 thread"
for i in $(seq "$RUNS"); do
    "$BIN" analyse --startpos --movetime 10000 --hash 256 | grep '^nodes'
done
for t in 1 2; do
    echo "== depth $DEPTH from startpos, $t thread(s)"
    for i in $(seq "$RUNS"); do
        "$BIN" analyse --startpos --depth "$DEPTH" --threads "$t" --hash 256 | grep '^nodes'
    done
done
