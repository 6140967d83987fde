#!/usr/bin/env bash
# Chu Shogi strength measurement: Shishi (USI, `USI_Variant chushogi`, `ChuRules lishogi`)
# against HaChu (CECP, `variant chu`) at 30 s + 0.3 s per move, 20 games in pairs from the
# varied openings of positions/openings/chushogi.txt (colours swapped within each pair).
# Installs hachu with apt-get when it is missing and builds the release binary.
#
#   scripts/match_hachu.sh [extra shishi match options, e.g. --resume]
#
# Environment: GAMES (20), TC (30+0.3), CONCURRENCY (1), OUT (target/matches/hachu-<time>),
# ENGINE1 (the Shishi binary; ENGINE1=hachu plays HaChu against itself, to check the bridge),
# OPENINGS (positions/openings/chushogi.txt, 40 lines; chushogi-wide.txt has 800, for
# matches of more than 80 games).
# The summary table goes to stdout; every game is in $OUT (games.jsonl, games/*.usi).
#
# The referee judges by lishogi's rules (--chu-rules, default lishogi). HaChu refuses moves
# that repeat an earlier position unless told `Allow repeats`, which this script sets, so
# that repetition is judged by the rule set rather than refused by one engine. HaChu reads
# the increment of `level` as whole seconds (0.3 s becomes 0) but is sent its real clock
# with `time` before every move, so it plays on the clock it has.
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-20}
TC=${TC:-30+0.3}
CONCURRENCY=${CONCURRENCY:-1}
OUT=${OUT:-target/matches/hachu-$(date -u +%Y%m%d-%H%M%S)}
OPENINGS=${OPENINGS:-positions/openings/chushogi.txt}
HACHU=$(scripts/install_hachu.sh)

cargo build --release
if [ "${ENGINE1:-shishi}" = hachu ]; then
    ENGINE1_ARGS=(--engine1 "$HACHU" --proto1 cecp --name1 hachu-a --option1 "Allow repeats=1")
else
    ENGINE1_ARGS=(--engine1 "${ENGINE1:-./target/release/shishi}" --name1 shishi)
fi
./target/release/shishi match --variant chushogi \
    "${ENGINE1_ARGS[@]}" \
    --engine2 "$HACHU" --proto2 cecp --name2 hachu --option2 "Allow repeats=1" \
    --games "$GAMES" --tc "$TC" --concurrency "$CONCURRENCY" \
    --openings "$OPENINGS" --out "$OUT" "$@"
