#!/usr/bin/env python3
"""Fuzzes the USI engine with mutated command streams in all five games.

  python3 scripts/fuzz_usi.py [--engine target/release/shishi] [--lines N] [--batch N]
                              [--seed S] [--games shogi,chushogi,...]

Each batch picks a game, tells the engine (`setoption name USI_Variant value …`, `isready`)
and then writes BATCH lines drawn from that game's corpus of plausible commands (positions
and moves of the game, chance tokens, every `go` shape, `stop`, `ponderhit`, options), most
of them mutated: tokens dropped, doubled, swapped or replaced, numbers pushed to extremes,
random bytes, truncation, very long lines, line-ending noise. Lines are written without
waiting for answers, as a fast GUI would.

After every batch it sends `stop`, waits for the answers (30 s at most: longer is a hang),
then sends `isready` and checks that
* `readyok` arrives within 2 s,
* every `go` of the batch was answered exactly once (`bestmove` or `checkmate`), no more,
* the process is alive.

A line counts as a `go` when its first known command word is `go`, which is how the engine
reads it (unknown leading words are skipped; words are split on Unicode white space).
Lines whose command would end the session (`quit`) are not sent, nor option values that
would allocate more than 64 MiB or start more than 4 threads (allocating is not what this
tests). On a failure it prints the batch's last lines and the engine's output, saves the
whole batch to fuzz-failure-<seed>-<batch>.txt, and exits 1. Exits 0 with a summary line
otherwise.
"""
import queue
import random
import re
import time

import fuzz_common

GAMES = ["shogi", "chushogi", "chukagamigi", "shogammon", "madness"]

# The engine's command words (src/usi/mod.rs COMMANDS).
COMMANDS = {"usi", "isready", "setoption", "usinewgame", "position", "go", "stop",
            "ponderhit", "gameover", "quit", "debug", "register"}

# Rust's char::is_whitespace (the engine's tokenizer), not Python's str.split().
RUST_WHITESPACE = re.compile(
    "[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")

POSITIONS = {
    "shogi": [
        "position startpos",
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e",
        "position startpos moves 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d P*2c",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "position sfen 4k4/9/4P4/9/9/9/9/9/K8 b RSr2b4g3s4n4l17p 1",
        "position sfen 8k/9/9/9/9/9/1gn6/9/K8 b - 1 moves 9i9h",
        "position sfen +R+BGGGG1K1/SSSS5/9/9/9/pppppppp1/9/9/4k4 b 10Prb4n4l 1",
        "position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1",
    ],
    "chushogi": [
        "position startpos",
        "position startpos moves 6i6h 7d7e 6h6g",
        "position startpos moves 7i7h 6d6e 6i5h4g",
        "position sfen lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/"
        "3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1",
    ],
    "chukagamigi": [
        "position startpos",
        "position startpos moves 12i12h",
        "position sfen lfxsgakgsofl/jd1rwiemb1ch/1tyvn2nuyq1/pppppppppppp/12/12/12/12/"
        "PPPPPPPPPPPP/1QYUN2NVYT1/HC1BMEIWR1DJ/LFOSGKAGSXFL b - 1",
    ],
    "shogammon": [
        "position startpos",
        "position startpos moves r:61",
        "position startpos moves r:61 7g7f 5i4h r:33",
        "position startpos moves r:52",
        "position startpos moves r:66",
    ],
    "madness": [
        "position startpos",
        "position startpos moves draw:3 draw:?",
        "position startpos moves draw:? draw:9 7g7f",
        "position startpos moves draw:4 draw:? 5g5f 3c3d 5f5e 4a3b",
        "position startpos moves draw:4 draw:? 5g5f 3c3d 5f5e 4a3b c:4 mad=",
        "position startpos moves draw:4 draw:? 5g5f 3c3d 5f5e 4a3b roll r:7",
    ],
}

GO_LINES = [
    "go depth 1", "go depth 2", "go depth 3", "go nodes 500", "go nodes 5000",
    "go movetime 5", "go movetime 20", "go btime 100 wtime 100 byoyomi 20",
    "go btime 0 wtime 0 byoyomi 30", "go btime 500 wtime 500 binc 10 winc 10",
    "go infinite", "go ponder btime 0 wtime 0 byoyomi 20", "go mate 20", "go mate infinite",
    "go searchmoves 7g7f 2g2f depth 2", "go depth 2 multipv 3", "go",
]

OTHER_LINES = [
    "stop", "stop", "stop", "ponderhit", "ponderhit btime 100 wtime 100 byoyomi 10",
    "usinewgame", "isready", "usi", "gameover win", "gameover draw", "debug on", "register later",
    "setoption name MultiPV value 2", "setoption name MultiPV value 1",
    "setoption name DepthLimit value 3", "setoption name DepthLimit value 0",
    "setoption name USI_Ponder value true", "setoption name NetworkDelay value 0",
    "setoption name NetworkDelay2 value 0", "setoption name ChanceAlgorithm value star1",
    "setoption name ChanceAlgorithm value expectimax", "setoption name ChuRules value churul",
    "setoption name ShogammonDice value knight3", "setoption name EnteringKingRule value jsa24",
    "setoption name Clear_Hash", "setoption name USI_Hash value 16",
    "setoption name Threads value 2", "setoption name ParallelMode value lazysmp",
]

TOKENS = ["go", "stop", "position", "startpos", "sfen", "moves", "depth", "nodes", "movetime",
          "btime", "wtime", "byoyomi", "binc", "winc", "infinite", "ponder", "mate", "multipv",
          "searchmoves", "setoption", "name", "value", "isready", "-", "+", "b", "w", "1",
          "0", "-1", "18446744073709551616", "99999999999999999999", "7g7f", "P*5e", "r:61",
          "draw:?", "draw:10", "c:4", "roll", "r:10", "mad+", "mad=", "pass", "5i4h",
          "12i12h", "6i5h4g", "(K+P)", "10p10p", "19p", "RRRRRRRRRRRRRRRRRRRR", "\u3000",
          "\ufffd", "usi", "quit_not", "gameover", "ponderhit", ",", "bestmove"]

NUMBER = re.compile(r"^-?\d+$")

# Seconds for a batch's go commands to be answered (a hang), and for isready after that.
HANG = 30.0
READY = 2.0


def tokenize(line):
    return [t for t in RUST_WHITESPACE.split(line) if t]


def command_of(line):
    for tok in tokenize(line):
        if tok in COMMANDS:
            return tok
    return None


def allowed(line):
    """Whether the line may be sent (see the module doc)."""
    cmd = command_of(line)
    if cmd == "quit":
        return False
    if cmd == "setoption":
        low = line.lower()
        if "hash" in low or "thread" in low:
            for tok in tokenize(line):
                digits = re.sub(r"\D", "", tok)
                if digits and (len(digits) > 3 or int(digits) > 64):
                    return False
    return True


def nasty_sfen_field(rng, toks):
    """SFEN-field noise: the board, side, hand or move number replaced by a nasty value."""
    if "sfen" in toks:
        at = toks.index("sfen") + 1 + rng.randrange(4)
        nasty = ["10p10p", "19p", "p" * 19, "R" * 20, "2P3p", "RRRR", "0", "+5", "01", "-",
                 "9/9/9", "4k4/9/9/9/09/9/9/9/4K4", "x", "b", "w", "18446744073709551616"]
        if at < len(toks):
            toks[at] = rng.choice(nasty)
        else:
            toks.append(rng.choice(nasty))


def mutate(rng, line):
    extremes = ["0", "-5", "4294967296", "18446744073709551615", "99999999999999999999999"]
    return fuzz_common.mutate(rng, tokenize(line), TOKENS, NUMBER, extremes,
                                 nasty_sfen_field, kinds=12)



def corpus_line(rng, game):
    roll = rng.random()
    if roll < 0.30:
        line = rng.choice(POSITIONS[game])
    elif roll < 0.60:
        line = rng.choice(GO_LINES)
    elif roll < 0.65:
        line = fuzz_common.junk_line(rng)
    else:
        line = rng.choice(OTHER_LINES)
    return fuzz_common.sometimes_mutated(rng, line, 0.7, mutate)


class Engine(fuzz_common.EnginePipe):
    def __init__(self, path):
        super().__init__([path])


def run_batch(engine, rng, game, size):
    """Returns (ok, gos, lines sent, why, sent lines, received lines)."""
    sent = [f"setoption name USI_Variant value {game}", "isready"]
    while len(sent) < size:
        line = corpus_line(rng, game)
        if allowed(line):
            sent.append(line)
    gos = sum(1 for l in sent if command_of(l) == "go")
    readyoks_due = sum(1 for l in sent if command_of(l) == "isready")
    received = []

    def fail(why):
        return False, gos, len(sent), why, sent, received

    def answers():
        return sum(1 for l in received if l.startswith("bestmove") or l.startswith("checkmate"))

    def readyoks():
        return sum(1 for l in received if l == "readyok")

    def collect(until, done):
        """Reads lines until `done()` or the time `until`; False if the engine exited."""
        while not done() and time.time() < until:
            try:
                line = engine.lines.get(timeout=max(0.0, until - time.time()))
            except queue.Empty:
                break
            if line is None:
                return False
            received.append(line)
        return True

    try:
        engine.send(sent + ["stop"])
        # Every go answered (a hang shows as a timeout here) and the batch's own isready too.
        if not collect(time.time() + HANG, lambda: answers() >= gos and readyoks() >= readyoks_due):
            return fail("the engine exited")
        if answers() < gos:
            return fail(f"{gos} go commands, {answers()} answers after {HANG} s")
        asked = time.time()
        engine.send(["isready"])
    except (BrokenPipeError, OSError):
        return fail("the engine closed stdin (exited?)")
    if not collect(asked + READY, lambda: readyoks() > readyoks_due):
        return fail("the engine exited")
    if readyoks() <= readyoks_due:
        return fail(f"readyok did not come within {READY} s")
    # Anything still in flight (a doubled bestmove) shows within 100 ms.
    if not collect(time.time() + 0.1, lambda: False):
        return fail("the engine exited")
    if not engine.alive():
        return fail("the engine exited")
    if answers() != gos:
        return fail(f"{gos} go commands, {answers()} answers")
    return True, gos, len(sent), "", sent, received


def main():
    args = fuzz_common.parse_arguments(__doc__, GAMES)
    games = args.games.split(",")
    rng = random.Random(args.seed)
    engine = Engine(args.engine)
    engine.send(["usi"])
    total_lines = total_gos = batches = 0
    per_game = {g: [0, 0] for g in games}
    start = time.time()
    while total_lines < args.lines:
        game = games[batches % len(games)]
        ok, gos, n, why, sent, received = run_batch(engine, rng, game, args.batch)
        batches += 1
        total_lines += n
        total_gos += gos
        per_game[game][0] += n
        per_game[game][1] += gos
        if not ok:
            fuzz_common.fail_batch(engine, f"fuzz-failure-{args.seed}-{batches}.txt", batches,
                                   game, why, sent, received, sent_shown=8)
    engine.close()
    secs = time.time() - start
    detail = ", ".join(f"{g} {v[0]} lines/{v[1]} go" for g, v in per_game.items())
    print(f"fuzz_usi: {total_lines} lines, {total_gos} go, {batches} batches, "
          f"0 failures in {secs:.1f} s ({detail})")


if __name__ == "__main__":
    main()
