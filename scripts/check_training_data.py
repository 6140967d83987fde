#!/usr/bin/env python3
"""Reads a file of YaneuraOu PackedSfenValue records (what `shishi gensfen` writes) with
cshogi, an implementation of the format that is not Shishi's, and checks it.

Every record: the position unpacks (cshogi.Board.set_psfen) to a legal position (the side
not to move is not in check), the recorded move (cshogi.move16_from_psv) is legal in it, the
game result is -1, 0 or 1, the padding byte is 0, and |score| is below --eval-limit (when
given) or at most 32000.

Games: consecutive records belong to one game when the ply goes up by one and one legal
move leads from the first position to the next. Within a game the result alternates sign
(a draw stays 0). With --min-ply no record's gamePly (the plies played before it, 0 at
the start position) may be below that number; with
--random-moves N at most N transitions of a game may be other moves than the recorded ones
(`shishi gensfen` writes none: 0).

Prints one JSON line (records, games, game lengths, results, how many transitions followed
the recorded move); exits 1 with a message on the first failure, 2 when cshogi or numpy is
missing.

    python3 scripts/check_training_data.py FILE [--eval-limit N] [--min-ply N]
        [--random-moves N] [--games N]
"""

import argparse
import json
import sys

try:
    import cshogi
    import numpy as np
except ImportError as e:
    print(f"cshogi and numpy are needed ({e}): pip install cshogi", file=sys.stderr)
    sys.exit(2)


def fail(message):
    print(f"check_training_data: {message}", file=sys.stderr)
    sys.exit(1)


def position_key(board):
    """The position without its move number."""
    return " ".join(board.sfen().split()[:3])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--eval-limit", type=int, default=0)
    parser.add_argument("--min-ply", type=int, default=1)
    parser.add_argument("--random-moves", type=int, default=None)
    parser.add_argument("--games", type=int, default=None)
    args = parser.parse_args()

    data = open(args.file, "rb").read()
    if len(data) % cshogi.PackedSfenValue.itemsize != 0:
        fail(f"{len(data)} bytes is not a whole number of 40-byte records")
    records = np.frombuffer(data, dtype=cshogi.PackedSfenValue)

    board = cshogi.Board()
    # Per record: the position, the positions one legal move away, the one its move leads to.
    positions = []
    for i, r in enumerate(records):
        board.set_psfen(r["sfen"])
        if not board.is_ok():
            fail(f"record {i}: cshogi finds the position inconsistent: {board.sfen()}")
        fields = board.sfen().split()
        fields[1] = "w" if fields[1] == "b" else "b"
        other = cshogi.Board(" ".join(fields))
        if other.is_check():
            fail(f"record {i}: the side not to move is in check: {board.sfen()}")
        move = board.move_from_move16(cshogi.move16_from_psv(int(r["move"])))
        if not board.is_legal(move):
            fail(f"record {i}: move {int(r['move'])} is not legal in {board.sfen()}")
        result = int(r["game_result"])
        if result not in (-1, 0, 1):
            fail(f"record {i}: game result {result}")
        if int(r["padding"]) != 0:
            fail(f"record {i}: padding byte {int(r['padding'])}")
        score = int(r["score"])
        limit = args.eval_limit if args.eval_limit > 0 else 32001
        if abs(score) >= limit:
            fail(f"record {i}: score {score} is not below {limit}")
        if int(r["gamePly"]) < args.min_ply:
            fail(f"record {i}: ply {int(r['gamePly'])} is below {args.min_ply}")
        after_move = None
        successors = set()
        for m in board.legal_moves:
            board.push(m)
            key = position_key(board)
            successors.add(key)
            if m == move:
                after_move = key
            board.pop()
        positions.append((position_key(board), successors, after_move))

    games = []
    followed = 0
    random_in_game = 0
    for i, r in enumerate(records):
        ply = int(r["gamePly"])
        same_game = (
            i > 0
            and ply == int(records[i - 1]["gamePly"]) + 1
            and positions[i][0] in positions[i - 1][1]
        )
        if same_game:
            previous = int(records[i - 1]["game_result"])
            if int(r["game_result"]) != -previous:
                fail(f"records {i - 1} and {i}: results {previous} and "
                     f"{int(r['game_result'])} in one game do not alternate")
            if positions[i][0] == positions[i - 1][2]:
                followed += 1
            else:
                random_in_game += 1
                if args.random_moves is not None and random_in_game > args.random_moves:
                    fail(f"record {i}: more than {args.random_moves} moves of the game "
                         f"are not the recorded ones")
            games[-1].append(i)
        else:
            games.append([i])
            random_in_game = 0

    if args.games is not None and len(games) != args.games:
        fail(f"{len(games)} games, not {args.games}")
    results = {"win": 0, "draw": 0, "loss": 0}
    for g in games:
        first = int(records[g[0]]["game_result"])
        results[{1: "win", 0: "draw", -1: "loss"}[first]] += 1
    print(json.dumps({
        "records": len(records),
        "games": len(games),
        "game_lengths": [len(g) for g in games],
        "first_record_results": results,
        "followed_recorded_move": followed,
        "other_moves": sum(len(g) - 1 for g in games) - followed,
        "scores": [int(records["score"].min()), int(records["score"].max())]
        if len(records) else [],
    }))


if __name__ == "__main__":
    main()
