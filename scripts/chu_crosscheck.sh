#!/usr/bin/env bash
# Cross-checks the Chu Shogi perft suite against shogiops (lishogi's rules library, npm),
# line by line and in both ways of counting:
#   nodes        one per distinct action (the suite's third field and `shishi perft`'s `nodes`)
#   usi-strings  every USI spelling, as lishogi counts (`shishi perft`'s `usi-strings`)
# Installs shogiops into $SHOGIOPS_DIR (default /tmp/shogiops-chu) if it is missing.
# Usage: scripts/chu_crosscheck.sh [SUITE]   (default positions/perft/chushogi.perft)
set -euo pipefail
cd "$(dirname "$0")/.."
suite=${1:-positions/perft/chushogi.perft}
export SHOGIOPS_DIR=${SHOGIOPS_DIR:-/tmp/shogiops-chu}
if [ ! -f "$SHOGIOPS_DIR/node_modules/shogiops/package.json" ]; then
  mkdir -p "$SHOGIOPS_DIR"
  (cd "$SHOGIOPS_DIR" && npm init -y >/dev/null 2>&1 && npm install --silent shogiops@0.18.0)
fi
cargo build --release --quiet
reference=$(mktemp)
trap 'rm -f "$reference"' EXIT
node scripts/shogiops_perft.mjs --file "$suite" >"$reference"
lines=0
bad=0
while IFS=';' read -r sfen depth distinct usi; do
  sfen=$(echo "$sfen" | xargs)
  depth=$(echo "$depth" | xargs)
  distinct=$(echo "$distinct" | xargs)
  usi=$(echo "$usi" | xargs)
  expected=$(grep -v '^#' "$suite" | awk -F';' -v s="$sfen" -v d="$depth" '
    { gsub(/^ +| +$/, "", $1); gsub(/ /, "", $2); gsub(/ /, "", $3) }
    $1 == s && $2 == d && !done { print $3; done = 1 }')
  out=$(./target/release/shishi perft --variant chushogi --sfen "$sfen" --depth "$depth")
  nodes=$(echo "$out" | awk '/^nodes/ {print $2}')
  spellings=$(echo "$out" | awk '/^usi-strings/ {print $2}')
  lines=$((lines + 1))
  if [ "$nodes" != "$distinct" ] || [ "$nodes" != "$expected" ] || [ "$spellings" != "$usi" ]; then
    bad=$((bad + 1))
    echo "MISMATCH depth $depth $sfen"
    echo "  suite $expected | shishi nodes $nodes usi-strings $spellings | shogiops distinct $distinct usi $usi"
  fi
done <"$reference"
echo "$lines lines checked against shogiops, $bad mismatches"
[ "$bad" -eq 0 ]
