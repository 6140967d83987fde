#!/usr/bin/env bash
# Runs every line of the perft suites, including the deep ones `cargo test` skips.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test perft_suite -- --include-ignored --nocapture
