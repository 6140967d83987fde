#!/usr/bin/env python3
"""Node odds for `shishi match`: runs a USI engine and passes it every command unchanged
except `go ... nodes N`, whose limit it divides by DIVISOR. With `--tc nodes=N` the engine
behind this wrapper searches N / DIVISOR nodes a move while its opponent searches N, which
measures how many times the nodes one search needs to play level with another (for example
Shishi against YaneuraOu with the same net: docs/STRENGTH.md, "How many nodes Shishi needs").

    shishi match --engine1 target/release/shishi --engine2 \\
        "python3 scripts/usi_node_odds.py 4 /path/to/YaneuraOu-by-gcc" --tc nodes=200000 ...

The engine's output goes straight to stdout; the wrapper ends when the engine does.

`shishi match` now gives each engine its own limit directly (`--tc1 nodes=200000 --tc2
nodes=50000`, docs/MATCH.md, "Time odds"), which is the preferred way: the same searches, no
process in between, and the records name each engine's limit. This wrapper stays for the
measurements made with it.
"""

import subprocess
import sys


def divided(line, divisor):
    """`line` with the number after `nodes` of a `go` command divided by `divisor`."""
    words = line.split()
    if not words or words[0] != "go" or "nodes" not in words[:-1]:
        return line
    i = words.index("nodes") + 1
    try:
        words[i] = str(max(1, int(words[i]) // divisor))
    except ValueError:
        return line
    return " ".join(words) + "\n"


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: usi_node_odds.py DIVISOR ENGINE [ENGINE ARGUMENTS...]")
    try:
        divisor = int(sys.argv[1])
    except ValueError:
        divisor = 0
    if divisor < 1:
        sys.exit(f"the divisor must be a positive whole number, not {sys.argv[1]!r}")
    engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, text=True, bufsize=1)
    for line in sys.stdin:
        try:
            engine.stdin.write(divided(line, divisor))
            engine.stdin.flush()
        except BrokenPipeError:
            break
        if line.split()[:1] == ["quit"]:
            break
    try:
        engine.stdin.close()
    except BrokenPipeError:
        pass
    sys.exit(engine.wait())


if __name__ == "__main__":
    main()
