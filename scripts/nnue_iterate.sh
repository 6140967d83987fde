#!/usr/bin/env bash
# One round of improving a standard-shogi K+P net on its own games (docs/NNUE.md, "A round of
# improvement"): the base net plays itself (`shishi gensfen`), the games become features
# (`shishi nnue-features`), the base net is trained further on them (`train_nnue.py train
# --init`), the result must pass the quantisation check on positions held out of training,
# and then it plays the base net at a node limit until the SPRT decides (`shishi match`).
#
# Every step writes into WORK and is skipped when its output is already there, and the data
# generation and the match continue where they stopped: after an interruption, run the same
# command again. The data file can also be made elsewhere (gensfen's --shard) and copied in.
#
#   WORK=/path/round1 scripts/nnue_iterate.sh
#
# Settings (environment): SHISHI (default target/release/shishi), BASE (a kp nn.bin; default
# the built-in net), POSITIONS (2000000), NODES (2000 a move for the data), SEED (1),
# EPOCHS (2), LR (3e-4), GATE_NODES (20000), GATE_GAMES (1400: the wide book's 714 openings
# give 1428 distinct games under a node limit), CONCURRENCY (2).
# Needs PyTorch (`pip install torch`) from the training step on.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
: "${WORK:?WORK=directory for this round}"
shishi="${SHISHI:-$root/target/release/shishi}"
base="${BASE:-$root/src/eval/nnue/builtin-kp.nn}"
positions="${POSITIONS:-2000000}"
nodes="${NODES:-2000}"
seed="${SEED:-1}"
epochs="${EPOCHS:-2}"
lr="${LR:-3e-4}"
gate_nodes="${GATE_NODES:-20000}"
gate_games="${GATE_GAMES:-1400}"
concurrency="${CONCURRENCY:-2}"
held=20000
train="python3 $root/scripts/train_nnue.py"

[ -x "$shishi" ] || { echo "no shishi binary at $shishi (cargo build --release)" >&2; exit 1; }
[ -f "$base" ] || { echo "no base net at $base" >&2; exit 1; }
mkdir -p "$WORK"
step() { echo "== $* ($(date -u +%T))"; }

step "1. the base net's own games: $positions positions at $nodes nodes a move"
"$shishi" gensfen --out "$WORK/data.bin" --nodes "$nodes" --positions "$positions" \
    --threads "$concurrency" --seed "$seed" --openings "$root/positions/openings/shogi-wide.txt" \
    --quiet-only --eval-file "$base"

step "2. features"
if [ ! -f "$WORK/data.feat" ] || [ "$WORK/data.bin" -nt "$WORK/data.feat" ]; then
    "$shishi" nnue-features "$WORK/data.bin" --out "$WORK/data.feat"
fi

step "3. the base net trained further ($epochs epochs, lr $lr; the last $held positions held out)"
python3 -c "import torch" 2>/dev/null || { echo "PyTorch is missing: pip install torch" >&2; exit 1; }
if [ ! -f "$WORK/nn.bin.best" ]; then
    resume=()
    [ -f "$WORK/nn.bin.ckpt" ] && resume=(--resume)
    $train train "$WORK/data.feat" --arch kp --init "$base" --out "$WORK/nn.bin" \
        --epochs "$epochs" --lr "$lr" --lr-decay 0.85 --batch-size 4096 --lambda 0.7 \
        --validation "$held" --threads "$concurrency" --seed "$seed" "${resume[@]}"
fi

step "4. quantisation check on 2000 held-out positions"
records=$(( $(stat -L -c %s "$WORK/data.bin") / 40 ))
$train check --checkpoint "$WORK/nn.bin.ckpt.best" --net "$WORK/nn.bin.best" \
    --records "$WORK/data.bin" --skip $(( records - 2000 )) --count 2000 --shishi "$shishi"

step "5. the new net against the base at $gate_nodes nodes a move, SPRT [0, 10]"
resume=()
[ -f "$WORK/gate/games.jsonl" ] && resume=(--resume)
"$shishi" match --engine1 "$shishi" --name1 new --option1 "EvalFile=$WORK/nn.bin.best" \
    --engine2 "$shishi" --name2 base --option2 "EvalFile=$base" \
    --tc "nodes=$gate_nodes" --games "$gate_games" --concurrency "$concurrency" --sprt 0 10 \
    --openings "$root/positions/openings/shogi-wide.txt" --resign-score 1500 --resign-moves 4 \
    --out "$WORK/gate" "${resume[@]}"
step "round done: the new net is $WORK/nn.bin.best; the gate's record is $WORK/gate"
