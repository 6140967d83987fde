#!/usr/bin/env python3
"""Times book answers: for every position of a book (up to a limit), the time from sending
`go` to reading `bestmove` from a USI engine playing from that book.

Usage: book_timing.py ENGINE BOOK [on_the_fly: true|false] [LIMIT]
Prints the number of answers, how many were book moves, and the median, 99th percentile
and largest time in milliseconds.
"""

import subprocess
import sys
import time


def main():
    engine, book = sys.argv[1], sys.argv[2]
    on_the_fly = sys.argv[3] if len(sys.argv) > 3 else "false"
    limit = int(sys.argv[4]) if len(sys.argv) > 4 else 500
    sfens = []
    with open(book, encoding="utf-8") as f:
        for line in f:
            if line.startswith("sfen "):
                sfens.append(line[5:].strip())
    sfens = sfens[:: max(1, len(sfens) // limit)][:limit]
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("the engine ended")
            if line.startswith(prefix):
                return line

    for name, value in [("USI_Hash", "16"), ("BookFile", book), ("BookOnTheFly", on_the_fly),
                        ("BookDepthLimit", "0"), ("BookMoves", "10000"),
                        ("BookEvalBlackLimit", "-99999"), ("BookEvalWhiteLimit", "-99999")]:
        send(f"setoption name {name} value {value}")
    start = time.perf_counter()
    send("isready")
    until("readyok")
    ready_ms = (time.perf_counter() - start) * 1000
    times, book_moves = [], 0
    for sfen in sfens:
        send(f"position sfen {sfen}")
        start = time.perf_counter()
        send("go btime 60000 wtime 60000 byoyomi 0")
        saw_book = False
        while True:
            line = p.stdout.readline()
            if line.startswith("info string book move"):
                saw_book = True
            if line.startswith("bestmove"):
                break
        times.append((time.perf_counter() - start) * 1000)
        book_moves += saw_book
    send("quit")
    p.wait(timeout=10)
    times.sort()
    print(f"isready {ready_ms:.1f} ms; {len(times)} answers, {book_moves} from the book; "
          f"median {times[len(times) // 2]:.2f} ms, 99th percentile "
          f"{times[min(len(times) - 1, len(times) * 99 // 100)]:.2f} ms, "
          f"largest {times[-1]:.2f} ms")


if __name__ == "__main__":
    main()
