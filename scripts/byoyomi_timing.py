#!/usr/bin/env python3
"""How a GUI sees the engine's use of byoyomi: plays MOVES moves of a game from the start
position (the engine answers for both sides), each with `go btime 0 wtime 0 byoyomi B`, and
prints the time from writing `go` to reading `bestmove`, as the GUI measures it.

  python3 scripts/byoyomi_timing.py [--engine target/release/shishi] [--moves 20] B [B ...]

Default options are kept (NetworkDelay 120, NetworkDelay2 1120), as a GUI user would have
them. Prints one line per byoyomi: min, median and max in ms, and how many moves ran over B.
"""
import argparse
import statistics
import subprocess
import time


def measure(engine, byoyomi, moves):
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def wait(prefix):
        while True:
            line = proc.stdout.readline()
            if not line:
                raise SystemExit("the engine exited")
            if line.startswith(prefix):
                return line

    send("usi")
    wait("usiok")
    send("isready")
    wait("readyok")
    send("usinewgame")
    played, times = [], []
    for _ in range(moves):
        send("position startpos" + (" moves " + " ".join(played) if played else ""))
        start = time.monotonic()
        send(f"go btime 0 wtime 0 byoyomi {byoyomi}")
        best = wait("bestmove").split()[1]
        times.append((time.monotonic() - start) * 1000)
        if best in ("resign", "win"):
            break
        played.append(best)
    send("quit")
    proc.wait()
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default="target/release/shishi")
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("byoyomi", type=int, nargs="+")
    args = ap.parse_args()
    for b in args.byoyomi:
        t = measure(args.engine, b, args.moves)
        over = sum(1 for x in t if x > b)
        print(f"byoyomi {b} ms: {len(t)} moves, think time as the GUI sees it "
              f"min {min(t):.0f} median {statistics.median(t):.0f} max {max(t):.0f} ms, "
              f"{over} over the byoyomi")


if __name__ == "__main__":
    main()
