#!/usr/bin/env python3
"""Seeded Chu Kagamigi test positions for positions/perft/chukagamigi.perft: every piece kind,
promoted and unpromoted, scattered on or next to the board edges around two kings, with small
hands. Positions the engine refuses (side not to move in check, ...) are redrawn.

Usage: scripts/kagamigi_scatter_positions.py [shishi binary]  (prints one SFEN per line)
"""
import random
import subprocess
import sys

BIN = sys.argv[1] if len(sys.argv) > 1 else "./target/release/shishi"
BASE = "PLNSGFYEIBRXOUVMWHJQTCDA"  # hand kinds in engine order
PROMOTING = BASE[:21]
KINDS = [("+" + c) for c in PROMOTING] + list(BASE)  # 45 non-king kinds


def edge_squares():
    return [(f, r) for f in range(1, 13) for r in range(12) if f in (1, 2, 11, 12) or r in (0, 1, 10, 11)]


def sfen(board, side, hands):
    rows = []
    for r in range(12):
        row, empty = "", 0
        for f in range(12, 0, -1):
            p = board.get((f, r))
            if p is None:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += p
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + f" {side} {hands or '-'} 1"


def valid(text):
    out = subprocess.run([BIN, "perft", "--variant", "chukagamigi", "--sfen", text, "--depth", "1"],
                         capture_output=True, text=True)
    return out.returncode == 0


def dead(kind, sente, rank):
    edge = rank if sente else 11 - rank
    return (kind in "PL" and edge < 1) or (kind == "N" and edge < 2)


def main():
    rng = random.Random(2026)
    per = 9
    groups = [KINDS[i:i + per] for i in range(0, len(KINDS), per)]
    for group in groups:
        while True:
            board = {}
            squares = edge_squares()
            rng.shuffle(squares)
            k1 = squares.pop()
            k2 = next(s for s in squares if max(abs(s[0] - k1[0]), abs(s[1] - k1[1])) > 2)
            squares.remove(k2)
            board[k1], board[k2] = "K", "k"
            pawn_files = set()
            for kind in group:
                sente = rng.random() < 0.5
                base = kind[-1]
                for sq in squares:
                    if sq in board or (kind == base and dead(base, sente, sq[1])):
                        continue
                    if kind == "P" and (sq[0], sente) in pawn_files:
                        continue
                    break
                if kind == "P":
                    pawn_files.add((sq[0], sente))
                board[sq] = kind if sente else kind.lower()
            order = "ADCTQJHWMVUOXRBIEYFGSNLP"  # the engine writes hands in this order
            hand = "".join(sorted(rng.sample("GSNLP", 2), key=order.index))
            hand += "".join(sorted(rng.sample("GSNLP", 2), key=order.index)).lower()
            side = rng.choice("bw")
            text = sfen(board, side, hand)
            if valid(text):
                print(text)
                break


main()
