#!/usr/bin/env bash
# Times Shogammon perft over decisions for fixed rolls, one thread, several runs each, and
# prints every run's nodes/s and the median:
#   the start position, rolls 52,43,65,44, depth 7 (four turns' worth of decisions less one);
#   a middle-game position from a seeded random game (points on both sides, hands),
#   rolls 54,33,21, depth 6.
# Usage: scripts/shogammon_perft_speed.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
cargo build --release --quiet
middle="1g3(kg)2l/l6bs/1ps2p(pn)p1/p1p1(pr)4/5PP2/PPP1(PS)2PL/R2pn3P/L2P5/1N1(GS)KG1N1 b Bp 41"
run_case() {
  local label=$1
  shift
  local rates=() nodes=""
  for _ in $(seq "$runs"); do
    out=$(./target/release/shishi perft --variant shogammon "$@")
    nodes=$(echo "$out" | awk '/^nodes/ {print $2}')
    rates+=("$(echo "$out" | awk '/^nps/ {print $2}')")
  done
  median=$(printf '%s\n' "${rates[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$label: nodes $nodes, nps runs: ${rates[*]}"
  echo "$label: median nps $median"
}
run_case "startpos rolls 52,43,65,44 depth 7" --startpos --rolls 52,43,65,44 --depth 7
run_case "middle game rolls 54,33,21 depth 6" --sfen "$middle" --rolls 54,33,21 --depth 6
