#!/usr/bin/env bash
# Shishi's two protocols against each other in Chu Shogi: Shishi as a CECP engine
# (`shishi --xboard`, XBoard's move text through the referee's CECP client) against Shishi as
# a USI engine, 20 games at 5 s + 0.1 s, one game at a time. Every game must end legally and
# be scored; the summary shows the score (the engines are the same, so it should be even).
# Builds the release binary.
#
#   scripts/match_cecp_usi.sh [extra shishi match options, e.g. --resume]
#
# Environment: GAMES (20), TC (5+0.1), CONCURRENCY (1), OUT (target/matches/cecp-usi-<time>),
# SHISHI (the binary; default: the release build, built first).
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-20}
TC=${TC:-5+0.1}
CONCURRENCY=${CONCURRENCY:-1}
OUT=${OUT:-target/matches/cecp-usi-$(date -u +%Y%m%d-%H%M%S)}
if [ -z "${SHISHI:-}" ]; then
    cargo build --release
    SHISHI=./target/release/shishi
fi
"$SHISHI" match --variant chushogi \
    --engine1 "$SHISHI --xboard" --proto1 cecp --name1 shishi-cecp \
    --engine2 "$SHISHI" --name2 shishi-usi \
    --games "$GAMES" --tc "$TC" --concurrency "$CONCURRENCY" --out "$OUT" "$@"
# Every game legal and scored: no illegal move, no engine failure, no false claim.
bad=$(grep -c -E '"reason": ?"(illegal-move|engine-failure|false-claim)"' "$OUT/games.jsonl" || true)
played=$(wc -l <"$OUT/games.jsonl")
echo "$played games in $OUT/games.jsonl; $bad ended by an illegal move, an engine failure or a false claim"
[ "$bad" -eq 0 ] && [ "$played" -eq "$GAMES" ]
