#!/usr/bin/env bash
# Strength measurement: Shishi (USI) against GNU Shogi (CECP) at 10 s + 0.1 s per move,
# 40 games (20 openings from positions/openings/shogi.txt, colours swapped), one game at a
# time. Installs gnushogi with apt-get when it is missing and builds the release binary.
#
#   scripts/match_gnushogi.sh [extra shishi match options, e.g. --resume]
#
# Environment: GAMES (40), TC (10+0.1), CONCURRENCY (1), OUT (target/matches/gnushogi-<time>).
# The summary table goes to stdout; every game is in $OUT (games.jsonl, games/*.kifu|csa).
#
# Caveat, measured with Debian's gnushogi 1.4.2: it never answers in less than about one
# second (MINRESPONSETIME in its source) and has no sub-second level, so at 10+0.1 it runs
# out of time after about 11 moves of its own (four GNU-vs-GNU games: all four lost on
# time at ply 22-24). Games at this time control mostly measure that. For a measurement of
# playing strength also run e.g. TC=movetime=1000 with `--time-margin2 1000` (GNU Shogi
# overruns 1 s by a few hundred ms) and report both.
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-40}
TC=${TC:-10+0.1}
CONCURRENCY=${CONCURRENCY:-1}
OUT=${OUT:-target/matches/gnushogi-$(date -u +%Y%m%d-%H%M%S)}

find_gnushogi() {
    command -v gnushogi || { [ -x /usr/games/gnushogi ] && echo /usr/games/gnushogi; } || true
}
GNUSHOGI=$(find_gnushogi)
if [ -z "$GNUSHOGI" ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update
    $SUDO apt-get install -y gnushogi
    GNUSHOGI=$(find_gnushogi)
fi

cargo build --release
./target/release/shishi match \
    --engine1 ./target/release/shishi --name1 shishi \
    --engine2 "$GNUSHOGI" --proto2 cecp --name2 gnushogi \
    --games "$GAMES" --tc "$TC" --concurrency "$CONCURRENCY" \
    --openings positions/openings/shogi.txt --out "$OUT" "$@"
