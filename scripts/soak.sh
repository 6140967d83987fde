#!/usr/bin/env bash
# Soak: Shishi against itself for many fast games in one deterministic variant, through the
# referee, then every record re-checked. Counts what must never happen: illegal moves,
# protocol failures (engine-failure, false claims) and time forfeits.
#
#   scripts/soak.sh shogi|chushogi|chukagamigi [GAMES] [TC]
#
# Defaults: 1000 games at movetime=10 (a fixed 10 ms per move), concurrency 2, openings from
# positions/openings/<variant>.txt where the file exists, --max-moves 320 (shogi) or 400 (the
# 12x12 games), and a time margin of 1000 ms: a soak looks for hangs and protocol faults, and
# on a loaded 2-core machine the scheduler alone stalls a process for 200-400 ms now and then
# (the referee's default margin of 200 ms turned such stalls into 4, 7 and 55 forfeits in
# 1000 games of shogi, Chu and Chu Kagamigi at load 8-17). Environment: CONCURRENCY (2),
# TIME_MARGIN (1000), ENGINE (./target/release/shishi), OUT (target/matches/soak-<variant>-
# <time>). The record check needs cshogi (installed here).
set -euo pipefail
cd "$(dirname "$0")/.."

VARIANT=${1:?usage: scripts/soak.sh shogi|chushogi|chukagamigi [GAMES] [TC]}
GAMES=${2:-1000}
TC=${3:-movetime=10}
CONCURRENCY=${CONCURRENCY:-2}
TIME_MARGIN=${TIME_MARGIN:-1000}
ENGINE=${ENGINE:-./target/release/shishi}
OUT=${OUT:-target/matches/soak-$VARIANT-$(date -u +%Y%m%d-%H%M%S)}
case "$VARIANT" in
    shogi) MAX_MOVES=320 ;;
    chushogi | chukagamigi) MAX_MOVES=400 ;;
    *) echo "unknown variant $VARIANT" >&2; exit 2 ;;
esac
OPENINGS=()
if [ -f "positions/openings/$VARIANT.txt" ]; then
    OPENINGS=(--openings "positions/openings/$VARIANT.txt")
fi

mkdir -p "$(dirname "$OUT")"
[ -x "$ENGINE" ] || cargo build --release
python3 -c "import cshogi" 2>/dev/null || python3 -m pip install --quiet cshogi

"$ENGINE" match --variant "$VARIANT" \
    --engine1 "$ENGINE" --name1 shishi-a --engine2 "$ENGINE" --name2 shishi-b \
    --games "$GAMES" --tc "$TC" --concurrency "$CONCURRENCY" --max-moves "$MAX_MOVES" \
    --time-margin "$TIME_MARGIN" \
    "${OPENINGS[@]}" --out "$OUT" >"$OUT.log" 2>&1 || { tail -20 "$OUT.log"; exit 1; }
tail -12 "$OUT.log"

echo "== endings"
python3 - "$OUT/games.jsonl" <<'PY'
import collections, json, sys
games = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
reasons = collections.Counter(g.get("reason") for g in games)
for reason, n in reasons.most_common():
    print(f"{reason}: {n}")
bad = sum(reasons.get(r, 0) for r in ("illegal-move", "engine-failure", "time-forfeit", "false-claim", "false-declaration"))
print(f"games {len(games)}, forbidden endings {bad}")
sys.exit(1 if bad else 0)
PY
echo "== records"
python3 scripts/check_match_records.py "$OUT"
