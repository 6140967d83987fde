#!/bin/sh
# Texel-style fit of standard shogi's evaluation weights from recorded games.
#   1. Optionally plays self-play games for data (GAMES > 0): `shishi match` of the engine
#      against itself at TC (default movetime=20: the clock's noise varies the games) from
#      positions/openings/shogi-wide.txt, into $OUT/selfplay.
#   2. Writes the features of every kept position of the records (RECORDS: games.jsonl
#      paths, plus the self-play games) with the ignored test tuning::texel::texel_features.
#   3. Fits the weights with scripts/texel.py (EPOCHS, L2) and prints them as the fields of
#      `Weights` (src/eval/shogi.rs), with the held-out error before and after.
# A fitted set lands only after it wins a gating match (docs/STRENGTH.md).
#   SHISHI=target/release/shishi GAMES=1000 OUT=/tmp/texel scripts/texel.sh
set -eu
SHISHI="${SHISHI:-target/release/shishi}"
OUT="${OUT:-/tmp/shishi-texel}"
GAMES="${GAMES:-0}"
TC="${TC:-movetime=20}"
RECORDS="${RECORDS:-}"
EPOCHS="${EPOCHS:-300}"
L2="${L2:-1e-9}"
mkdir -p "$OUT"
if [ "$GAMES" -gt 0 ]; then
    "$SHISHI" match --engine1 "$SHISHI" --name1 a --engine2 "$SHISHI" --name2 b \
        --games "$GAMES" --tc "$TC" --time-margin 2000 \
        --openings positions/openings/shogi-wide.txt --resign-score 1500 --resign-moves 4 \
        --out "$OUT/selfplay" $( [ -d "$OUT/selfplay" ] && echo --resume ) >/dev/null
    RECORDS="$RECORDS $OUT/selfplay/games.jsonl"
fi
[ -n "$RECORDS" ] || { echo "no records: set RECORDS or GAMES" >&2; exit 2; }
TEXEL_GAMES="$RECORDS" TEXEL_OUT="$OUT/features" \
    cargo test --release --lib texel_features -- --ignored --nocapture 2>&1 | grep -E 'games,'
python3 -c 'import numpy' 2>/dev/null || python3 -m pip install --quiet numpy
python3 "$(dirname "$0")/texel.py" "$OUT/features" --epochs "$EPOCHS" --l2 "$L2" \
    --out "$OUT/fitted.json"
