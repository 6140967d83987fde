#!/usr/bin/env bash
# Times Chu Kagamigi perft from the reconstructed start position, one thread:
# `shishi perft --variant chukagamigi --startpos --depth D` for D = 3 (the issue's bar:
# at least 10 M nodes/s) and D = 4 (a longer run, less timer noise), several runs each,
# and prints every run's nodes/s and the median.
# Usage: scripts/kagamigi_perft_speed.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-9}
cargo build --release --quiet
for depth in 3 4; do
  rates=()
  for _ in $(seq "$runs"); do
    out=$(./target/release/shishi perft --variant chukagamigi --startpos --depth "$depth")
    nodes=$(echo "$out" | awk '/^nodes/ {print $2}')
    rates+=("$(echo "$out" | awk '/^nps/ {print $2}')")
  done
  median=$(printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "perft $depth: nodes $nodes, nps runs: ${rates[*]}"
  echo "perft $depth: median nps $median"
done
