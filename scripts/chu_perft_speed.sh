#!/usr/bin/env bash
# Times Chu Shogi perft 3 from the start position: `shishi perft --variant chushogi` against
# shogiops under node, in the same sitting, several runs each, medians compared.
#   shishi     perft 3 (48,315 distinct actions); seconds = nodes / nps as printed
#   shogiops   its own `perft` (shogiops/debug, 52,599 USI strings) and the tree walk of
#              scripts/shogiops_perft.mjs; seconds measured inside node around the perft call
# Installs shogiops into $SHOGIOPS_DIR (default /tmp/shogiops-chu) if it is missing.
# Usage: scripts/chu_perft_speed.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
export SHOGIOPS_DIR=${SHOGIOPS_DIR:-/tmp/shogiops-chu}
if [ ! -f "$SHOGIOPS_DIR/node_modules/shogiops/package.json" ]; then
  mkdir -p "$SHOGIOPS_DIR"
  (cd "$SHOGIOPS_DIR" && npm init -y >/dev/null 2>&1 && npm install --silent shogiops@0.18.0)
fi
cargo build --release --quiet
start='lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1'
own_perft=$(cat <<'JS'
const { pathToFileURL } = await import('node:url');
const lib = (p) => import(pathToFileURL(`${process.env.SHOGIOPS_DIR}/node_modules/shogiops/dist/${p}`).href);
const { parseSfen, initialSfen } = await lib('sfen.js');
const { perft } = await lib('debug.js');
const pos = parseSfen('chushogi', initialSfen('chushogi')).value;
const t0 = process.hrtime.bigint();
const n = perft(pos, 3);
console.log(`${n} ${(Number(process.hrtime.bigint() - t0) / 1e9).toFixed(4)}`);
JS
)
shishi_times=()
own_times=()
walk_times=()
for _ in $(seq "$runs"); do
  out=$(./target/release/shishi perft --variant chushogi --startpos --depth 3)
  s=$(echo "$out" | awk '/^nodes/ {n=$2} /^nps/ {r=$2} END {printf "%.6f", n / r}')
  o=$(node --input-type=module -e "$own_perft" | awk '{print $2}')
  w=$(node scripts/shogiops_perft.mjs "$start" 3 | awk '/^seconds/ {print $2}')
  shishi_times+=("$s")
  own_times+=("$o")
  walk_times+=("$w")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
ms=$(median "${shishi_times[@]}")
mo=$(median "${own_times[@]}")
mw=$(median "${walk_times[@]}")
echo "shishi perft 3 seconds:             ${shishi_times[*]} (median $ms)"
echo "shogiops debug perft 3 seconds:     ${own_times[*]} (median $mo)"
echo "shogiops_perft.mjs perft 3 seconds: ${walk_times[*]} (median $mw)"
awk -v a="$mo" -v b="$ms" 'BEGIN {printf "speed ratio (shogiops perft / shishi): %.0f\n", a / b}'
awk -v a="$mw" -v b="$ms" 'BEGIN {printf "speed ratio (shogiops_perft.mjs / shishi): %.0f\n", a / b}'
