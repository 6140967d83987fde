#!/usr/bin/env bash
# Cross-checks Shishi's opening books with YaneuraOu's, both ways:
#  1. a book written by Shishi (`shishi book from-games` on the test fixtures' games and
#     any records in $BOOK_GAMES, then `shishi book analyse`) is read by YaneuraOu, and both
#     engines, asked every position of the book, play the same book moves;
#  2. YaneuraOu's `makebook peta_shock` rewrites that book (its own writer: min-max values,
#     no counts, a `# NOE:` line), and Shishi reads YaneuraOu's book and plays the same
#     moves as YaneuraOu from it.
# YaneuraOu is built from its source in a scratch folder outside the repository (its
# material edition, which has the book and `makebook` commands); nothing of it is kept here.
#
# Usage: YANEURAOU_SRC=/path/to/YaneuraOu scripts/book_crosscheck.sh
#   YANEURAOU_SRC  a YaneuraOu checkout (with source/) or a bare git repository of it
#   YO_BUILD       the scratch folder (default /tmp/yo-book); an existing build is reused
#   SHISHI         the shishi binary (default target/release/shishi, built if missing)
#   BOOK_DEPTH     the depth of `shishi book analyse` (default 4)
#   BOOK_GAMES     more records for the book (KIF, CSA, .usi, games.jsonl), space-separated
#   CXX, TARGET_CPU  YaneuraOu's compiler (g++) and CPU target (AVX2)
set -euo pipefail
SRC=${YANEURAOU_SRC:?set YANEURAOU_SRC to YaneuraOu\'s source (a checkout or a bare git repository)}
BUILD=${YO_BUILD:-/tmp/yo-book}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHISHI=${SHISHI:-$ROOT/target/release/shishi}
DEPTH=${BOOK_DEPTH:-4}
YO=$BUILD/bin/YaneuraOu

if [ ! -x "$SHISHI" ]; then
    (cd "$ROOT" && cargo build --release)
fi

if [ ! -x "$YO" ]; then
    rm -rf "$BUILD/src"
    mkdir -p "$BUILD/src"
    if [ -d "$SRC/source" ]; then
        cp -r "$SRC/source" "$BUILD/src/"
    else
        git -C "$SRC" archive HEAD source | tar -x -C "$BUILD/src"
    fi
    (cd "$BUILD/src/source" &&
        nice -n 10 make -j2 normal YANEURAOU_EDITION=YANEURAOU_ENGINE_MATERIAL \
            COMPILER="${CXX:-g++}" TARGET_CPU="${TARGET_CPU:-AVX2}" >"$BUILD/build.log" 2>&1)
    mkdir -p "$BUILD/bin"
    cp "$(ls "$BUILD"/src/source/YaneuraOu-by-* | head -1)" "$YO"
fi
mkdir -p "$BUILD/bin/book"
WORK=$BUILD/work
rm -rf "$WORK"
mkdir -p "$WORK"

echo "== Shishi writes a book"
# shellcheck disable=SC2086
"$SHISHI" book from-games --plies 16 -o "$WORK/counted.db" \
    "$ROOT"/engine-tests/fixtures/*.kifu "$ROOT"/engine-tests/fixtures/*.csa \
    "$ROOT"/engine-tests/fixtures/*.usi ${BOOK_GAMES:-}
"$SHISHI" book analyse "$WORK/counted.db" --depth "$DEPTH" --add-best -o "$WORK/shishi.db"
"$SHISHI" book stats "$WORK/shishi.db" --variant shogi
cp "$WORK/shishi.db" "$BUILD/bin/book/user_book1.db"

echo "== YaneuraOu and Shishi play from Shishi's book"
python3 "$ROOT/scripts/book_crosscheck.py" "$WORK/shishi.db" \
    "$BUILD/bin:./YaneuraOu:user_book1.db" "$WORK:$SHISHI:shishi.db"

echo "== YaneuraOu writes a book (makebook peta_shock)"
rm -f "$BUILD/bin/book/user_book2.db"
(cd "$BUILD/bin" && printf 'setoption name USI_Hash value 16\nmakebook peta_shock user_book1.db user_book2.db\nquit\n' |
    ./YaneuraOu >"$WORK/makebook.log" 2>&1)
cp "$BUILD/bin/book/user_book2.db" "$WORK/yaneuraou.db"
head -3 "$WORK/yaneuraou.db"
"$SHISHI" book stats "$WORK/yaneuraou.db" --variant shogi

echo "== YaneuraOu and Shishi play from YaneuraOu's book"
python3 "$ROOT/scripts/book_crosscheck.py" "$WORK/yaneuraou.db" \
    "$BUILD/bin:./YaneuraOu:user_book2.db" "$WORK:$SHISHI:yaneuraou.db"
echo "book cross-check passed"
