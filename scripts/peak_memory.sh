#!/usr/bin/env bash
# Peak memory (maximum resident set, /usr/bin/time's %M) of one engine process per game,
# thread count and USI_Hash: usi, the options, isready, a position of the game, one search
# of MOVETIME ms, quit. Prints a Markdown table: the peak, and the overhead over USI_Hash.
#
#   scripts/peak_memory.sh [MOVETIME_MS (2000)] [HASH_MB list ("16 256")] [THREADS list ("1 2")]
set -euo pipefail
cd "$(dirname "$0")/.."
MOVETIME=${1:-2000}
HASHES=${2:-16 256}
THREADS=${3:-1 2}
ENGINE=${ENGINE:-./target/release/shishi}
[ -x "$ENGINE" ] || cargo build --release
[ -x /usr/bin/time ] || apt-get install -y time >/dev/null

position() {
    case "$1" in
        shogi) echo "position startpos moves 7g7f 3c3d" ;;
        chushogi) echo "position startpos" ;;
        chukagamigi) echo "position startpos" ;;
        shogammon) echo "position startpos moves r:61 7g7f 5i4h r:33" ;;
        madness) echo "position startpos moves draw:3 draw:? 7g7f" ;;
    esac
}

echo "| game | threads | USI_Hash (MiB) | peak RSS (MiB) | over USI_Hash (MiB) |"
echo "|---|---|---|---|---|"
for game in shogi chushogi chukagamigi shogammon madness; do
    for threads in $THREADS; do
        for hash in $HASHES; do
            kb=$( { printf 'usi\nsetoption name USI_Variant value %s\nsetoption name Threads value %s\nsetoption name USI_Hash value %s\nisready\n%s\ngo movetime %s\n' \
                    "$game" "$threads" "$hash" "$(position "$game")" "$MOVETIME"
                    sleep $(( MOVETIME / 1000 + 2 )); echo quit; } |
                /usr/bin/time -f '%M' "$ENGINE" 2>&1 >/dev/null | tail -1)
            mib=$(( kb / 1024 ))
            echo "| $game | $threads | $hash | $mib | $(( mib - hash )) |"
        done
    done
done
