#!/bin/sh
# Node counts of the chance search (src/search/chance) against plain expectimax on the two
# test games (a dice race and a dice-capture skirmish), at larger depths than `cargo test`
# runs, then the speed of a depth-7 race search on one and two threads. Every value is
# compared with expectimax (or, at depth 7, between the serial and the parallel search).
set -eu
cargo test --release -p shishi --lib chance_node_counts_deeper -- --ignored --nocapture \
    | grep -E 'expectimax|test result'
cargo test --release -p shishi --lib chance_search_speed -- --ignored --nocapture \
    | grep -E '^speed|test result'
