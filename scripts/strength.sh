#!/usr/bin/env bash
# Standard-shogi strength table (issue 13): Shishi against Fairy-Stockfish 11.1 (the Debian
# package `fairy-stockfish`, classical evaluation) and against YaneuraOu with its
# material-only evaluation, one thread each, byoyomi 0.3 s, GAMES games in colour-swapped
# pairs from positions/openings/shogi.txt. SETTING=slow plays the second setting, byoyomi 1 s.
#
#   scripts/strength.sh [extra shishi match options, e.g. --resume]
#
# Environment:
#   GAMES (200), SETTING (fast = byo0.3, slow = byo1; TC overrides both), CONCURRENCY (1),
#   OPPONENTS ("fairy yaneuraou"; either alone is fine), FAIRY (its path), SHISHI (./target/release/shishi,
#   built when it is the default), YANEURAOU (path of a YaneuraOu material binary),
#   TIME_MARGIN (1000 ms: a loaded machine's scheduler stalls are not counted as forfeits),
#   OUT (target/matches/strength-<time>; one sub-directory per opponent),
#   FIRST_PAIR (1): the match starts at this pair of the opening cycle, so that a long run
#   can be played in parts (on other days or machines) with the openings a single run would
#   have used: the first 100 games, then FIRST_PAIR=51 GAMES=100 into another OUT, and
#   `scripts/sprt_records.py A/games.jsonl B/games.jsonl` counts them together.
#
# Fairy-Stockfish speaks USI after the `usi` command and plays shogi by default. YaneuraOu
# is not packaged: build it from its source (github.com/yaneurao/YaneuraOu), in source/:
#
#   make normal TARGET_CPU=AVX2 YANEURAOU_EDITION=YANEURAOU_ENGINE_MATERIAL COMPILER=g++
#
# and pass the binary as YANEURAOU=/path/to/YaneuraOu-by-gcc. It is sent BookFile=no_book,
# NetworkDelay=0 and NetworkDelay2=0; Shishi is sent NetworkDelay=0 and NetworkDelay2=0 too,
# so both think for the whole byoyomi.
#
# OPPONENTS=yaneuraou-nnue plays the match that isolates search: YANEURAOU_NNUE names a
# YaneuraOu NNUE-edition binary (halfkp_256x2-32-32; scripts/nnue_crosscheck.py builds one
# from its source), NET an nn.bin, and both engines evaluate with that one file (YaneuraOu
# through EvalDir, the file's folder, Shishi through EvalFile). With NET set, Shishi uses
# it against the other opponents too.
#
# CONCURRENCY stays 1 by default, so that the outside engine's threads never share a core
# with a second game; 2 is fair to both engines (docs/MATCH.md, "Concurrency 2 on two cores:
# no engine-1 bias").
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-200}
case "${SETTING:-fast}" in
fast) DEFAULT_TC=byo0.3 ;;
slow) DEFAULT_TC=byo1 ;;
*)
    echo "SETTING must be fast or slow, not '${SETTING}'" >&2
    exit 2
    ;;
esac
TC=${TC:-$DEFAULT_TC}
CONCURRENCY=${CONCURRENCY:-1}
OPPONENTS=${OPPONENTS:-fairy yaneuraou}
TIME_MARGIN=${TIME_MARGIN:-1000}
OUT=${OUT:-target/matches/strength-$(date -u +%Y%m%d-%H%M%S)}
FIRST_PAIR=${FIRST_PAIR:-1}
OPENINGS=positions/openings/shogi.txt
if [ "$FIRST_PAIR" != 1 ]; then
    # Pair k plays the k-th opening of the file, cycling: rotate the openings (comments and
    # blank lines left out) to start at FIRST_PAIR.
    mkdir -p "$OUT"
    listed="$OUT/openings.txt"
    grep -v '^#' "$OPENINGS" | grep . >"$listed"
    count=$(wc -l <"$listed")
    first=$(((FIRST_PAIR - 1) % count + 1))
    rotated="$OUT/openings-from-pair-$FIRST_PAIR.txt"
    { tail -n +"$first" "$listed"; head -n "$((first - 1))" "$listed"; } >"$rotated"
    OPENINGS=$rotated
fi

if [ -z "${SHISHI:-}" ]; then
    cargo build --release
    SHISHI=./target/release/shishi
fi

SHISHI_ARGS=(--engine1 "$SHISHI" --name1 shishi
    --option1 Threads=1 --option1 NetworkDelay=0 --option1 NetworkDelay2=0)
if [ -n "${NET:-}" ]; then
    SHISHI_ARGS+=(--option1 "EvalFile=$(realpath "$NET")")
fi

for opponent in $OPPONENTS; do
    case "$opponent" in
    fairy)
        # Debian installs it in /usr/games, which is not always on PATH.
        FAIRY=${FAIRY:-$(command -v fairy-stockfish || command -v /usr/games/fairy-stockfish || true)}
        if [ -z "$FAIRY" ]; then
            echo "fairy-stockfish is not installed: apt-get install fairy-stockfish" >&2
            exit 2
        fi
        OPPONENT_ARGS=(--engine2 "$FAIRY" --name2 fairy-stockfish --option2 Threads=1)
        ;;
    yaneuraou)
        if [ -z "${YANEURAOU:-}" ] || [ ! -x "$YANEURAOU" ]; then
            cat >&2 <<'EOF'
YANEURAOU must name a YaneuraOu material binary. Build one from its source:
  git clone https://github.com/yaneurao/YaneuraOu && cd YaneuraOu/source
  make normal TARGET_CPU=AVX2 YANEURAOU_EDITION=YANEURAOU_ENGINE_MATERIAL COMPILER=g++
then YANEURAOU=$PWD/YaneuraOu-by-gcc scripts/strength.sh
EOF
            exit 2
        fi
        OPPONENT_ARGS=(--engine2 "$YANEURAOU" --name2 yaneuraou-material
            --option2 Threads=1 --option2 USI_Hash=256 --option2 BookFile=no_book
            --option2 NetworkDelay=0 --option2 NetworkDelay2=0)
        ;;
    yaneuraou-nnue)
        if [ -z "${YANEURAOU_NNUE:-}" ] || [ ! -x "$YANEURAOU_NNUE" ] || [ -z "${NET:-}" ]; then
            echo "yaneuraou-nnue needs YANEURAOU_NNUE (a YaneuraOu NNUE-edition binary) and NET (an nn.bin)" >&2
            exit 2
        fi
        if [ "$(basename "$NET")" != nn.bin ]; then
            echo "NET must be named nn.bin: YaneuraOu reads EvalDir/nn.bin" >&2
            exit 2
        fi
        OPPONENT_ARGS=(--engine2 "$YANEURAOU_NNUE" --name2 yaneuraou-nnue
            --option2 Threads=1 --option2 USI_Hash=256 --option2 BookFile=no_book
            --option2 NetworkDelay=0 --option2 NetworkDelay2=0
            --option2 "EvalDir=$(dirname "$(realpath "$NET")")")
        ;;
    *)
        echo "unknown opponent '$opponent' (fairy, yaneuraou or yaneuraou-nnue)" >&2
        exit 2
        ;;
    esac
    echo "== shishi vs $opponent: $GAMES games, tc $TC, concurrency $CONCURRENCY" >&2
    "$SHISHI" match \
        "${SHISHI_ARGS[@]}" "${OPPONENT_ARGS[@]}" \
        --games "$GAMES" --tc "$TC" --concurrency "$CONCURRENCY" \
        --time-margin "$TIME_MARGIN" \
        --openings "$OPENINGS" --out "$OUT/$opponent" "$@"
done
