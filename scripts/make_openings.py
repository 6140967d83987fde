#!/usr/bin/env python3
"""Writes positions/openings/shogi.txt: short, varied, named opening lines from the start
position, each checked move by move with cshogi (pip install cshogi).

The lines are hand-picked from common systems (static rook, ranging rook, bishop exchange,
side pawn and so on) so that a match does not replay one game over and over. Run from the
repository root: python3 scripts/make_openings.py
"""
import sys

import cshogi

LINES = [
    ("Yagura", "7g7f 8c8d 6i7h 3c3d 6g6f 7a6b 5g5f 5c5d 3i4h 3a4b"),
    ("Yagura, early 5th file", "7g7f 8c8d 6g6f 3c3d 6i7h 7a6b 5g5f 5c5d"),
    ("Aigakari", "2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d"),
    ("Yokofudori", "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f"),
    ("Side pawn, 3-3 bishop", "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d3d 2b3c"),
    ("Bishop exchange", "7g7f 8c8d 2g2f 3c3d 8h2b+ 3a2b 7i8h 2b3c"),
    ("Bishop exchange, climbing silver", "7g7f 8c8d 2g2f 3c3d 8h2b+ 3a2b 7i8h 4a3b 3i3h 7a7b"),
    ("Bishop exchange, sente declines", "7g7f 3c3d 2g2f 4a3b 2f2e 2b8h+ 7i8h 3a2b"),
    ("Ai-bogin", "2g2f 8c8d 2f2e 8d8e 3i3h 7a7b 3h2g 7b8c"),
    ("Double wing attack, gote 3-4 pawn", "2g2f 8c8d 2f2e 8d8e 7g7f 4a3b 8h7g 3c3d 7i8h 2b7g+ 8h7g"),
    ("Gote Shikenbisha", "7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b4b"),
    ("Gote Shikenbisha vs anaguma", "7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 5i6h 8b4b 6h7h 5a6b"),
    ("Gote Nakabisha", "7g7f 3c3d 2g2f 5c5d 2f2e 8b5b"),
    ("Gokigen Nakabisha", "7g7f 3c3d 2g2f 5c5d 2f2e 5d5e 5i6h 8b5b"),
    ("Gote Sangenbisha", "7g7f 3c3d 2g2f 4c4d 3i4h 8b7b"),
    ("Gote Mukaibisha", "7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b2b"),
    ("Gote Ishida", "7g7f 3c3d 2g2f 3d3e 2f2e 8b3b"),
    ("Gote Sangenbisha, 7-4 pawn", "7g7f 3c3d 2g2f 7c7d 2f2e 8b7b"),
    ("Sente Shikenbisha", "7g7f 8c8d 6g6f 3c3d 2h6h 7a6b"),
    ("Sente Sangenbisha", "7g7f 8c8d 2h7h 3c3d 5i4h 5a4b"),
    ("Sente Nakabisha", "5g5f 8c8d 2h5h 3c3d 7g7f 8d8e 8h7g"),
    ("Sente Mukaibisha", "7g7f 3c3d 6g6f 8c8d 8h7g 8d8e 2h8h"),
    ("Sente Ishida", "7g7f 3c3d 7f7e 8c8d 2h7h"),
    ("Sente Shikenbisha vs left anaguma", "6g6f 3c3d 2h6h 8c8d 5i4h 8d8e 7g7f 4a3b"),
    ("Static rook, early 1st file", "7g7f 3c3d 1g1f 1c1d 2g2f 4c4d"),
    ("Static rook, 9th file", "7g7f 3c3d 9g9f 9c9d 2g2f 8c8d"),
    ("Tateishi", "7g7f 3c3d 7f7e 8c8d 7i6h 8d8e 8h7g"),
    ("Hineri bisha", "7g7f 8c8d 2g2f 8d8e 8h7g 3c3d 7i8h 4a3b 2f2e 2b7g+ 8h7g"),
    ("Right Shikenbisha", "7g7f 3c3d 2g2f 4c4d 4g4f 8b4b 2h4h"),
    ("Gote pawn push 8-5", "7g7f 8c8d 2g2f 8d8e 8h7g 3c3d 7i6h"),
    ("Crab", "7g7f 8c8d 6g6f 8d8e 8h7g 3c3d 7i6h 7a6b 6i7h"),
    ("Silver horns", "7g7f 8c8d 6g6f 3c3d 7i6h 7a6b 4i5h 6a5b 5i4h 5a4b"),
    ("Left side attack", "7g7f 3c3d 6g6f 8c8d 7i6h 7a6b 5g5f 5c5d 6i7h 3a4b 5i6i 4a3b"),
    ("Snowroof", "7g7f 8c8d 2g2f 3c3d 2f2e 2b3c 6i7h 8d8e 8h7g 3c7g+ 7h7g"),
    ("Sente 5-7 silver", "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 3i4h"),
    ("Gote quick Ishida", "7g7f 3c3d 2g2f 3d3e 2f2e 2b3c 6i7h 8b3b"),
    ("Kakugawari Koshikake-gin", "7g7f 8c8d 2g2f 3c3d 8h2b+ 3a2b 7i8h 2b3c 3i3h 7a6b 8h7g 6c6d"),
    ("Tsuno-gin Chugakari", "7g7f 8c8d 2g2f 8d8e 2f2e 4a3b 8h7g 3c3d 7i8h 2b7g+ 8h7g 3a2b"),
    ("Early edge and rook", "1g1f 8c8d 7g7f 3c3d 2h7h"),
    ("Gote early bishop 2-2", "7g7f 3c3d 2g2f 2b8h+ 7i8h 8c8d"),
    ("Sente 4-8 silver", "2g2f 3c3d 7g7f 4c4d 3i4h 8b4b 5i6h"),
    ("Gote 4-4 silver", "7g7f 8c8d 2g2f 3c3d 6i7h 3a4b 2f2e 4b3c 5i6h 7a6b"),
    ("King's side quick", "7g7f 3c3d 5i6h 8c8d 6h7h 8d8e 8h7g 7a6b"),
    ("Gote 5-4 silver", "7g7f 3c3d 2g2f 5c5d 2f2e 3a4b 5i6h 4b5c 6h7h 7a6b"),
]


def main():
    out = ["# Standard-shogi openings for `shishi match` (USI moves from the start position).",
           "# Generated and checked with cshogi by scripts/make_openings.py; one line each,",
           "# played twice with colours swapped. The comment after each line names the system."]
    seen = set()
    for name, line in LINES:
        board = cshogi.Board()
        for i, mv in enumerate(line.split()):
            move = board.move_from_usi(mv)
            if move == 0 or not board.is_legal(move):
                sys.exit(f"{name}: move {i + 1} ({mv}) is illegal in {board.sfen()}")
            board.push(move)
            if board.is_game_over():
                sys.exit(f"{name}: the game is over after {mv}")
        if line in seen:
            sys.exit(f"{name}: duplicate line")
        seen.add(line)
        out.append(f"{line}  # {name}")
    with open("positions/openings/shogi.txt", "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {len(LINES)} openings")


if __name__ == "__main__":
    main()
