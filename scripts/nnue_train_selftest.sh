#!/usr/bin/env bash
# End-to-end check of making a net from nothing (docs/NNUE.md, "Training a net"), small
# enough for a few minutes on two cores: a little self-play data (`shishi gensfen`), its
# features (`shishi nnue-features`), about 220 training steps, stopped and resumed
# (`scripts/train_nnue.py train`), the written nn.bin loaded by Shishi and compared with the
# float model on held-out positions (`train_nnue.py check`, which must pass), and a net
# written with each of two deliberately wrong quantisations, which the check must refuse.
# With ARCH=kp it also starts a quantisation-aware model from the built-in net
# (`train --init`) and writes it back untrained, which must give the built-in net's file
# byte for byte, then fine-tunes it for a few steps. ARCH=chu and ARCH=kagamigi make a net of
# a 12×12 game the same way (`--variant chushogi|chukagamigi`, their training lines, loaded
# through ChuEvalFile/KagamigiEvalFile), and read the trained net back with `--init`, which
# must give its file byte for byte (ARCH=chu-pk: Chu with the pieces near the royals too);
# ARCH=shogammon (or shogammon-pk, the king-relative features) does the same for Shogammon
# (a line per turn, ShogammonEvalFile).
#
# Needs PyTorch (`pip install torch`); it is not part of .ci/run.
#
#   scripts/nnue_train_selftest.sh [WORKDIR]     (SHISHI=path/to/shishi to pick the binary,
#                                                 ARCH=kp|chu|chu-pk|kagamigi|shogammon|shogammon-pk)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
shishi="${SHISHI:-$root/target/release/shishi}"
work="${1:-$(mktemp -d)}"
mkdir -p "$work"
train="python3 $root/scripts/train_nnue.py"
arch="${ARCH:-halfkp}"
[ -x "$shishi" ] || { echo "no shishi binary at $shishi (cargo build --release)" >&2; exit 1; }
python3 -c "import torch" 2>/dev/null || { echo "PyTorch is missing: pip install torch" >&2; exit 1; }

# The game of the net: its gensfen/nnue-features variant and the USI commands that load it.
variant=() features=() setup=() option=EvalFile
case "$arch" in
chu) variant=(--variant chushogi) setup=("setoption name USI_Variant value chushogi") option=ChuEvalFile ;;
chu-pk) variant=(--variant chushogi) features=(--arch chu-pk) setup=("setoption name USI_Variant value chushogi") option=ChuEvalFile ;;
kagamigi) variant=(--variant chukagamigi) setup=("setoption name USI_Variant value chukagamigi") option=KagamigiEvalFile ;;
shogammon) variant=(--variant shogammon) setup=("setoption name USI_Variant value shogammon") option=ShogammonEvalFile ;;
shogammon-pk) variant=(--variant shogammon) features=(--arch shogammon-pk) setup=("setoption name USI_Variant value shogammon") option=ShogammonEvalFile ;;
esac

step() { echo "== $* ($(date -u +%T))"; }

step "self-play data"
rm -f "$work"/train.bin* "$work"/held.bin*
"$shishi" gensfen "${variant[@]}" --out "$work/train.bin" --nodes 300 --positions 20000 --threads 2 --seed 101
"$shishi" gensfen "${variant[@]}" --out "$work/held.bin" --nodes 300 --positions 1000 --threads 2 --seed 102

step "features"
"$shishi" nnue-features "${variant[@]}" "${features[@]}" "$work/train.bin" --out "$work/train.feat"

step "train: stopped after 100 steps (in epoch 2), then resumed to the end of epoch 3"
common=(--arch "$arch" --out "$work/nn.bin" --batch-size 256 --epochs 3 --report-every 25 --validation 1000 --seed 1)
rm -f "$work"/nn.bin*
$train train "$work/train.feat" "${common[@]}" --max-steps 100
$train train "$work/train.feat" "${common[@]}" --resume

step "Shishi loads the net"
out="$(printf '%s\nsetoption name %s value %s\nisready\nposition startpos\ne\nquit\n' \
    "${setup[@]:-}" "$option" "$work/nn.bin" | "$shishi")"
echo "$out" | grep -q '^info string loaded the net' || { echo "not loaded: $out" >&2; exit 1; }
if echo "$out" | grep -q 'info string error'; then echo "$out" >&2; exit 1; fi
echo "$out" | grep '^eval =' || { echo "no evaluation: $out" >&2; exit 1; }

step "quantisation check (must pass)"
$train check --checkpoint "$work/nn.bin.ckpt" --net "$work/nn.bin" \
    --records "$work/held.bin" --count 1000 --shishi "$shishi"

mistakes=(no-merge output-scale)
# Only halfkp has factorised rows to leave out.
[ "$arch" != halfkp ] && mistakes=(output-scale)
for mistake in "${mistakes[@]}"; do
    step "a deliberately wrong quantisation, $mistake (the check must fail)"
    $train export --checkpoint "$work/nn.bin.ckpt" --out "$work/wrong.bin" \
        --deliberately-wrong-quantisation "$mistake"
    if $train check --checkpoint "$work/nn.bin.ckpt" --net "$work/wrong.bin" \
        --records "$work/held.bin" --count 1000 --shishi "$shishi"; then
        echo "the check passed a wrongly quantised net ($mistake)" >&2
        exit 1
    fi
    echo "the check refused the wrongly quantised net ($mistake), as it must"
done
if [ "$arch" = kp ]; then
    step "--init: the built-in net read into the model and written back untrained, byte for byte"
    builtin="$root/src/eval/nnue/builtin-kp.nn"
    $train train "$work/train.feat" --arch kp --init "$builtin" --out "$work/init.bin" \
        --batch-size 256 --max-steps 0
    cmp "$builtin" "$work/init.bin" || { echo "--init did not give the same file back" >&2; exit 1; }
    step "--init: fine-tuned for 20 steps, then checked like any net"
    $train train "$work/train.feat" --arch kp --init "$builtin" --out "$work/tuned.bin" \
        --batch-size 256 --epochs 1 --max-steps 20 --lr 1e-4 --validation 1000
    $train check --checkpoint "$work/tuned.bin.ckpt" --net "$work/tuned.bin" \
        --records "$work/held.bin" --count 1000 --shishi "$shishi"
fi
if [ "$arch" != halfkp ] && [ "$arch" != kp ]; then
    step "--init: the trained net read into the model and written back untrained, byte for byte"
    $train train "$work/train.feat" --arch "$arch" --init "$work/nn.bin" --out "$work/init.bin" \
        --batch-size 256 --max-steps 0
    cmp "$work/nn.bin" "$work/init.bin" || { echo "--init did not give the same file back" >&2; exit 1; }
fi
step "selftest passed"
