#!/usr/bin/env bash
# Times `shishi perft 5` from the start position against the cshogi reference perft
# (../shared/tools/cshogi_perft.py), in the same sitting, several runs each.
# Usage: scripts/perft_speed.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
python3 -c "import cshogi" 2>/dev/null || pip install --quiet cshogi
cargo build --release --quiet
reference=${CSHOGI_PERFT:-../shared/tools/cshogi_perft.py}
shishi_times=()
cshogi_times=()
for _ in $(seq "$runs"); do
  s=$(./target/release/shishi perft --startpos --depth 5 | awk '/^time/ {print $2}')
  c=$(python3 "$reference" startpos 5 | awk '/^seconds/ {print $2}')
  shishi_times+=("$s")
  cshogi_times+=("$c")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
ms=$(median "${shishi_times[@]}")
mc=$(median "${cshogi_times[@]}")
echo "shishi perft 5 seconds: ${shishi_times[*]} (median $ms)"
echo "cshogi perft 5 seconds: ${cshogi_times[*]} (median $mc)"
awk -v a="$mc" -v b="$ms" 'BEGIN {printf "speed ratio (cshogi time / shishi time): %.2f\n", a / b}'
