#!/bin/sh
# Tree size from the start position (issue 38's bar): the nodes the search needs to complete
# each depth, one thread, 16 MiB hash, over USI (`position startpos`, `go depth N`). Prints
# one line per depth, "depth nodes time_ms", from the last `info depth N ... nodes` before
# `bestmove` (the completed iteration, not a bound line). Extra USI options as
# `Name=Value` arguments (e.g. `Search_LmrDivisor=200`).
#   BIN=target/release/shishi DEPTHS="18 19 20 21 22" scripts/tree_size.sh [Option=Value...]
# Each depth is a fresh process: the table and histories start empty.
set -eu
BIN=${BIN:-target/release/shishi}
DEPTHS=${DEPTHS:-"18 19 20 21 22"}
HASH=${HASH:-16}
DONE=$(mktemp)
trap 'rm -f "$DONE"' EXIT
for d in $DEPTHS; do
    : >"$DONE"
    {
        echo usi
        echo "setoption name USI_Hash value $HASH"
        echo "setoption name Threads value 1"
        for opt in "$@"; do
            echo "setoption name ${opt%%=*} value ${opt#*=}"
        done
        echo isready
        echo "position startpos"
        echo "go depth $d"
        # Keep stdin open until the search has answered, then quit.
        while [ ! -s "$DONE" ]; do sleep 0.2; done
        echo quit
    } | "$BIN" 2>/dev/null | {
        # (A shell loop, not awk: mawk reads a pipe in blocks and would wait for more.)
        nodes=? ms=?
        while read -r line; do
            set -- $line
            case "$line" in
            *bound*) ;;
            "info depth $d "*)
                while [ $# -gt 1 ]; do
                    case $1 in
                    nodes) nodes=$2 ;;
                    time) ms=$2 ;;
                    esac
                    shift
                done
                ;;
            bestmove*)
                echo "$d $nodes $ms"
                echo done >"$DONE"
                ;;
            esac
        done
    }
done
