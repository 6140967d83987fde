#!/usr/bin/env bash
# Shishi against itself: 20 fast games (1 s + 0.05 s) from positions/openings/shogi.txt,
# colours swapped in pairs. A smoke test of the engine and the referee, and the template for
# comparing two builds: set ENGINE2 to another binary (e.g. a copy of an older build).
#
#   scripts/match_self.sh [extra shishi match options, e.g. --sprt 0 10]
#
# Environment: GAMES (20), TC (1+0.05), CONCURRENCY (2), ENGINE2 (the same binary),
# OUT (target/matches/self-<time>).
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-20}
TC=${TC:-1+0.05}
CONCURRENCY=${CONCURRENCY:-2}
ENGINE2=${ENGINE2:-./target/release/shishi}
OUT=${OUT:-target/matches/self-$(date -u +%Y%m%d-%H%M%S)}

cargo build --release
./target/release/shishi match \
    --engine1 ./target/release/shishi --name1 shishi \
    --engine2 "$ENGINE2" --name2 shishi-b \
    --games "$GAMES" --tc "$TC" --concurrency "$CONCURRENCY" \
    --openings positions/openings/shogi.txt --out "$OUT" "$@"
