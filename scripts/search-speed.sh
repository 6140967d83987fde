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
for cfg in "1 lazysmp" "2 lazysmp" "2 rootsplit"; do
    set -- $cfg
    echo "== depth $DEPTH from startpos, $1 thread(s), $2 (time to depth 13 and $DEPTH, CPU time)"
    for i in $(seq "$RUNS"); do
        /usr/bin/time -f "cpu %U user %S sys" "$BIN" analyse --startpos --depth "$DEPTH" \
            --threads "$1" --parallel "$2" --hash 256 2>&1 | grep -E '^depth 13 |^nodes|^cpu' \
            | grep -v bound | sed 's/ pv .*//'
    done
done
# Measured 2026-11-22 on 2 cores shared with other builds (load average 1.6-3.5), medians:
#   10 s from startpos, 1 thread: 2.28-2.50 M nodes/s (2.53 M per CPU-second), depth 16.
#   depth 14: 1 thread 3.60 s, 2.66 M nodes/s; 2 threads 2.45 s (1.47x), 3.59 M nodes/s (1.35x).
#   depth 15: 1 thread 6.75 s, 2.62 M nodes/s; 2 threads 6.60 s, 3.58 M nodes/s; in the slow
#   2-thread runs the process got about one core (CPU time = wall time).
# ParallelMode, 2026-11-22, 2 cores shared (load average 1.3-3.4), depth 14 from startpos,
# hash 256, medians; configurations interleaved run by run:
#   first set (10 runs each; root split without helpers on the first move):
#     1 thread:           depth 13 2.87 s, depth 14 3.71 s, 2.59 M nodes/s, CPU 3.67 s
#     2 threads lazysmp:  depth 13 2.27 s, depth 14 3.43 s, 3.20 M nodes/s, CPU 4.22 s
#     2 threads rootsplit (plain): depth 13 1.42 s, depth 14 2.98 s, 2.98 M nodes/s, CPU 3.19 s
#   second set (6 runs each; rootsplit = with Lazy-SMP-style helpers on the first move):
#     1 thread:           depth 13 2.87 s, depth 14 3.70 s, 2.60 M nodes/s, CPU 3.76 s
#     2 threads lazysmp:  depth 13 2.15 s, depth 14 3.04 s, 3.39 M nodes/s, CPU 4.29 s
#     2 threads rootsplit: depth 13 1.25 s, depth 14 2.04 s, 4.30 M nodes/s, CPU 3.48 s
#     2 threads plain root split: depth 13 1.43 s, depth 14 2.66 s, 2.95 M nodes/s, CPU 3.27 s
#   third set (6 runs each, same code, quieter machine, load average 1.3):
#     1 thread:           depth 13 2.75 s, depth 14 3.55 s, 2.71 M nodes/s, CPU 3.62 s
#     2 threads lazysmp:  depth 13 1.97 s, depth 14 2.48 s, 4.47 M nodes/s, CPU 4.25 s
#     2 threads rootsplit: depth 13 1.34 s, depth 14 2.37 s, 4.17 M nodes/s, CPU 3.88 s
#     2 threads plain root split: depth 13 1.59 s, depth 14 3.38 s, 3.44 M nodes/s, CPU 4.34 s
#   The spread is wide (2-thread depth-14 times 1.4-6.1 s). Root split (with helpers on the
#   first move) was never slower to depth than Lazy SMP in the medians and used less CPU,
#   but at depth 14 on the quiet machine the margin was small (2.37 s vs 2.48 s). These are
#   time-to-depth numbers only; no games were played to compare strength.
