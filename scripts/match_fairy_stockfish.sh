#!/bin/sh
# Shishi against Fairy-Stockfish in minishogi, both over USI (Fairy-Stockfish offers
# `USI_Variant minishogi` once it is sent `usi`). Fairy-Stockfish is not part of this
# repository: give the folder of its source (the one holding `src/Makefile`); it is built
# there without a net (classical evaluation), nothing of it is kept here.
#
# Usage: scripts/match_fairy_stockfish.sh FSF_SOURCE [GAMES] [TC] [OUT] [SHISHI]
#   GAMES  default 40;  TC default byo0.3 (byoyomi 0.3 s);  OUT default /tmp/fsf-match
#   SHISHI default target/release/shishi (cargo build --release)
set -eu
FSF_SOURCE=$1
GAMES=${2:-40}
TC=${3:-byo0.3}
OUT=${4:-/tmp/fsf-match}
SHISHI=${5:-target/release/shishi}
FSF="$FSF_SOURCE/src/stockfish"
if [ ! -x "$FSF" ]; then
    (cd "$FSF_SOURCE/src" && nice -n 10 make -j2 build ARCH=x86-64)
fi
nice -n 10 "$SHISHI" match --variant minishogi \
    --engine1 "$SHISHI" --name1 shishi \
    --engine2 "$FSF" --name2 fairy-stockfish \
    --games "$GAMES" --tc "$TC" --concurrency 1 --out "$OUT"
