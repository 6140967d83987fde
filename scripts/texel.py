#!/usr/bin/env python3
"""Texel-style fit of standard shogi's evaluation weights (the fitting half).

Reads the features written by the ignored test `tuning::texel::texel_features` (PREFIX.bin,
PREFIX.json; see scripts/texel.sh), fits the logistic scale K of the current evaluation to
the game results, then fits every weight by gradient descent on the mean squared error
between the result and sigmoid(K * score), with an L2 pull towards the current weights.
One game in ten (by game number) is held out; the held-out error before and after is the
check that the fit generalises. Prints the fitted weights as the fields of `Weights`.

usage: texel.py PREFIX [--epochs N] [--l2 LAMBDA] [--rate R]
"""
import argparse
import json

import numpy as np


def sigmoid(score, k):
    return 1.0 / (1.0 + np.power(10.0, -k * score / 400.0))


def mse(y, score, k):
    return float(np.mean((y - sigmoid(score, k)) ** 2))


def fit_k(y, score):
    """Golden-section search of the scale minimising the error of the current scores."""
    lo, hi = 0.1, 3.0
    for _ in range(60):
        a = hi - (hi - lo) / 1.618
        b = lo + (hi - lo) / 1.618
        if mse(y, score, a) < mse(y, score, b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prefix")
    ap.add_argument("--epochs", type=int, default=400)
    ap.add_argument("--l2", type=float, default=1e-9, help="pull towards the current weights")
    ap.add_argument("--rate", type=float, default=1.0, help="Adam step in centipawns")
    ap.add_argument("--out", help="write the fitted weights as JSON here")
    args = ap.parse_args()

    meta = json.load(open(args.prefix + ".json"))
    names, w0 = meta["names"], np.array(meta["defaults"], dtype=np.float64)
    cols = 3 + len(names)
    raw = np.fromfile(args.prefix + ".bin", dtype="<i4").reshape(-1, cols)
    game, y, current = raw[:, 0], raw[:, 1] / 2.0, raw[:, 2].astype(np.float64)
    x = raw[:, 3:].astype(np.float64)
    held = game % 10 == 0
    train, test = ~held, held
    print(f"{meta['games']} games, {len(y)} positions ({int(test.sum())} held out), "
          f"{len(names)} parameters")
    linear = x @ w0
    print(f"features x current weights vs the engine's score: mean |diff| "
          f"{np.mean(np.abs(linear - current)):.2f} cp, max {np.max(np.abs(linear - current)):.1f}")

    k = fit_k(y[train], current[train])
    print(f"K = {k:.4f}; error train {mse(y[train], current[train], k):.6f} "
          f"held out {mse(y[test], current[test], k):.6f}")

    # Adam on the weights (K fixed: the score scale stays centipawns).
    w = w0.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    xt, yt = x[train], y[train]
    c = k * np.log(10.0) / 400.0
    for epoch in range(1, args.epochs + 1):
        s = sigmoid(xt @ w, k)
        grad = xt.T @ ((s - yt) * s * (1 - s) * c) * 2 / len(yt) + 2 * args.l2 * (w - w0)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        mh = m / (1 - 0.9 ** epoch)
        vh = v / (1 - 0.999 ** epoch)
        w -= args.rate * mh / (np.sqrt(vh) + 1e-12)
        if epoch % 100 == 0 or epoch == args.epochs:
            print(f"epoch {epoch}: train {mse(yt, xt @ w, k):.6f} "
                  f"held out {mse(y[test], x[test] @ w, k):.6f}")

    fitted = {name: int(round(val)) for name, val in zip(names, w)}
    print("changed most:")
    order = np.argsort(-np.abs(w - w0))
    for i in order[:25]:
        print(f"  {names[i]:16s} {w0[i]:8.1f} -> {w[i]:8.1f}")
    if args.out:
        json.dump(fitted, open(args.out, "w"), indent=0)
        print(f"written {args.out}")
    print("as the fields of Weights (per-cent knobs at 100):")
    print(rust_fields(fitted))


def shape_table(prefix, fitted):
    """A king-relative shape table (14 kinds by 29 cells; the king's row and cell 0 are 0)."""
    rows = ("    [" + ", ".join(str(fitted.get(f"{prefix}[{k}][{c}]", 0)) for c in range(29))
            + "],\n" for k in range(14))
    return "[\n" + "".join(rows) + "]"


def rust_fields(fitted):
    """The fitted values as `Weights` field initialisers (the king's board value stays 0)."""
    def row(values):
        return "[" + ", ".join(str(v) for v in values) + "]"

    def table(prefix, rows, cols):
        return "[\n" + "".join(
            "    " + row(fitted[f"{prefix}[{r}][{c}]"] for c in range(cols)) + ",\n"
            for r in range(rows)) + "]"

    board = [0 if k == 7 else fitted[f"board[{k}]"] for k in range(14)]
    return "\n".join([
        f"board: {row(board)},",
        f"hand: {row(fitted[f'hand[{h}]'] for h in range(7))},",
        "hand_count: [\n" + "".join(
            "    " + row(fitted.get(f"hand_count[{h}][{n}]", 0) for n in range(18)) + ",\n"
            for h in range(7)) + "],",
        f"rank: {table('rank', 14, 9)},",
        f"king_file: {row(fitted[f'king_file[{f}]'] for f in range(9))},",
        "pst_percent: 100,",
        f"attack: {table('attack', 14, 3)},",
        "attack_percent: 100,",
        f"defend: {table('defend', 14, 3)},",
        "defend_percent: 100,",
        f"attack_shape: {shape_table('attack_shape', fitted)},",
        f"defend_shape: {shape_table('defend_shape', fitted)},",
        f"tempo: {fitted['tempo']},",
    ])


if __name__ == "__main__":
    main()
