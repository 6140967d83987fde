"""What both protocol fuzzers (fuzz_usi.py, fuzz_cecp.py) share: the engine behind its pipes
([`EnginePipe`]), and the mutations of a command line ([`mutate`]): tokens dropped, doubled, swapped or replaced, numbers pushed to extremes, truncation,
random characters, very long lines, line-ending noise, and one mutation of the protocol's
own (a field of an SFEN or a FEN replaced by a nasty value). The random draws are made in
a fixed order, so a seed gives the same stream every time.
"""
import argparse
import os
import queue
import subprocess
import sys
import threading


def parse_arguments(doc, games):
    """The fuzzers' command line: --engine, --lines, --batch, --seed, --games."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--engine", default="target/release/shishi")
    ap.add_argument("--lines", type=int, default=20000)
    ap.add_argument("--batch", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default=",".join(games))
    return ap.parse_args()


def fail_batch(engine, file_name, number, game, why, sent, received, sent_shown):
    """Saves the failed batch `sent` to `file_name`, says why with the last `sent_shown`
    lines sent and the last lines received, kills the engine and exits 1."""
    with open(file_name, "w", encoding="utf-8", errors="replace") as f:
        f.write("\n".join(sent) + "\n")
    print(f"FAIL batch {number} ({game}): {why}; batch saved to {file_name}")
    if sent_shown:
        print("last lines sent:", *[repr(l[:200]) for l in sent[-sent_shown:]], sep="\n  ")
    print("last lines received:", *[repr(l[:200]) for l in received[-12:]], sep="\n  ")
    engine.proc.kill()
    sys.exit(1)


class EnginePipe:
    """The engine run as `command` (stdout read line by line on a thread into `lines`,
    `None` at its end; stderr dropped; RUST_LOG unset)."""

    def __init__(self, command):
        env = dict(os.environ)
        env.pop("RUST_LOG", None)
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
        self.lines.put(None)

    def send(self, lines):
        data = "".join(l + "\n" for l in lines).encode("utf-8", errors="replace")
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def alive(self):
        return self.proc.poll() is None

    def close(self):
        try:
            self.send(["quit"])
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def junk_line(rng):
    """Raw junk bytes, decoded as the engine does (invalid UTF-8 replaced), on one line."""
    raw = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
    return raw.replace(b"\n", b" ").decode("utf-8", errors="replace")


def sometimes_mutated(rng, line, chance, mutate_line):
    """`line`, mutated by `mutate_line` with probability `chance`, on one line."""
    if rng.random() < chance:
        line = mutate_line(rng, line)
    return line.replace("\n", " ")


def mutate(rng, toks, tokens, number, extremes, own_mutation, kinds):
    """`toks` (the line's tokens) mutated one way, as a line. `tokens` are the protocol's
    words to insert, `number` the pattern of a number token, `extremes` the values a number
    may become, `own_mutation(rng, toks)` the protocol's own mutation (kind 10) and `kinds`
    how many kinds are drawn from (a kind past 10 leaves the line as it is)."""
    kind = rng.randrange(kinds)
    if kind == 0 and toks:
        del toks[rng.randrange(len(toks))]
    elif kind == 1 and toks:
        i = rng.randrange(len(toks))
        toks.insert(i, toks[i])
    elif kind == 2 and len(toks) > 1:
        i, j = rng.randrange(len(toks)), rng.randrange(len(toks))
        toks[i], toks[j] = toks[j], toks[i]
    elif kind == 3 and toks:
        toks[rng.randrange(len(toks))] = rng.choice(tokens)
    elif kind == 4:
        toks.insert(rng.randrange(len(toks) + 1), rng.choice(tokens))
    elif kind == 5:
        for i, t in enumerate(toks):
            if number.match(t):
                toks[i] = rng.choice(extremes + [str(rng.randrange(10**6))])
    elif kind == 6:
        text = " ".join(toks)
        if text:
            return text[:rng.randrange(len(text))]
    elif kind == 7:
        chars = list(" ".join(toks))
        for _ in range(rng.randrange(1, 4)):
            if chars:
                chars[rng.randrange(len(chars))] = chr(rng.choice(
                    [rng.randrange(32, 127), rng.randrange(0x80, 0x800),
                     rng.randrange(0x3000, 0x3100), 0xFFFD, 9, 13]))
        return "".join(chars)
    elif kind == 8:
        return " ".join(toks + [rng.choice(tokens) for _ in range(rng.randrange(50, 3000))])
    elif kind == 9:
        return "  ".join(toks) + rng.choice(["\r", " \r", "\t", ""])
    elif kind == 10:
        own_mutation(rng, toks)
    return " ".join(toks)
