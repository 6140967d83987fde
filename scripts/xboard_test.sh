#!/usr/bin/env bash
# A real XBoard run with Shishi as a CECP engine, under a virtual X server (Xvfb):
#   1. Chu Shogi, Shishi (first engine, sente) against HaChu in XBoard's two-machines mode;
#   2. Chu Kagamigi (an engine-defined variant: XBoard draws it from Shishi's `setup` and
#      `piece` commands), Shishi against Shishi.
# Each game is played to its end (or XBoard's draw adjudication after ADJUDICATE moves).
# Saves a screenshot of the final position and XBoard's debug file per game in $OUT, and
# fails when the debug file shows an illegal move, an engine error or a protocol complaint.
# Installs xboard, xvfb, imagemagick (and hachu) with apt-get when missing; builds the
# release binary.
#
#   scripts/xboard_test.sh [chu|kagamigi ...]      (default: both)
#
# Environment: OUT (target/xboard-<time>), TC and INC (XBoard's -tc minutes and -inc seconds:
# 1 and 1, about 2 s a move; a clock rather than XBoard's -searchTime, whose per-move limit
# a search on a loaded machine can overrun),
# ADJUDICATE (150: XBoard's -adjudicateDrawMoves), GAME_TIMEOUT (1800 s per game),
# LEGALITY (false: XBoard's -testLegality for Chu Kagamigi; Chu is always tested),
# SHISHI_BIN (the Shishi binary; default: the release build, built first),
# XBOARD (the XBoard to run; default: the installed one), HOLDINGS (the holdings slots
# Shishi asks XBoard for in Chu Kagamigi, its option XBoardHoldings: 16, what a stock
# XBoard can draw, or 24 when XBOARD is given: an XBoard built with BOARD_RANKS of at least
# 25 holds every kind; see docs/XBOARD.md).
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=${OUT:-target/xboard-$(date -u +%Y%m%d-%H%M%S)}
TC=${TC:-1}
INC=${INC:-1}
ADJUDICATE=${ADJUDICATE:-150}
GAME_TIMEOUT=${GAME_TIMEOUT:-1800}
LEGALITY=${LEGALITY:-false}
GAMES=("$@")
[ ${#GAMES[@]} -eq 0 ] && GAMES=(chu kagamigi)

if [ -n "${XBOARD:-}" ]; then
    HOLDINGS=${HOLDINGS:-24}
else
    HOLDINGS=${HOLDINGS:-16}
fi
need=()
[ -n "${XBOARD:-}" ] || command -v xboard >/dev/null || [ -x /usr/games/xboard ] || need+=(xboard)
command -v Xvfb >/dev/null || need+=(xvfb)
command -v import >/dev/null || need+=(imagemagick)
if [ ${#need[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update >&2
    $SUDO apt-get install -y "${need[@]}" >&2
fi
XBOARD=${XBOARD:-$(command -v xboard || echo /usr/games/xboard)}
HACHU=$(scripts/install_hachu.sh)
if [ -z "${SHISHI_BIN:-}" ]; then
    cargo build --release
    SHISHI_BIN="$(pwd)/target/release/shishi"
fi
SHISHI="$SHISHI_BIN --xboard"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# A free display number.
DISPLAY_NUMBER=90
while [ -e "/tmp/.X11-unix/X$DISPLAY_NUMBER" ] || [ -e "/tmp/.X$DISPLAY_NUMBER-lock" ]; do
    DISPLAY_NUMBER=$((DISPLAY_NUMBER + 1))
done
# Tall enough for Chu Kagamigi's board stretched to 24 ranks beside 24 holdings slots.
Xvfb ":$DISPLAY_NUMBER" -screen 0 1600x1800x24 -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
XVFB_PID=$!
XBOARD_PID=""
cleanup() {
    [ -n "$XBOARD_PID" ] && kill "$XBOARD_PID" 2>/dev/null || true
    kill "$XVFB_PID" 2>/dev/null || true
}
trap cleanup EXIT
export DISPLAY=":$DISPLAY_NUMBER"
sleep 2

# Runs one game: NAME VARIANT LEGALITY SECOND_ENGINE [FIRST_ENGINE_OPTIONS].
play() {
    local name=$1 variant=$2 legality=$3 second=$4 options=${5:-}
    local debug="$OUT/$name-debug.txt" pgn="$OUT/$name.pgn" shot="$OUT/$name.png"
    rm -f "$debug" "$pgn"
    echo "== $name: $variant, $SHISHI against $second, $TC min + $INC s, $XBOARD" >&2
    # A fresh settings file per game, so that nothing saved by one run changes the next.
    local settings="$OUT/$name-xboardrc"
    : >"$settings"
    HOME="$OUT" "$XBOARD" -settingsFile "$settings" -saveSettingsFile "$settings" \
        -variant "$variant" -testLegality "$legality" \
        -fcp "$SHISHI" -fd "$(pwd)" -firstOptions "$options" -scp "$second" -sd "$(pwd)" \
        -initialMode TwoMachines -tc "$TC" -inc "$INC" \
        -adjudicateDrawMoves "$ADJUDICATE" -popupExitMessage false -popupMoveErrors false \
        -autoCallFlag true -ponderNextMove false -size Average -showCoords true \
        -saveGameFile "$pgn" -debug -nameOfDebugFile "$debug" \
        >"$OUT/$name-xboard-stdout.txt" 2>&1 &
    XBOARD_PID=$!
    local waited=0
    # The game is over when XBoard records its result (GameEnds(0, …) at start-up is not one).
    until grep -q "^GameEnds([1-9]" "$debug" 2>/dev/null; do
        if ! kill -0 "$XBOARD_PID" 2>/dev/null; then
            echo "$name: XBoard exited before the game ended" >&2
            break
        fi
        if [ "$waited" -ge "$GAME_TIMEOUT" ]; then
            echo "$name: no result after $GAME_TIMEOUT s" >&2
            break
        fi
        sleep 5
        waited=$((waited + 5))
        # A running picture, replaced every 5 s.
        import -window root "$shot" 2>/dev/null || true
    done
    sleep 3
    import -window root "$shot"
    kill "$XBOARD_PID" 2>/dev/null || true
    wait "$XBOARD_PID" 2>/dev/null || true
    XBOARD_PID=""
    local result
    result=$(grep -o "^GameEnds([1-9][^)]*)" "$debug" | head -1 || true)
    local moves
    moves=$(grep -c "^[0-9]* >first *: \(usermove\|move\)\|^[0-9]* <first *: move " "$debug" || true)
    echo "$name: ${result:-no result}; screenshot $shot; debug file $debug" >&2
    # Complaints: an illegal move (either side), an engine's error reply, XBoard refusing a
    # setup or a variant.
    if grep -n -i -E "illegal move|invalid move|Forfeit|Error \(|tellusererror|non-compliant|did not send setup|Unknown variant|Bad FEN" "$debug" >"$OUT/$name-complaints.txt"; then
        echo "$name: complaints in the debug file:" >&2
        head -20 "$OUT/$name-complaints.txt" >&2
        return 1
    fi
    [ -n "$result" ] || return 1
    echo "$name: no complaint ($moves move lines)" >&2
}

status=0
for game in "${GAMES[@]}"; do
    case $game in
        chu) play chu chu true "$HACHU" || status=1 ;;
        kagamigi)
            play kagamigi chukagamigi "$LEGALITY" "$SHISHI" "XBoardHoldings=$HOLDINGS" || status=1 ;;
        *) echo "unknown game $game (chu or kagamigi)" >&2; exit 2 ;;
    esac
done
exit $status
