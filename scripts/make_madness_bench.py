#!/usr/bin/env python3
"""Cuts bench positions for the Central Madness out of `shishi match` records.

    scripts/make_madness_bench.py [--depth N] [--every K] RECORD.usi ...

A record holds the referee's true token stream (both players' cards). A bench position is
what one engine is sent: the stream up to a cut, seen by the player who acts next, so the
opponent's drawn cards become `draw:?`. Cuts are taken every K tokens, only where the player
to act has a decision (a normal move, or card-or-roll on 5e); each line is printed as
`DEPTH startpos moves TOKENS` for positions/bench/madness.sfen.

Whose token is whose: the two opening `draw:` tokens deal sente's card, then gote's; every
other token belongs to the player whose turn it is, and the turn passes after a normal move
(anything that is not `draw:`, `c:`, `roll`, `r:` or `mad±`).
"""

import argparse

TURN_TOKENS = ("draw:", "c:", "r:", "roll", "mad")


def owners(tokens):
    """The colour (0 sente, 1 gote) each token belongs to, and whose turn follows it."""
    owner, deals, mover = [], 0, 0
    for t in tokens:
        if t.startswith("draw:") and deals < 2:
            owner.append(deals)
            deals += 1
            continue
        owner.append(mover)
        if not t.startswith(TURN_TOKENS):
            mover ^= 1
    return owner, mover


def view(tokens, viewer):
    """The stream as `viewer` receives it: the opponent's draws hidden."""
    own, _ = owners(tokens)
    return [
        "draw:?" if t.startswith("draw:") and who != viewer else t
        for t, who in zip(tokens, own)
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--every", type=int, default=40)
    ap.add_argument("records", nargs="+")
    args = ap.parse_args()
    for path in args.records:
        line = next(l for l in open(path) if l.startswith("position startpos moves "))
        tokens = line.split()[3:]
        for cut in range(args.every, len(tokens), args.every):
            # Move the cut forward to a decision: the next token must be the mover's own
            # normal move, card (`c:`) or `roll`.
            while cut < len(tokens) and tokens[cut].startswith(("draw:", "r:", "mad")):
                cut += 1
            if cut >= len(tokens) - 1:
                break
            prefix = tokens[:cut]
            _, mover = owners(prefix)
            print(f"{args.depth} startpos moves {' '.join(view(prefix, mover))}")


if __name__ == "__main__":
    main()
