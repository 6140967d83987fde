#!/usr/bin/env python3
"""Cross-check a shogi .perft file against cshogi (and optionally against an engine).

File format, one line per (position, depth); '#' lines and blank lines are ignored:

    <sfen> ; <depth> ; <nodes>

Default mode: recompute every line with cshogi (PyPI; Apery's C++ move generator; installed
with pip on first use) and compare with the expected count.

--engine PATH: also run `PATH perft --variant shogi --sfen "<sfen>" --depth D` for every line
and compare the number on its output line `nodes <N>` with cshogi's count and the file's.
--no-cshogi with --engine compares the engine against the file only (no cshogi needed).

Prints OK / MISMATCH / SKIP per line and a summary; exits 1 on any mismatch or engine error.

    python3 scripts/perft_crosscheck.py [FILE] [--max-nodes N] [--engine PATH] [--no-cshogi]
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_FILE = os.path.join(HERE, "..", "positions", "perft", "shogi.perft")


def import_cshogi():
    try:
        import cshogi  # noqa: F401
    except ImportError:
        print("cshogi not found; installing it with pip ...", file=sys.stderr, flush=True)
        cmd = [sys.executable, "-m", "pip", "install", "-q", "cshogi"]
        if subprocess.call(cmd) != 0:
            # e.g. an externally-managed system Python
            subprocess.check_call(cmd + ["--break-system-packages"])
        import importlib
        importlib.invalidate_caches()
    import cshogi
    return cshogi


def perft(board, depth):
    """Interior plies in Python, last ply counted from cshogi's legal-move list."""
    if depth <= 1:
        return len(board.legal_moves) if depth == 1 else 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def parse(path):
    entries = []
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split(";")]
            if len(parts) != 3:
                raise SystemExit(f"{path}:{lineno}: expected '<sfen> ; <depth> ; <nodes>', got: {line}")
            sfen, depth, nodes = parts
            if len(sfen.split()) != 4:
                raise SystemExit(f"{path}:{lineno}: SFEN must have 4 fields: {sfen}")
            entries.append((lineno, sfen, int(depth), int(nodes)))
    return entries


def run_engine(engine, sfen, depth, timeout):
    cmd = [engine, "perft", "--variant", "shogi", "--sfen", sfen, "--depth", str(depth)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timeout after {timeout}s"
    except OSError as e:
        raise SystemExit(f"cannot run engine {engine!r}: {e}")
    for line in p.stdout.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "nodes":
            try:
                return int(words[1]), None
            except ValueError:
                break
    tail = (p.stderr.strip() or p.stdout.strip()).splitlines()[-3:]
    return None, f"exit {p.returncode}, no 'nodes <N>' line; " + " | ".join(tail)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?", default=DEFAULT_FILE, help="perft file (default positions/perft/shogi.perft)")
    ap.add_argument("--max-nodes", type=int, default=None, help="skip lines whose expected count is above N")
    ap.add_argument("--engine", help="engine binary to compare as well (PATH perft --variant shogi --sfen S --depth D)")
    ap.add_argument("--no-cshogi", action="store_true", help="with --engine: compare the engine with the file only")
    ap.add_argument("--timeout", type=float, default=600, help="seconds allowed per engine run (default 600)")
    args = ap.parse_args()
    if args.no_cshogi and not args.engine:
        ap.error("--no-cshogi needs --engine")

    entries = parse(args.file)
    cshogi = None if args.no_cshogi else import_cshogi()
    ok = bad = skipped = 0
    t_cs = t_en = 0.0
    t_start = time.perf_counter()
    for lineno, sfen, depth, expected in entries:
        if args.max_nodes is not None and expected > args.max_nodes:
            skipped += 1
            print(f"SKIP     line {lineno}: depth {depth} expected {expected} > --max-nodes  {sfen}", flush=True)
            continue
        problems, info = [], []
        if cshogi is not None:
            t0 = time.perf_counter()
            got = perft(cshogi.Board(sfen), depth)
            dt = time.perf_counter() - t0
            t_cs += dt
            info.append(f"cshogi {got} {dt:.2f}s")
            if got != expected:
                problems.append(f"cshogi {got} != file {expected}")
        if args.engine:
            t0 = time.perf_counter()
            got_e, err = run_engine(args.engine, sfen, depth, args.timeout)
            dt = time.perf_counter() - t0
            t_en += dt
            if err:
                problems.append(f"engine error: {err}")
            else:
                info.append(f"engine {got_e} {dt:.2f}s")
                if got_e != expected:
                    problems.append(f"engine {got_e} != file {expected}")
        if problems:
            bad += 1
            print(f"MISMATCH line {lineno}: depth {depth} expected {expected}: {'; '.join(problems)}  {sfen}", flush=True)
        else:
            ok += 1
            print(f"OK       line {lineno}: depth {depth} nodes {expected} ({', '.join(info)})  {sfen}", flush=True)

    wall = time.perf_counter() - t_start
    timing = f"cshogi {t_cs:.1f}s" + (f", engine {t_en:.1f}s" if args.engine else "")
    print(f"summary: {ok} ok, {bad} mismatched, {skipped} skipped of {len(entries)} lines in {wall:.1f}s ({timing})")
    print(f"{ok} passed, {bad} failed" + (f", {skipped} skipped" if skipped else ""))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
