#!/usr/bin/env python3
"""Plays every position of a book through two USI engines and compares their book moves.

Usage: book_crosscheck.py BOOK ENGINE_A_DIR:ENGINE_A_CMD:BOOKFILE_A ENGINE_B_DIR:...

Each engine is started in its directory, given the book options (BookFile as given,
BookEvalDiff 0 so that only the best-valued moves can be chosen, no depth or ply limit),
and for each `sfen` position of BOOK asked `position sfen …` / `go`. For each position the
moves with the best value are the ones both engines may play: the script checks that each
engine's bestmove is one of them, and counts the positions where the two engines played
the very same move. Exit status 1 on any difference.
"""

import subprocess
import sys

OPTIONS = [
    ("USI_Hash", "16"),
    ("Threads", "1"),
    ("BookEvalDiff", "0"),
    ("BookDepthLimit", "0"),
    ("BookMoves", "10000"),
    ("BookEvalBlackLimit", "-99999"),
    ("BookEvalWhiteLimit", "-99999"),
    ("BookIgnoreRate", "0"),
]


def read_book(path):
    positions = {}
    sfen = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#") or line.startswith("//"):
                continue
            if line.startswith("sfen "):
                sfen = line[5:].strip()
                positions.setdefault(sfen, [])
                continue
            words = line.split()
            value = int(words[2]) if len(words) > 2 else 0
            count = int(words[4]) if len(words) > 4 else 1
            positions[sfen].append((words[0], value, count))
    return positions


class Engine:
    def __init__(self, spec):
        self.dir, command, book = spec.split(":", 2)
        self.proc = subprocess.Popen(
            command, shell=True, cwd=self.dir, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.name = command
        self.send("usi")
        self.wait("usiok")
        for name, value in OPTIONS + [("BookFile", book)]:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"{self.name} ended before {prefix}")
            if line.startswith(prefix):
                return line.strip()

    def bestmove(self, sfen):
        self.send(f"position sfen {sfen}")
        self.send("go btime 0 wtime 0 byoyomi 2000")
        return self.wait("bestmove").split()[1]

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def main():
    book, *specs = sys.argv[1:]
    positions = read_book(book)
    engines = [Engine(spec) for spec in specs]
    same = differ = outside = ties_apart = 0
    for sfen, moves in sorted(positions.items()):
        if not moves:
            continue
        # Both engines order the moves by count, then value, and with BookEvalDiff 0 keep
        # those valued at least as well as the first.
        first = sorted(moves, key=lambda m: (-m[2], -m[1]))[0]
        allowed = {m for m, v, _ in moves if v >= first[1]}
        played = [e.bestmove(sfen) for e in engines]
        for engine, move in zip(engines, played):
            if move not in allowed:
                outside += 1
                print(f"OUT  {engine.name}: {move} not among {sorted(allowed)} at {sfen}")
        if len(set(played)) == 1:
            same += 1
        elif len(allowed) == 1:
            differ += 1
            print(f"DIFF {played} at {sfen}")
        else:
            ties_apart += 1
    for e in engines:
        e.close()
    print(f"positions {same + differ + ties_apart}: same move {same}, different {differ}, "
          f"different draws among equally allowed moves {ties_apart}, "
          f"moves outside the allowed ones {outside}")
    sys.exit(1 if differ or outside else 0)


if __name__ == "__main__":
    main()
