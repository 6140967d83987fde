#!/usr/bin/env python3
"""Compares Shishi's static evaluation with YaneuraOu's NNUE edition on the same net.

Both engines are asked `e` (YaneuraOu's extension: `eval = N`, the static evaluation of the
current position for the side to move) on the same positions with the same `nn.bin`, and
every difference is reported. The net is written by `shishi testnet --seed S --arch A`
(random weights in the halfkp_256x2-32-32 or kp_256x2-32-32 format), or given with --net.

YaneuraOu is built here from a source tree you provide (nothing of it is in this
repository): --yaneuraou-source (or $YANEURAOU_SRC) names a checkout holding `source/`;
the source is copied to a scratch folder and built there with its Makefile, as the edition
of the architecture (--arch):
`make normal TARGET_CPU=AVX2 YANEURAOU_EDITION=YANEURAOU_ENGINE_NNUE COMPILER=g++` for
halfkp, `YANEURAOU_EDITION=YANEURAOU_ENGINE_NNUE_KP256` for kp (each edition reads only its
own architecture). --yaneuraou names an already built binary of that edition instead.

Positions: the standard-shogi lines of positions/ (bench SFENs, the openings played out),
then random playouts from the start and from handicap starts (cshogi's move generator,
seeded), until --count positions; each must have both kings (both feature sets need them).

    scripts/nnue_crosscheck.py --yaneuraou-source ~/src/YaneuraOu --count 1000 --seed 7
    scripts/nnue_crosscheck.py --yaneuraou-source ~/src/YaneuraOu --arch kp --count 1000

Exit status 0 when every value agrees, 1 otherwise.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

import cshogi

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# YaneuraOu's edition (its Makefile's YANEURAOU_EDITION) for each architecture.
EDITIONS = {
    "halfkp": "YANEURAOU_ENGINE_NNUE",
    "kp": "YANEURAOU_ENGINE_NNUE_KP256",
}

HANDICAPS = [
    # lance, bishop, rook, two pieces, four pieces: the stronger side (gote) moves first.
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
]


def build_yaneuraou(source, scratch, arch):
    """Copies YaneuraOu's source/ into scratch and builds the NNUE edition of `arch` there."""
    src = os.path.join(source, "source")
    if not os.path.isdir(src):
        sys.exit(f"{source} has no source/ folder")
    work = os.path.join(scratch, "yaneuraou")
    shutil.copytree(src, os.path.join(work, "source"))
    # A copied tree may hold another edition's objects: build from clean.
    subprocess.run(["make", "clean"], cwd=os.path.join(work, "source"), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    jobs = str(os.cpu_count() or 1)
    subprocess.run(
        ["make", "-j", jobs, "normal", "TARGET_CPU=AVX2",
         f"YANEURAOU_EDITION={EDITIONS[arch]}", "COMPILER=g++"],
        cwd=os.path.join(work, "source"), check=True, stdout=subprocess.DEVNULL)
    return os.path.join(work, "source", "YaneuraOu-by-gcc")


def opening_positions():
    """SFENs from the bench file and every prefix of the openings."""
    out = []
    with open(os.path.join(ROOT, "positions/bench/shogi.sfen")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                out.append(line)
    for name in ["shogi.txt", "shogi-wide.txt"]:
        with open(os.path.join(ROOT, "positions/openings", name)) as f:
            for line in f:
                line = line.split("#")[0].strip()
                if not line:
                    continue
                board = cshogi.Board()
                for move in line.split():
                    board.push_usi(move)
                out.append(board.sfen())
    return out


def playout_positions(rng, count):
    """Positions along random games from the start and from handicap starts."""
    out = []
    starts = [cshogi.STARTING_SFEN] * 2 * len(HANDICAPS) + HANDICAPS
    while len(out) < count:
        board = cshogi.Board(rng.choice(starts))
        for _ in range(rng.randrange(20, 200)):
            moves = list(board.legal_moves)
            if not moves or board.is_draw() == cshogi.REPETITION_DRAW:
                break
            # Captures and promotions more often than chance, for hands and promoted pieces.
            weighted = [m for m in moves if cshogi.move_is_promotion(m) or board.piece(cshogi.move_to(m))]
            pool = weighted if weighted and rng.random() < 0.4 else moves
            board.push(rng.choice(pool))
            if rng.random() < 0.15:
                out.append(board.sfen())
    return out[:count]


def has_both_kings(sfen):
    board = sfen.split()[0]
    return "K" in board and "k" in board


def describe(positions):
    """How many positions have pieces in hand, promoted pieces, missing pieces, gote to move."""
    hands = promoted = missing = gote = 0
    for sfen in positions:
        board, side, hand = sfen.split()[:3]
        hands += hand != "-"
        promoted += "+" in board
        gote += side == "w"
        count = sum(c.isalpha() for c in board)
        digits = "".join(c if c.isdigit() else " " for c in hand).split()
        held = sum(int(d) for d in digits) + sum(
            1 for i, c in enumerate(hand) if c.isalpha() and (i == 0 or not hand[i - 1].isdigit()))
        missing += count + held < 40
    return (f"with pieces in hand {hands}, with promoted pieces {promoted}, "
            f"with pieces missing {missing}, gote to move {gote}")


class Engine:
    def __init__(self, command, options):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("usi")
        self.wait("usiok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.info = self.wait("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait(self, prefix):
        seen = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"engine ended while waiting for {prefix}: {seen[-5:]}")
            line = line.strip()
            if line.startswith(prefix):
                return seen + [line]
            seen.append(line)

    def evaluate(self, sfen):
        self.send(f"position sfen {sfen}")
        self.send("e")
        return int(self.wait("eval = ")[-1].split("=")[1])

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--yaneuraou-source", default=os.environ.get("YANEURAOU_SRC"))
    parser.add_argument("--yaneuraou",
                        help="an already built YaneuraOu binary of the --arch's edition")
    parser.add_argument("--arch", choices=sorted(EDITIONS), default="halfkp",
                        help="the architecture of the test net (and the edition built)")
    parser.add_argument("--shishi", default=os.path.join(ROOT, "target/release/shishi"))
    parser.add_argument("--net", help="an nn.bin to use instead of a random test net")
    parser.add_argument("--net-seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1, help="seed of the random playouts")
    parser.add_argument("--print", action="store_true", help="print sfen and value per line")
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="nnue-crosscheck-")
    try:
        yaneuraou = args.yaneuraou
        if not yaneuraou:
            if not args.yaneuraou_source:
                sys.exit("give --yaneuraou-source (or YANEURAOU_SRC) or --yaneuraou")
            yaneuraou = build_yaneuraou(args.yaneuraou_source, scratch, args.arch)
        if not os.path.exists(args.shishi):
            subprocess.run(["cargo", "build", "--release"], cwd=ROOT, check=True)
        eval_dir = os.path.join(scratch, "eval")
        os.makedirs(eval_dir)
        net = os.path.join(eval_dir, "nn.bin")
        if args.net:
            shutil.copy(args.net, net)
        else:
            subprocess.run([args.shishi, "testnet", "--seed", str(args.net_seed),
                            "--arch", args.arch, net], check=True)

        rng = random.Random(args.seed)
        positions = [p for p in opening_positions() if has_both_kings(p)]
        rng.shuffle(positions)
        positions = positions[: args.count // 3]
        positions += playout_positions(rng, args.count - len(positions))

        options = [("EvalDir", eval_dir)]
        yo = Engine([yaneuraou], options + [("Threads", "1"), ("USI_Hash", "16"),
                                            ("BookFile", "no_book")])
        shishi = Engine([args.shishi], options)
        for line in yo.info + shishi.info:
            if "error" in line.lower() or "warning" in line.lower():
                print(line)
        mismatches = 0
        for sfen in positions:
            expected = yo.evaluate(sfen)
            got = shishi.evaluate(sfen)
            if args.print:
                print(f"{sfen} ; {expected}")
            if expected != got:
                mismatches += 1
                print(f"MISMATCH {sfen}: YaneuraOu {expected}, Shishi {got}")
        yo.quit()
        shishi.quit()
        print(f"positions {len(positions)} mismatches {mismatches}")
        print(describe(positions))
        return 1 if mismatches else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
