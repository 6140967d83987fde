#!/bin/sh
# The node table of issue 7's bar on the Shogammon bench positions
# (positions/bench/shogammon.sfen): per position the depth in whole turns, plain
# expectimax nodes, Star1 and Star2 nodes (default settings, iterative deepening counted in
# full), their ratios and whether all three values are equal. About 10 s in release. With
# `--deeper`, also the exactness test at two turns on the seeded random positions (minutes);
# with `--timing`, when each depth of a Star2 search completes on the decision positions.
set -eu
cargo test --release -p shishi --lib shogammon_star2_nodes -- --ignored --nocapture \
    | grep -vE '^(running|$)|Running|Finished|Compiling'
if [ "${1:-}" = "--deeper" ]; then
    cargo test --release -p shishi --lib shogammon_exactness_deeper -- --ignored --nocapture \
        | grep -E 'positions at|test result'
fi
if [ "${1:-}" = "--timing" ]; then
    cargo test --release -p shishi --lib shogammon_time_per_depth -- --ignored --nocapture \
        | grep -E ' ms |test result'
fi
