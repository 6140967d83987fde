#!/usr/bin/env python3
"""Fuzzes the CECP (XBoard) engine mode with mutated command streams in its three games.

  python3 scripts/fuzz_cecp.py [--engine target/release/shishi] [--lines N] [--batch N]
                               [--seed S] [--games shogi,chu,chukagamigi]

The sibling of scripts/fuzz_usi.py for `shishi --xboard`. After the handshake (`xboard`,
`protover 2`, `feature done=1`), `option DepthLimit=3`, which ends every search on its
own, and `memory 16`, each batch picks a game, sends `new` and `variant GAME`, and then BATCH lines of
plausible commands of that game (its moves, bare and with `usermove`, FENs for
`setboard`, every time command with ordinary, huge, negative and non-numeric values, `go`,
`?`, `ping`, `undo`, `analyze`, options…), most of them mutated: tokens dropped, doubled,
swapped or replaced, numbers pushed to extremes, random bytes, truncation, very long lines,
line-ending noise. The lines go in steps of one to five, each step written at once and
followed by `?` (move now) and `ping N`; the protocol keeps a `ping` that arrives while the
engine thinks until after its move, so `pong N` closes the step, and the next step is sent
then (were it sent sooner, a `force` in it could abandon the search before the move, and
`go` would rightly get no move). The checks, after every step:

* `pong N` arrives, within 2 s of the previous answer (else a hang), exactly once;
* the engine is alive, and every line it printed is a protocol line (`move`, `resign`,
  `pong`, `Error (…)`, `Illegal move`, `tellusererror`, thinking output, `feature`,
  `setup`, `piece`, `highlight`);
* every `ping X` of the corpus got `pong X`;
* in a step of one line, which the engine starts idle: `go` got exactly one `move` (or
  `resign`); an accepted move (`usermove M` or a bare move) got exactly one answer when it
  was then the engine's turn, none when it was not or in analyze mode (the script follows
  whose turn it is from the commands and the engine's answers, and only checks "at most
  one" where it cannot know); any other command got no move;
* in a step of several lines, where timing decides whether a command arrives during the
  search (and abandons it) or after the move, no more moves than lines that can start a
  search.

Lines whose command would end the session (`quit`) are not sent, nor lines that would
change `DepthLimit`, or name a table or a thread count above 16 (`memory 64`, `cores 99`):
allocating is not what this tests, and a table of 64 MiB can take seconds to fill on a
loaded machine. On a failure it prints the step and the engine's answers, saves the
whole batch to fuzz-cecp-failure-<seed>-<batch>.txt and exits 1. Exits 0 with a summary line
otherwise; `--lines` counts the fuzzed command lines, the summary also every line written.
"""
import itertools
import queue
import random
import re
import sys
import time

import fuzz_common

GAMES = ["shogi", "chu", "chukagamigi"]

# The command words of the engine's CECP loop (src/cecp/mod.rs, `handle`); any other first
# word is tried as a bare move.
COMMANDS = {"", "xboard", "accepted", "rejected", "computer", "name", "rating", "ics",
            "random", "easy", "hard", "draw", "hint", "bk", ".", "put", "hover", "protover",
            "ping", "quit", "new", "variant", "force", "result", "go", "playother", "white",
            "black", "level", "st", "sd", "time", "otim", "post", "nopost", "usermove", "?",
            "setboard", "undo", "remove", "analyze", "exit", "memory", "cores", "option",
            "lift"}

# Rust's char::is_whitespace (the engine's tokenizer), not Python's str.split().
WS = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
RUST_WHITESPACE = re.compile(f"[{WS}]+")
RUST_TRIM = re.compile(f"^[{WS}]+|[{WS}]+$")

# Plausible moves of each game in XBoard's coordinates: lines from the start, then moves
# that are legal in some positions only, or never.
MOVES = {
    "shogi": [["c3c4", "g7g6", "b2h8+", "g9h8", "B@f5"], ["h3h4", "b7b6", "h4h5", "b6b5"],
              ["g3g4", "c7c6", "e1d2"]],
    "chu": [["h4h5", "e9e8", "f3f5", "g10g8"], ["e4e5", "h9h8", "g4h5,h5i6"],
            ["f4f5", "g9g8", "@@@@"]],
    "chukagamigi": [["a4a5", "a9a8", "l4l5", "l9l8"], ["b4b5", "k9k8", "c4c5"]],
}
ODD_MOVES = ["@@@@", "P@e5", "Y@e5", "a1a1", "z9z9", "e5e6=", "h4h5,", "g4h5,h5g4",
             "c3c4+", "i1i12", "P@@e5", "a0a1", "l12l13", "e2e4", "O-O", "0000"]

# FENs for `setboard` (XBoard's: `w` is sente to move), some of them refused.
FENS = {
    "shogi": ["4k4/9/9/9/9/9/9/9/4K4[PPPRbpp] b 0 1",
              "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1",
              "4k4/4G4/4P4/9/9/9/9/9/4K4[] b 0 1", "8k/9/9/9/9/9/1gn6/9/K8[-] w 0 1"],
    "chu": ["5k6/12/12/12/12/12/5N6/12/12/12/12/5K6 w 0 1",
            "5k6/12/12/12/12/12/12/12/12/12/12/5K6 b 0 1",
            "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"
            "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w 0 1"],
    "chukagamigi": ["5k6/12/12/12/12/12/12/12/12/12/12/5K6[PPp] w 0 1",
                    "lfxsgakgsofl/jd1rwiemb1ch/1tyvn2nuyq1/pppppppppppp/12/12/12/12/"
                    "PPPPPPPPPPPP/1QYUN2NVYT1/HC1BMEIWR1DJ/LFOSGKAGSXFL[-] w 0 1"],
}

TIME_LINES = [
    "st 1", "st 0.05", "st 0.2", "sd 1", "sd 2", "sd 9", "level 0 0:01 0", "level 40 5 0",
    "level 0 1 0.1", "level 1 0:01 0", "level 0 0:30 1", "time 100", "otim 100", "time 5",
    "otim 3000", "time 0", "st 1e300", "level 40 1e300 0", "level 40 1e18 0",
    "time 99999999999999999999", "otim -5", "st -5", "st NaN", "st inf", "level 0 inf inf",
    "level 40 5:1e300 1e300", "time 1e400", "level -1 5 0", "level 4294967297 1 0",
    "sd 0", "sd 4294967296", "level 0 0:0.5 0", "st 0.0000001",
]

OTHER_LINES = [
    "post", "nopost", "easy", "hard", "random", "computer", "name Someone", "rating 2000 1500",
    "ics -", "accepted usermove", "rejected san", "draw", "hint", "bk", ".", "result 1-0 {x}",
    "result *", "force", "force", "playother", "undo", "undo", "remove", "analyze", "exit",
    "new", "variant shogi", "variant chu", "variant chukagamigi", "variant normal", "white",
    "black", "lift e3", "lift h4", "lift a1", "lift z99", "put e5", "hover e5", "memory 16",
    "memory 1", "cores 1", "cores 2", "option MultiPV=2", "option MultiPV=1",
    "option ChuRules=churul", "option ChuRules=lishogi", "option XBoardHoldings=24",
    "option XBoardHoldings=16", "option Clear_Hash", "option NetworkDelay=0",
    "option EnteringKingRule=jsa24", "option NoSuch=1", "ping 7", "ping", "ping a b",
    "protover 2", "xboard", "edit", "?", "?", "setboard", "usermove",
]

TOKENS = ["go", "force", "new", "usermove", "setboard", "level", "st", "sd", "time", "otim",
          "ping", "?", "undo", "remove", "analyze", "exit", "option", "memory", "cores",
          "variant", "shogi", "chu", "chukagamigi", "w", "b", "[-]", "0", "1", "-1", "0.5",
          "1e300", "NaN", "inf", "-inf", "18446744073709551616", "99999999999999999999",
          "0:01", "5:1e300", ":", "c3c4", "h4h5", "a4a5", "@@@@", "P@e5", "g4h5,h5i6",
          "=", ",", "{", "}", "\u3000", "\ufffd", "1-0", "*", "12", "lift", "e5", "quit_not"]

NUMBER = re.compile(r"^-?\d+(\.\d+)?$")

# Seconds between two answers before the engine counts as hung, and the bar for `pong`.
HANG = 30.0
PONG = 2.0

ALLOWED_OUTPUT = re.compile(
    r"^(move \S+|resign|pong( .*)?|Error \(.+\): .*|Illegal move: .*|tellusererror .*"
    r"|feature .*|setup .*|piece .*|highlight .*|\d+ -?\d+ \d+ \d+( .*)?)$", re.S)


def tokenize(line):
    return [t for t in RUST_WHITESPACE.split(line) if t]


def engine_view(line):
    """The line as the engine's reader and `handle` see it: (command, rest)."""
    line = line.encode("utf-8", errors="replace").decode("utf-8")
    line = RUST_TRIM.sub("", line)
    m = re.search(f"[{WS}]", line)
    if not m:
        return line, ""
    return line[:m.start()], RUST_TRIM.sub("", line[m.end():])


def allowed(line):
    """Whether the line may be sent (see the module doc)."""
    command, _ = engine_view(line)
    low = line.lower()
    if command == "quit" or "depthlimit" in low:
        return False
    big = any(len(d) > 2 or int(d) > 16 for d in re.findall(r"\d+", line))
    if command in ("memory", "cores") and big:
        return False
    if command == "option" and ("hash" in low or "thread" in low or "core" in low) and big:
        return False
    return True


def nasty_field(rng, toks):
    """A field of a FEN or a leg of a move replaced by a nasty value."""
    if toks:
        i = rng.randrange(len(toks))
        nasty = ["13/12", "k" * 13, "[PPPPPPPPPPPPPPPPPPPP]", "[", "]", "w", "b", "x", "0",
                 "-1", "99999999999999999999", "5k6/12", "a99a98", "@@", "P@", "+", ","]
        toks[i] = rng.choice(nasty)


def mutate(rng, line):
    extremes = ["0", "-5", "4294967296", "18446744073709551615", "99999999999999999999999",
                "1e300", "-1e300", "nan", "0.001"]
    return fuzz_common.mutate(rng, tokenize(line), TOKENS, NUMBER, extremes, nasty_field,
                                 kinds=11)



def corpus_line(rng, game):
    roll = rng.random()
    if roll < 0.25:
        line = rng.choice(rng.choice(MOVES[game]) + ODD_MOVES[:4])
        if rng.random() < 0.6:
            line = "usermove " + line
    elif roll < 0.30:
        line = rng.choice(ODD_MOVES)
    elif roll < 0.45:
        line = "go"
    elif roll < 0.55:
        line = rng.choice(TIME_LINES)
    elif roll < 0.62:
        line = "setboard " + rng.choice(FENS[game] + FENS[rng.choice(GAMES)])
    elif roll < 0.65:
        line = fuzz_common.junk_line(rng)
    else:
        line = rng.choice(OTHER_LINES)
    return fuzz_common.sometimes_mutated(rng, line, 0.6, mutate)


class Turn:
    """Whose turn it is, as far as the script can follow it. A colour is a pair (anchor,
    parity): two colours with the same anchor are equal when their parities are; a new
    anchor stands for a colour nobody knows (after `setboard`, or a step of several
    lines)."""

    fresh = itertools.count(1)

    def __init__(self):
        self.new()

    def new(self):
        self.stm = ("known", 0)
        self.engine = ("known", 1)
        self.analyzing = False

    def forget(self):
        self.stm = (next(Turn.fresh), 0)
        self.engine = (next(Turn.fresh), 0)
        self.analyzing = None

    def flip(self):
        self.stm = (self.stm[0], 1 - self.stm[1])

    def engine_to_move(self):
        """True, False, or None when unknown (also when the engine plays no side)."""
        if self.engine is None:
            return False
        if self.engine[0] != self.stm[0]:
            return None
        return self.engine == self.stm


def short(step):
    """A step for a message: each line cut to 120 characters."""
    return repr([l if len(l) <= 120 else l[:120] + "…" for l in step])


def is_move(line):
    return line.startswith("move ") or line == "resign"


def check_step(turn, step, answers):
    """Checks one step's answers and follows the game; returns an error or None."""
    moves = [a for a in answers if is_move(a)]
    views = [engine_view(l) for l in step]
    for command, rest in views:
        if command == "ping" and answers.count(f"pong {rest}") < 1:
            return f"`ping {rest}` got no `pong {rest}`"
    if len(step) > 1:
        triggers = sum(1 for c, _ in views if c in ("go", "usermove") or c not in COMMANDS)
        if len(moves) > triggers:
            return f"{len(moves)} moves for {triggers} lines that can start a search"
        turn.forget()
        return None
    command, rest = views[0]
    refused = any(a.startswith(("Error", "Illegal move", "tellusererror")) for a in answers)
    if command == "go":
        if len(moves) != 1:
            return f"`go` got {len(moves)} moves"
        turn.engine = turn.stm
        if moves[0] != "resign":
            turn.flip()
        return None
    if command == "usermove" or command not in COMMANDS:
        if refused:
            return f"a refused move got {len(moves)} moves" if moves else None
        turn.flip()
        expected = turn.engine_to_move()
        if turn.analyzing:
            expected = False
        elif turn.analyzing is None and expected:
            expected = None
        if expected is None:
            if len(moves) > 1:
                return f"an accepted move got {len(moves)} moves"
        elif len(moves) != int(expected):
            return (f"an accepted move got {len(moves)} moves; the engine was "
                    f"{'' if expected else 'not '}to move")
        if moves:
            # The engine played the side to move (now known), and its move passed the turn.
            turn.engine = turn.stm
            if moves[0] != "resign":
                turn.flip()
        return None
    if moves:
        return f"`{command}` got {len(moves)} moves"
    if command == "new":
        turn.new()
    elif command == "variant" and not refused:
        turn.stm = ("known", 0)
    elif command == "force":
        turn.engine = None
    elif command == "result":
        turn.engine, turn.analyzing = None, False
    elif command == "analyze":
        turn.engine, turn.analyzing = None, True
    elif command == "exit":
        turn.analyzing = False
    elif command == "playother":
        turn.engine = (turn.stm[0], 1 - turn.stm[1])
    elif command == "setboard" and not refused:
        turn.stm = (next(Turn.fresh), 0)
    elif command == "undo" and not refused:
        turn.flip()
    elif command == "option" and not refused:
        # A rule option starts the game again; which names do is the options' business.
        turn.stm = (next(Turn.fresh), 0)
    return None


class Engine(fuzz_common.EnginePipe):
    def __init__(self, path):
        super().__init__([path, "--xboard"])

    def until(self, want, limit):
        """Lines up to and including `want`; (lines, why) with why None on success."""
        got = []
        deadline = time.time() + limit
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.time()))
            except queue.Empty:
                return got, f"no `{want}` within {limit} s"
            if line is None:
                return got, "the engine exited"
            got.append(line)
            if line == want:
                return got, None


class Batch:
    def __init__(self, rng, game, size, first_ping):
        # `new` clears the table: its `pong` may take longer than a step's.
        self.start = f"fz{first_ping}"
        self.opening = ["new", f"variant {game}", f"ping {self.start}"]
        self.sent = list(self.opening)
        self.steps = []  # (lines, ping tag)
        self.corpus = 0
        ping = first_ping + 1
        while self.corpus < size:
            step = []
            for _ in range(1 if rng.random() < 0.6 else rng.randrange(2, 6)):
                line = corpus_line(rng, game)
                while not allowed(line):
                    line = corpus_line(rng, game)
                step.append(line)
            self.corpus += len(step)
            tag = f"fz{ping}"
            ping += 1
            self.steps.append((step, tag))
            self.sent += step + ["?", f"ping {tag}"]
        self.end = f"fz{ping}"
        self.closing = ["force", "exit", "?", f"ping {self.end}"]
        self.sent += self.closing
        self.next_ping = ping + 1


def run_batch(engine, rng, game, size, first_ping):
    """Returns (ok, batch, moves answered, why, the lines received)."""
    batch = Batch(rng, game, size, first_ping)
    received = []
    turn = Turn()
    moves = 0
    def send(lines):
        try:
            engine.send(lines)
            return True
        except (BrokenPipeError, OSError):
            return False

    if not send(batch.opening):
        return False, batch, moves, "the engine closed stdin (exited?)", received
    # The answers to `new` and `variant` (Chu Kagamigi's setup and pieces).
    got, why = engine.until(f"pong {batch.start}", HANG)
    received += got
    if why:
        return False, batch, moves, f"start of batch: {why}", received
    for step, tag in batch.steps:
        start = time.time()
        if not send(step + ["?", f"ping {tag}"]):
            return False, batch, moves, f"step {short(step)}: the engine closed stdin", received
        got, why = engine.until(f"pong {tag}", HANG)
        received += got
        if why:
            return False, batch, moves, f"step {short(step)}: {why}", received
        if time.time() - start > PONG:
            return (False, batch, moves,
                    f"step {short(step)}: `pong {tag}` after {time.time() - start:.1f} s", received)
        answers = got[:-1]
        ours = [a for a in answers if a.startswith("pong fz")]
        if ours:
            return False, batch, moves, f"step {short(step)}: a stray or doubled {ours[0]!r}", received
        bad = [a for a in answers if not ALLOWED_OUTPUT.match(a)]
        if bad:
            return False, batch, moves, f"step {short(step)}: not protocol: {bad[:3]!r}", received
        moves += sum(1 for a in answers if is_move(a))
        why = check_step(turn, step, answers)
        if why:
            return False, batch, moves, f"step {short(step)}: {why}", received
    if not send(batch.closing):
        return False, batch, moves, "end of batch: the engine closed stdin", received
    got, why = engine.until(f"pong {batch.end}", HANG)
    received += got
    if why:
        return False, batch, moves, f"end of batch: {why}", received
    if any(is_move(a) for a in got):
        return False, batch, moves, "a move after `force`", received
    # Anything still in flight (a doubled move) shows within 100 ms.
    time.sleep(0.1)
    late = []
    while not engine.lines.empty():
        late.append(engine.lines.get())
    received += [l for l in late if l is not None]
    if late:
        return False, batch, moves, f"lines after the batch: {late[:3]!r}", received
    if not engine.alive():
        return False, batch, moves, "the engine exited", received
    return True, batch, moves, "", received


def main():
    args = fuzz_common.parse_arguments(__doc__, GAMES)
    games = args.games.split(",")
    rng = random.Random(args.seed)
    engine = Engine(args.engine)
    engine.send(["xboard", "protover 2"])
    _, why = engine.until("feature done=1", HANG)
    if why:
        print(f"FAIL handshake: {why}")
        sys.exit(1)
    engine.send(["option DepthLimit=3", "memory 16", "ping fz0"])
    _, why = engine.until("pong fz0", HANG)
    if why:
        print(f"FAIL set-up: {why}")
        sys.exit(1)
    corpus = written = moves = batches = 0
    per_game = {g: [0, 0] for g in games}
    ping = 1
    start = time.time()
    while corpus < args.lines:
        game = games[batches % len(games)]
        ok, batch, answered, why, received = run_batch(engine, rng, game, args.batch, ping)
        ping = batch.next_ping
        batches += 1
        corpus += batch.corpus
        written += len(batch.sent)
        moves += answered
        per_game[game][0] += batch.corpus
        per_game[game][1] += answered
        if not ok:
            fuzz_common.fail_batch(engine, f"fuzz-cecp-failure-{args.seed}-{batches}.txt",
                                   batches, game, why, batch.sent, received, sent_shown=0)
    engine.close()
    secs = time.time() - start
    detail = ", ".join(f"{g} {v[0]} lines/{v[1]} moves" for g, v in per_game.items())
    print(f"fuzz_cecp: {corpus} fuzzed lines ({written} lines written with the pings), "
          f"{moves} moves answered, {batches} batches, 0 crashes, 0 hangs, 0 failures "
          f"in {secs:.1f} s ({detail})")


if __name__ == "__main__":
    main()
