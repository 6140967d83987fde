#!/bin/sh
# Node counts of the chance search (src/search/chance) against plain expectimax on the two
# test games (a dice race and a dice-capture skirmish), at larger depths than `cargo test`
# runs, with search speed. Every value is also compared with expectimax.
set -eu
cargo test --release -p shishi --lib chance_node_counts_deeper -- --ignored --nocapture \
    | grep -E 'expectimax|test result'
