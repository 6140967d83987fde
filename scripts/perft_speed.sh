#!/usr/bin/env bash
# Times `shishi perft 5` from the start position against a reference perft built on cshogi
# (PyPI; the `perft` of scripts/perft_crosscheck.py: interior plies in Python, the last ply
# counted from cshogi's legal-move list), in the same sitting, several runs each.
# Usage: scripts/perft_speed.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
cargo build --release --quiet
# Seconds of the cshogi perft 5 from the start position (installs cshogi on first use).
cshogi_seconds() {
  python3 -c 'import sys, time
sys.path.insert(0, "scripts")
import perft_crosscheck as reference
cshogi = reference.import_cshogi()
board = cshogi.Board()
start = time.perf_counter()
reference.perft(board, 5)
print(f"{time.perf_counter() - start:.3f}")'
}
shishi_times=()
cshogi_times=()
for _ in $(seq "$runs"); do
  s=$(./target/release/shishi perft --startpos --depth 5 | awk '/^time/ {print $2}')
  c=$(cshogi_seconds)
  shishi_times+=("$s")
  cshogi_times+=("$c")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
ms=$(median "${shishi_times[@]}")
mc=$(median "${cshogi_times[@]}")
echo "shishi perft 5 seconds: ${shishi_times[*]} (median $ms)"
echo "cshogi perft 5 seconds: ${cshogi_times[*]} (median $mc)"
awk -v a="$mc" -v b="$ms" 'BEGIN {printf "speed ratio (cshogi time / shishi time): %.2f\n", a / b}'
