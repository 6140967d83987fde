#!/usr/bin/env bash
# The long Central Madness checks `cargo test` skips: 400 seeded random games of 300 plies
# compared node by node with the reference generator, and every suite line recomputed by
# the reference.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test madness_reference -- --ignored --nocapture \
    random_playouts_agree_long reference_reproduces_every_suite_line
