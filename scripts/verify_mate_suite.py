#!/usr/bin/env python3
"""Re-verify positions/mate/shogi.mate (and nomate.mate) with cshogi.

For every problem line `<sfen> ; <plies> ; <usi moves>` checks that:
  (a) each solution move is legal when replayed and the final position is
      checkmate (side to move in check, no legal moves);
  (b) every attacker move (even plies from 0) gives check and the last move
      is not a pawn drop (uchifuzume);
  plus: plies is odd and equals the number of moves, the sfen has 4 fields,
  and for plies <= 7 cshogi finds no shorter mate (mate_move / 1-ply scan).
For nomate.mate lines `<sfen> ; nomate` checks cshogi.DfPn finds no mate.
Exits non-zero on any failure.  Usage: verify_mate_suite.py [files...]
"""
import os
import subprocess
import sys
import time

try:
    import cshogi
except ImportError:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", "cshogi"])
    import cshogi

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MATE_FILE = os.path.join(ROOT, "positions", "mate", "shogi.mate")
NOMATE_FILE = os.path.join(ROOT, "positions", "mate", "nomate.mate")
NOMATE_NODES = 2_000_000


def has_mate_in_1(board):
    """Exhaustive 1-ply scan (mate_move_in_1ply alone is not complete)."""
    if board.mate_move_in_1ply():
        return True
    for m in list(board.check_moves):
        board.push(m)
        mated = not any(True for _ in board.legal_moves)
        board.pop()
        if mated:
            return True
    return False


def verify_problem(sfen, plies, moves):
    if len(sfen.split()) != 4:
        return "sfen must have 4 fields"
    if plies % 2 != 1 or plies != len(moves):
        return f"plies={plies} but solution has {len(moves)} moves (must be odd and equal)"
    board = cshogi.Board()
    board.set_sfen(sfen)
    if board.is_check():
        return "side to move is already in check"
    for i, usi in enumerate(moves):
        m = board.move_from_usi(usi)
        if m == 0 or not board.is_legal(m):
            return f"ply {i + 1}: illegal move {usi}"
        board.push(m)
        if i % 2 == 0 and not board.is_check():
            return f"ply {i + 1}: attacker move {usi} does not give check"
    if not board.is_check() or any(True for _ in board.legal_moves):
        return "final position is not checkmate"
    if moves[-1].startswith("P*"):
        return "solution ends with a pawn-drop mate (uchifuzume)"
    if plies <= 7:
        board.set_sfen(sfen)
        if plies > 1 and has_mate_in_1(board):
            return "a mate in 1 exists"
        for p in range(3, plies, 2):
            if board.mate_move(p):
                return f"a shorter mate in {p} exists"
    return None


def verify_nomate(sfen):
    board = cshogi.Board()
    board.set_sfen(sfen)
    dfpn = cshogi.DfPn(nodes=NOMATE_NODES)
    if dfpn.search(board):
        return "DfPn found a mate: " + " ".join(cshogi.move_to_usi(m) for m in dfpn.get_pv(board))
    return None


def main(argv):
    files = argv or [f for f in (MATE_FILE, NOMATE_FILE) if os.path.exists(f)]
    failures = count = 0
    t0 = time.time()
    for path in files:
        with open(path) as fh:
            for lineno, line in enumerate(fh, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                fields = [f.strip() for f in line.split(";")]
                count += 1
                try:
                    if len(fields) == 2 and fields[1] == "nomate":
                        err = verify_nomate(fields[0])
                    elif len(fields) == 3:
                        err = verify_problem(fields[0], int(fields[1]), fields[2].split())
                    else:
                        err = "malformed line"
                except Exception as exc:  # malformed sfen/move etc.
                    err = f"exception: {exc!r}"
                if err:
                    failures += 1
                    print(f"FAIL {os.path.basename(path)}:{lineno}: {err}\n    {line}")
    print(f"verified {count} positions in {time.time() - t0:.1f}s, {failures} failure(s)")
    return 1 if failures or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
