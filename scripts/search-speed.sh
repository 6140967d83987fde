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
# Measured 2026-11-22 on 2 cores shared with other builds (load average 1.6-3.5), medians:
#   10 s from startpos, 1 thread: 2.28-2.50 M nodes/s (2.53 M per CPU-second), depth 16.
#   depth 14: 1 thread 3.60 s, 2.66 M nodes/s; 2 threads 2.45 s (1.47x), 3.59 M nodes/s (1.35x).
#   depth 15: 1 thread 6.75 s, 2.62 M nodes/s; 2 threads 6.60 s, 3.58 M nodes/s; in the slow
#   2-thread runs the process got about one core (CPU time = wall time).
