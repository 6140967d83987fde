#!/usr/bin/env python3
"""How well does each evaluation predict held-out training records? The trainer's loss,
measured on Shishi's own static evaluation (`e`) of each position: the built-in
hand-written evaluation and any number of nets, side by side.

    python3 scripts/nnue_eval_loss.py --shishi target/release/shishi \
        --records held.bin [--count 4000] [--skip N] [--arch chu|kagamigi|shogammon] [NET.bin ...]

(`--arch chu`, `kagamigi` or `shogammon`: that game's training lines and nets, its hand-written
evaluation as the built-in one.)

For each evaluator it prints the cross entropy of sigmoid(e / scale) against the
trainer's target at lambda 0.7 (its default), 1 (search score only) and 0 (game result
only), the correlation of e with the records' search scores, and mean |e|. A net whose
loss is not below the hand-written evaluation's on the same records has not learned what
that evaluation knows; a lower loss is necessary for a net to play better, not
sufficient (docs/NNUE.md, "Training a net", shows both).
"""

import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The held-out records, Shishi's evaluations and the loss, as the trainer has them.
from train_nnue import ARCHS, OUTPUT_SCALE, held_out, loss_of, shishi_evals  # noqa: E402

LAMBDAS = (0.7, 1.0, 0.0)


def cross_entropy(cp, score, result, lam, scale):
    """The trainer's loss for evaluations `cp` (centipawns) of the records."""
    as_tensor = lambda values: torch.from_numpy(values.astype(np.float32))  # noqa: E731
    return float(loss_of(as_tensor(cp / OUTPUT_SCALE), as_tensor(score), as_tensor(result),
                         scale, lam))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("nets", nargs="*", help="nn.bin files to compare with the built-in evaluation")
    parser.add_argument("--shishi", required=True)
    parser.add_argument("--records", required=True,
                        help="held-out PackedSfenValue file (a 12x12 game's lines with --arch)")
    parser.add_argument("--arch", choices=sorted(ARCHS), default="kp",
                        help="the nets' architecture; chu or kagamigi for a 12x12 game, shogammon")
    parser.add_argument("--count", type=int, default=4000)
    parser.add_argument("--skip", type=int, default=0)
    parser.add_argument("--scale", type=float, default=600.0)
    parser.add_argument("--max-score", type=int, default=3000)
    args = parser.parse_args()

    records, sfens = held_out(args.shishi, [args.records], args.skip, args.count, args.arch)
    keep = np.abs(records["score"].astype(np.int32)) <= args.max_score
    score = records["score"].astype(np.float64)[keep]
    result = records["result"].astype(np.float64)[keep]
    print(f"{len(sfens)} positions, {int(keep.sum())} with |score| <= {args.max_score}")
    print(f"{'evaluation':40} " + " ".join(f"loss@{lam:<4}" for lam in LAMBDAS)
          + "  corr(score)  mean|e|")
    rows = [("search score itself (the floor)", score)]
    for net in [None, *args.nets]:
        evals = shishi_evals(args.shishi, net, sfens, args.arch)[keep]
        rows.append((net or "built-in (hand-written)", evals))
    for name, cp in rows:
        losses = " ".join(f"{cross_entropy(cp, score, result, lam, args.scale):9.5f}"
                          for lam in LAMBDAS)
        print(f"{name[-40:]:40} {losses}  {np.corrcoef(cp, score)[0, 1]:11.4f}  "
              f"{np.abs(cp).mean():7.1f}")


if __name__ == "__main__":
    main()
