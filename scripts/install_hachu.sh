#!/usr/bin/env bash
# Prints the path of HaChu (H. G. Muller's Chu Shogi engine, CECP), installing Debian's
# `hachu` package with apt-get first when it is missing. Used by scripts/match_hachu.sh and
# scripts/make_chu_openings.py.
set -euo pipefail

find_hachu() {
    command -v hachu || { [ -x /usr/games/hachu ] && echo /usr/games/hachu; } || true
}
HACHU=$(find_hachu)
if [ -z "$HACHU" ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update >&2
    $SUDO apt-get install -y hachu >&2
    HACHU=$(find_hachu)
fi
[ -n "$HACHU" ] || { echo "hachu could not be installed" >&2; exit 1; }
echo "$HACHU"
