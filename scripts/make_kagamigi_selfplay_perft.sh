#!/usr/bin/env bash
# Makes the lines of positions/perft/chukagamigi_selfplay.perft: Shishi plays Chu Kagamigi
# against itself at depth 3 (scripts/make_bench_positions.py: five games, each opened by
# two moves drawn with a fixed seed from the best eight at depth 2), the positions at plies
# 30 and 60 are taken, and the reference generator of engine-tests/kagamigi_reference.rs
# counts them to depth 3 (each preceded by a comment with the game's moves).
# Usage: scripts/make_kagamigi_selfplay_perft.sh > lines.txt
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
games=$(mktemp)
trap 'rm -f "$games"' EXIT
python3 scripts/make_bench_positions.py chukagamigi --depth 3 --plies 30,60 --games 5 --seed 6 >"$games"
KAGAMIGI_POSITIONS="$games" KAGAMIGI_DEPTH3_LIMIT=1000000000 \
  cargo test --release --quiet --test kagamigi_reference -- --ignored print_suite_counts \
  --nocapture | grep -v -e '^running' -e '^test ' -e '^$' -e '^test result' -e '^\.$'
