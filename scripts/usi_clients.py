#!/usr/bin/env python3
"""Run the release `shishi` binary under a real USI client: cshogi.

(a) A `cshogi.usi.Engine` session: usi, setoption, isready, usinewgame, position, go with
    several clock shapes (bestmove parsed and checked legal with cshogi), InfoListener
    parsing, go mate (one `checkmate` line; moves, if any, must mate), a bad position (the
    engine must survive), quit.
(b) A `python -m cshogi.cli` self-play match (default 20 games, byoyomi 100 ms), plus a
    short --ponder match with a Fischer clock. Every line the engines send is checked, read
    from their own debug transcripts (RUST_LOG) through a small wrapper script.
    Reports protocol errors (`info string error`, malformed lines), illegal moves
    (反則負け / %ILLEGAL_MOVE) and time losses (切れ負け / %TIME_UP).

Usage: scripts/usi_clients.py [--binary target/release/shishi] [--games 20] [--byoyomi 100]
                              [--ponder-games 4] [--keep DIR]
Builds the binary with `cargo build --release` if it is missing. Installs cshogi with pip if
it is not importable. Exits non-zero on any problem.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

try:
    import cshogi
    from cshogi.usi import Engine, InfoListener
except ImportError:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", "cshogi"])
    import cshogi
    from cshogi.usi import Engine, InfoListener

MATE3_SFEN = "4k4/9/4P4/9/9/9/9/9/K8 b RSr2b4g3s4n4l17p 1"
MOVE = r"(?:[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i])"
LINE_FORMS = [
    re.compile(r"^id (name|author) \S.*$"),
    re.compile(r"^option name \S+ type \S+.*$"),
    re.compile(r"^(usiok|readyok)$"),
    re.compile(rf"^bestmove (resign|win|{MOVE}( ponder {MOVE})?)$"),
    re.compile(rf"^checkmate (nomate|timeout|notimplemented|{MOVE}( {MOVE})*)$"),
    re.compile(r"^info string \S.*$"),
    re.compile(
        r"^info( (depth|seldepth|time|nodes|nps|hashfull|multipv) \d+"
        r"| score (cp -?\d+|mate ([+-]|-?\d+|\+\d+))( lowerbound| upperbound)?)*"
        rf"( pv {MOVE}( {MOVE})*)?$"
    ),
]

problems = []


def problem(text):
    problems.append(text)
    print("PROBLEM:", text)


def check_engine_line(line):
    if not any(form.match(line) for form in LINE_FORMS):
        problem(f"malformed engine line: {line!r}")
    if line.startswith("info string error"):
        problem(f"engine reported an error: {line!r}")


def legal(sfen_or_moves, usi, board=None):
    board = board or cshogi.Board()
    move = board.move_from_usi(usi)
    return move != 0 and board.is_legal(move)


def session(binary):
    print("== (a) cshogi.usi.Engine session ==")
    seen = []

    def listener(line):
        seen.append(line)

    t0 = time.perf_counter()
    engine = Engine(binary)
    print(f"connected: name={engine.name!r} in {time.perf_counter() - t0:.3f}s")
    lines = engine.usi(listener=listener)
    for line in lines:
        check_engine_line(line)
    options = [l for l in lines if l.startswith("option ")]
    print(f"{len(options)} options declared")
    engine.setoption("USI_Hash", 16, listener=listener)
    engine.setoption("USI_Ponder", "false", listener=listener)
    engine.setoption("MultiPV", 1, listener=listener)
    engine.isready(listener=listener)
    engine.usinewgame(listener=listener)

    board = cshogi.Board()
    moves = []
    shapes = [
        dict(byoyomi=100),
        dict(btime=1000, wtime=1000, byoyomi=100),
        dict(btime=10000, wtime=10000, binc=100, winc=100),
        dict(nodes=1000),
    ]
    for ply in range(8):
        engine.position(moves, listener=listener)
        info = InfoListener()
        best, ponder = engine.go(listener=info.listen(), **shapes[ply % len(shapes)])
        if not legal(None, best, board):
            problem(f"illegal bestmove {best} after {moves}")
            break
        if ponder is not None:
            board.push_usi(best)
            if not legal(None, ponder, board):
                problem(f"illegal ponder move {ponder}")
            board.pop()
        print(f"ply {ply + 1}: go {shapes[ply % len(shapes)]} -> {best} "
              f"(score {info.score}, pv {info.pv})")
        board.push_usi(best)
        moves.append(best)

    engine.position(sfen="sfen " + MATE3_SFEN, listener=listener)
    for limit in (1000, None):
        answer = engine.go_mate(byoyomi=limit, listener=listener)
        print(f"go mate {limit if limit is not None else 'infinite'} -> checkmate {answer}")
        if answer not in ("nomate", "timeout", "notimplemented"):
            b = cshogi.Board(MATE3_SFEN)
            for m in answer.split():
                if not legal(None, m, b):
                    problem(f"checkmate line has an illegal move {m}: {answer}")
                    break
                b.push_usi(m)
            else:
                if not b.is_game_over():
                    problem(f"checkmate line does not mate: {answer}")

    # A bad position must be reported and survived.
    engine.position(["7g7f", "7g7f"], listener=listener)
    engine.isready(listener=listener)
    if not any(l.startswith("info string error") for l in seen):
        problem("an illegal position was not reported")
    seen[:] = [l for l in seen if not l.startswith("info string error")]
    engine.position(["7g7f"], listener=listener)
    best, _ = engine.go(byoyomi=100, listener=listener)
    b = cshogi.Board()
    b.push_usi("7g7f")
    if not legal(None, best, b):
        problem(f"illegal bestmove {best} after a refused position")
    print(f"after a refused position: bestmove {best}")
    engine.gameover(listener=listener)
    t0 = time.perf_counter()
    engine.quit(listener=listener)
    print(f"quit took {time.perf_counter() - t0:.3f}s")
    for line in seen:
        if not line.startswith(("position", "go", "usinewgame", "isready", "setoption",
                                "gameover", "quit", "usi")):
            check_engine_line(line)


def wrapper(binary, keep, label):
    """A shell script that runs the engine with its protocol transcript (RUST_LOG debug, one
    `> line` record per line sent) in a log file per process. cshogi.cli's own --debug output
    is not usable for checking: with --ponder its listener threads interleave their prints."""
    logs = os.path.join(keep, label + ".engine-logs")
    shutil.rmtree(logs, ignore_errors=True)
    os.makedirs(logs)
    path = os.path.join(keep, label + ".engine.sh")
    with open(path, "w") as f:
        f.write("#!/bin/sh\n")
        f.write(f'exec env RUST_LOG=shishi::usi=debug "{binary}" 2>>"{logs}/engine-$$.log"\n')
    os.chmod(path, 0o755)
    return path, logs


def engine_lines_from_logs(logs):
    """The protocol lines the engines wrote, from their debug logs."""
    out = []
    for name in sorted(os.listdir(logs)):
        with open(os.path.join(logs, name), errors="replace") as f:
            for line in f:
                m = re.match(r"^\[[^\]]*\] > (.*)$", line.rstrip("\n"))
                if m:
                    out.append(m.group(1))
    return out


def match(binary, games, extra, label, keep, timeout):
    print(f"== (b) cshogi.cli match: {label} ==")
    slug = label.replace(" ", "_")
    csa_file = os.path.join(keep, slug + ".csa")
    if os.path.exists(csa_file):
        os.remove(csa_file)
    engine, logs = wrapper(binary, keep, slug)
    cmd = [sys.executable, "-m", "cshogi.cli", engine, engine,
           "--name1", "shishi-a", "--name2", "shishi-b",
           "--options1", "USI_Hash:16,Threads:1", "--options2", "USI_Hash:16,Threads:1",
           "--games", str(games), "--csa", csa_file, "--multi-csa"] + extra
    print("$ " + " ".join(cmd))
    t0 = time.perf_counter()
    hung = False
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, cwd=keep, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        # The engines get end-of-input when cshogi.cli dies and exit by themselves.
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        run = subprocess.CompletedProcess(cmd, -1, out, "")
        hung = True
        problem(f"the match hung: no result within {timeout} s (see the engine transcripts)")
    took = time.perf_counter() - t0
    log_path = os.path.join(keep, slug + ".log")
    with open(log_path, "w") as f:
        f.write(run.stdout)
        f.write(run.stderr)
    if run.returncode != 0 and not hung:
        problem(f"cshogi.cli exited with {run.returncode}: {run.stderr[-2000:]}")
    lines = engine_lines_from_logs(logs)
    for text in lines:
        check_engine_line(text)
    results = []
    for line in run.stdout.splitlines():
        if line.startswith("まで"):
            results.append(line)
            if "反則" in line:
                problem(f"illegal move / foul: {line}")
            if "切れ負け" in line:
                problem(f"time loss: {line}")
    endings = {}
    with open(csa_file) as f:
        for l in f:
            if l.startswith("%") or l.startswith("ILLEGAL"):
                endings[l.strip()] = endings.get(l.strip(), 0) + 1
    for bad in ("%ILLEGAL_MOVE", "%TIME_UP", "ILLEGAL_MOVE"):
        if bad in endings:
            problem(f"{endings[bad]} game(s) ended with {bad}")
    summary = {}
    for l in run.stdout.splitlines():
        for prefix in ("shishi-a vs", "Black vs White", "Elo"):
            if l.startswith(prefix):
                summary[prefix] = l  # the last (final) one wins
    counts = {k: sum(1 for l in lines if l.startswith(k)) for k in ("bestmove", "info")}
    ponders = sum(1 for l in lines if l.startswith("bestmove") and " ponder " in l)
    print(f"{len(results)} games in {took:.1f}s; {len(lines)} engine lines checked "
          f"({counts['bestmove']} bestmove, {ponders} with a ponder move, {counts['info']} info)")
    print("game endings (CSA):", endings)
    for l in summary.values():
        print(l)
    print("cshogi output:", log_path, "engine transcripts:", logs)
    if len(results) != games:
        problem(f"expected {games} finished games, saw {len(results)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "shishi"))
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--byoyomi", type=int, default=100)
    ap.add_argument("--ponder-games", type=int, default=4)
    ap.add_argument("--keep", default=None, help="directory for logs and CSA records")
    ap.add_argument("--match-timeout", type=int, default=1200,
                    help="seconds before a match counts as hung")
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    if not os.path.exists(binary):
        subprocess.check_call(["cargo", "build", "--release"], cwd=ROOT)
    keep = args.keep or tempfile.mkdtemp(prefix="shishi-usi-clients-")
    os.makedirs(keep, exist_ok=True)
    session(binary)
    match(binary, args.games, ["--byoyomi", str(args.byoyomi)],
          f"{args.games} games byoyomi {args.byoyomi}", keep, args.match_timeout)
    if args.ponder_games > 0:
        match(binary, args.ponder_games, ["--time", "10000", "--inc", "100", "--ponder"],
              f"{args.ponder_games} games ponder fischer", keep, args.match_timeout)
    print()
    if problems:
        print(f"FAILED: {len(problems)} problem(s)")
        for p in problems:
            print("  -", p)
        sys.exit(1)
    print("OK: no protocol error, no illegal move, no time loss")


if __name__ == "__main__":
    main()
