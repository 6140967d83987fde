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
# Measured 2026-11-22 (2 shared cores, load average 2.6-3.5 from other builds):
#   10 s from startpos, 1 thread: median 2.28 M nodes/s wall (2.53 M per CPU-second), depth 16.
#   depth 15, 1 thread: median 7.05 s, 17.7 M nodes; 2 threads: median 13.3 s, 36.2 M nodes,
#   2.6 M nodes/s wall (the two threads got about one core between them).
