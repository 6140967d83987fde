#!/usr/bin/env python3
"""Trains a NNUE net for standard shogi (or for a 12x12 game) on the CPU with PyTorch and
writes it as `nn.bin` in YaneuraOu's format, the file Shishi (and, for shogi, YaneuraOu's
NNUE edition) reads.

Three commands (docs/NNUE.md, "Training a net", says how they fit together):

  train   FEATURES... --out nn.bin      train from feature files (`shishi nnue-features`),
                                        checkpointing as it goes; `--resume` goes on;
                                        `--init NET` starts from the weights of a net file
                                        (fine-tuning) instead of random ones
  export  --checkpoint C --out nn.bin   write the net of a checkpoint
  check   --checkpoint C --net nn.bin --records HELD.bin
                                        compare the float model with Shishi's evaluation
                                        of the written file on held-out positions; exits 1
                                        when the difference passes the bound

The features are computed by Shishi itself (`shishi nnue-features`), never here: this
script only reads the fixed-size records of that file (memory-mapped) and numbers the
inputs from them as Shishi's evaluation does (`--arch`, below).

Architectures (`--arch`):
  halfkp  halfkp_256x2-32-32: 125 388 inputs (81 king squares x 1 548 pieces) to 256 per
          view (one table for both views), the side to move's half first, clipped ReLU,
          512 -> 32 -> 32 -> 1 with clipped ReLU. Trained with factorised features: a
          king-independent table of 1 548 rows ("P") is added to every king's rows during
          training and merged into them when the file is written.
  kp      kp_256x2-32-32: 1 710 inputs to 256 per view, the rest as halfkp. A view's inputs
          are its 38 BonaPieces (0..1547) and the two kings: 1548 + its own king's square,
          1629 + the other king's square, both as that view sees the board (YaneuraOu's
          features K and P). 438 000 transformer weights instead of 32 million: for small
          data sets. Not factorised (the P table is already king-independent).
  chu, kagamigi
          Shishi's own nets for Chu Shogi (chu-p_256x2-32-32, 11 232 inputs) and Chu
          Kagamigi (kagamigi-p_256x2-32-32, 14 400 inputs): one input per piece, king-
          independent (src/eval/nnue/board12.rs), the layers as kp. Their feature files
          (`shishi nnue-features --variant chushogi|chukagamigi`) hold each view's inputs
          themselves (src/eval/nnue/sparse_file.rs). Trained with factorised features: a
          table of one row per kind and side (and hand kind and side) is added to the rows
          of every square (every hand slot) of that kind and merged into them when the file
          is written, so a kind seen on few squares still learns its value.
  chu-pk  Chu Shogi's inputs, then each piece within two files and two ranks of each
          royal by its place from it (chu-pk_256x2-32-32, 15 132 inputs; `nnue-features
          --variant chushogi --arch chu-pk`); the royal blocks factorised by royal, kind and
          side.
  shogammon
          Shishi's own net for Shogammon (shogammon-p_256x2-32-32, 7 056 inputs): one input
          per piece with its place in its stack (alone, under, on top) and the hands
          (src/eval/nnue/shogammon.rs); its feature file (`shishi nnue-features --variant
          shogammon`) as the 12x12 games', and factorised the same way (a row per kind, side
          and place). Its output corrects the material term of the hand-written expected
          result inside its tanh, E = offset + slope * tanh(material + out / 1200), the king
          odds (offset, slope) staying exact (src/eval/shogammon.rs, ExpectedParts; the
          feature file carries the three parts); the engine's win probability is
          (1 + 0.9 E) / 2 (its largest value is 9 000 of 10 000), the logistic of scale 600 of
          1200 * atanh(0.9 E) centipawns, so train it with `--scale 600`.
  shogammon-pk
          The same inputs, then each piece on the board by its offset from each king
          (shogammon-pk_256x2-32-32, 23 240 inputs; `nnue-features --variant shogammon
          --arch shogammon-pk`); the king blocks factorised by king, kind and side.

Float model and integer net (src/eval/nnue/layers.rs):
  * transformer: int16 = round(127 * w), accumulator clamped to 0..127 = 127 * clamp(x, 0, 1);
  * hidden layers: int8 weights = round(64 * w) (weights kept within -2..127/64 while
    training), int32 biases = round(127 * 64 * b) + 32, so that Shishi's `>> 6` rounds to
    the nearest instead of down; clamp 0..127 = 127 * clamp(y, 0, 1);
  * output: the float model's output v is centipawns / 600; int8 weights =
    round(w * 600 * 16 / 127), int32 bias = round(600 * 16 * b), and Shishi divides by 16;
  * bias correction: each affine layer's integer bias also takes back the mean effect of
    rounding its weights (see `quantise`).

Quantisation-aware training (`--quantise-aware`, the default for kp): the forward pass reads
every weight as the file will hold it (rounded to its integer grid and clamped, e.g.
round(127 w) / 127 for the transformer), while the gradient updates the float weights as if
there were no rounding (straight-through). The model trained is then the integer net up to
the rounding of the hidden activations. Not for factorised halfkp (its file rows are sums
of two tables, rounded only when merged).

Loss: the model's win probability sigmoid(cp / scale) against the target
lambda * sigmoid(score / scale) + (1 - lambda) * (result + 1) / 2, by cross entropy
(`--scale 600`, `--lambda 0.7`: 1 learns the search's score only, 0 the game result only).
"""

import argparse
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

try:
    import torch
    import torch.nn.functional as F
    from torch import nn
except ImportError:  # pragma: no cover - said plainly instead of a traceback
    sys.exit("train_nnue.py needs PyTorch: pip install torch")

# --- the feature file (src/eval/nnue/feature_file.rs) -------------------------------------
FEATURE_MAGIC = b"SHISHIFT"
FEATURE_VERSION = 1
FEATURE_HEADER_BYTES = 16
PIECES = 38
RECORD_DTYPE = np.dtype(
    [
        ("score", "<i2"),
        ("ply", "<u2"),
        ("result", "i1"),
        ("stm", "u1"),
        ("kings", "u1", (2,)),
        ("pieces", "<u2", (2, PIECES)),
    ]
)
assert RECORD_DTYPE.itemsize == 160

# --- the 12x12 games' feature file (src/eval/nnue/sparse_file.rs) --------------------------
SPARSE_MAGIC = b"SHISHIFS"
SPARSE_VERSION = 4
SPARSE_HEADER_BYTES = 32
SLOTS = 128
UNUSED = 0xFFFF
SPARSE_DTYPE = np.dtype(
    [
        ("score", "<i2"),
        ("ply", "<u2"),
        ("result", "i1"),
        ("stm", "u1"),
        ("tables", "<i2"),
        ("material", "<f4"),
        ("offset", "<i2"),
        ("slope", "<u2"),
        ("inputs", "<u2", (2, SLOTS)),
    ]
)
assert SPARSE_DTYPE.itemsize == 528

# --- the net (src/eval/nnue/{features,file,layers}.rs) ------------------------------------
PIECE_INPUTS = 1548
KING_SQUARES = 81
HALFKP_INPUTS = KING_SQUARES * PIECE_INPUTS
# KP: the BonaPieces, then one input per square of the view's own king, then per square of
# the other king (src/eval/nnue/features.rs).
FRIEND_KING_INPUT = PIECE_INPUTS
ENEMY_KING_INPUT = PIECE_INPUTS + KING_SQUARES
KP_INPUTS = PIECE_INPUTS + 2 * KING_SQUARES
HALF = 256
HIDDEN = 32
NN_VERSION = 0x7AF32F16
WEIGHT_SCALE_BITS = 6
FV_SCALE = 16
ACTIVATION_SCALE = 127  # the clamp's top: 1.0 in the float model
OUTPUT_SCALE = 600  # centipawns per unit of the float model's output
EVAL_FRACTION = 0.9  # Value::EVAL_MAX / Value::WIN: the chance games' largest static value
TANH_CP = 1200.0  # centipawns per unit of the chance games' tanh: 2 * Value's logistic scale 600
HIDDEN_WEIGHT_LIMIT = (-128 / 64, 127 / 64)
OUTPUT_WEIGHT_FACTOR = OUTPUT_SCALE * FV_SCALE / ACTIVATION_SCALE
OUTPUT_WEIGHT_LIMIT = (-128 / OUTPUT_WEIGHT_FACTOR, 127 / OUTPUT_WEIGHT_FACTOR)


def _affine_hash(outputs, previous):
    h = (0xCC03DAE4 + outputs) & 0xFFFFFFFF
    h ^= previous >> 1
    h ^= (previous << 31) & 0xFFFFFFFF
    return h


def _clipped_relu_hash(previous):
    return (0x538D24C7 + previous) & 0xFFFFFFFF


def network_hash():
    first = _clipped_relu_hash(_affine_hash(HIDDEN, 0xEC42E90D ^ (2 * HALF)))
    second = _clipped_relu_hash(_affine_hash(HIDDEN, first))
    return _affine_hash(1, second)


ARCHS = {
    "halfkp": {
        "inputs": HALFKP_INPUTS,
        "transformer_hash": (0x5D69D5B9 ^ 1) ^ (2 * HALF),
        "text": "Features=HalfKP(Friend)[125388->256x2],Network=AffineTransform[1<-32]("
        "ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](AffineTransform[32<-512]("
        "InputSlice[512(0:512)])))))",
    },
    "kp": {
        "inputs": KP_INPUTS,
        # YaneuraOu's FeatureSet<K, P>: K's hash ^ (P's hash rotated left by one), then ^ 512.
        "transformer_hash": (0xD3CEE169 ^ ((0x764CFB4B << 1) & 0xFFFFFFFF) ^ (0x764CFB4B >> 31))
        ^ (2 * HALF),
        "text": "Features=K+P[1710->256x2],Network=AffineTransform[1<-32]("
        "ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](AffineTransform[32<-512]("
        "InputSlice[512(0:512)])))))",
    },
}


def fnv1a(text):
    """The 32-bit FNV-1a hash of `text` (the hash of Shishi's own feature sets)."""
    h = 0x811C9DC5
    for byte in text.encode():
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h


NETWORK_TEXT = ("Network=AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32]("
                "ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))")

# Shishi's own nets (src/eval/nnue/board12.rs, src/eval/nnue/shogammon.rs): the feature
# set's name, its inputs as segments of (inputs, inputs per factor group) in their order, the
# game's USI_Variant and its net option. A factor group is a kind and side on the board
# (Shogammon's: also the place in the stack) over its squares, a hand kind and side over its
# slots, or (ShogammonPK, ChuPK) a king's block, kind and side over the places near that king.
# Their output is added to the game's hand-written evaluation (the base of `batch_tensors`).
_SHOGAMMON_P = [(2 * 3 * 14 * 81, 81), (2 * 7 * 18, 18)]
for _arch, _name, _segments, _variant, _option in (
        ("chu", "ChuP(OverTables)", [(2 * 39 * 144, 144)], "chushogi", "ChuEvalFile"),
        ("chu-pk", "ChuPK(OverTables)", [(2 * 39 * 144, 144), (2 * 2 * 39 * 25, 25)],
         "chushogi", "ChuEvalFile"),
        ("kagamigi", "KagamigiP(OverTables)", [(2 * 46 * 144, 144), (2 * 24 * 24, 24)],
         "chukagamigi", "KagamigiEvalFile"),
        ("shogammon", "ShogammonP(InsideMaterial)", _SHOGAMMON_P, "shogammon",
         "ShogammonEvalFile"),
        ("shogammon-pk", "ShogammonPK(InsideMaterial)",
         _SHOGAMMON_P + [(2 * 2 * 14 * 17 * 17, 17 * 17)], "shogammon", "ShogammonEvalFile")):
    _inputs = sum(count for count, _ in _segments)
    ARCHS[_arch] = {
        "inputs": _inputs,
        "transformer_hash": fnv1a(_name) ^ (2 * HALF),
        "text": f"Features={_name}[{_inputs}->256x2],{NETWORK_TEXT}",
        "sparse": True,
        "variant": _variant,
        "option": _option,
        "segments": _segments,
        # Factorised training: every input also reads its group's row (a piece of that kind
        # and side, wherever it stands; a hand kind's, however many are held).
        "groups": sum(count // unit for count, unit in _segments),
    }


def kind_groups(arch):
    """The factor group of each input of one of Shishi's own nets (ARCHS' segments), and of
    the padding row (a group of its own, always weighed 0)."""
    a = ARCHS[arch]
    parts, first = [], 0
    for count, unit in a["segments"]:
        parts.append(first + np.arange(count) // unit)
        first += count // unit
    groups = np.concatenate(parts + [np.array([a["groups"]])])
    return torch.from_numpy(groups.astype(np.int64))


def is_sparse(arch):
    return ARCHS[arch].get("sparse", False)


def log(message):
    print(message, file=sys.stderr, flush=True)


# --- data ----------------------------------------------------------------------------------
def open_features(path):
    """The records of a feature file, memory-mapped (only whole records): shogi's
    (SHISHIFT) or a 12x12 game's (SHISHIFS, whose header also names the feature set)."""
    with open(path, "rb") as f:
        header = f.read(SPARSE_HEADER_BYTES)
    if header[:8] == SPARSE_MAGIC:
        version, record_bytes, _, _, slots = struct.unpack("<IIIII", header[8:28])
        if version != SPARSE_VERSION or record_bytes != SPARSE_DTYPE.itemsize or slots != SLOTS:
            sys.exit(f"{path}: 12x12 feature file version {version}, {record_bytes}-byte "
                     f"records; this script reads version {SPARSE_VERSION}, "
                     f"{SPARSE_DTYPE.itemsize}")
        dtype, offset = SPARSE_DTYPE, SPARSE_HEADER_BYTES
    elif header[:8] == FEATURE_MAGIC:
        version, record_bytes = struct.unpack("<II", header[8:16])
        if version != FEATURE_VERSION or record_bytes != RECORD_DTYPE.itemsize:
            sys.exit(f"{path}: feature file version {version}, {record_bytes}-byte records; "
                     f"this script reads version {FEATURE_VERSION}, {RECORD_DTYPE.itemsize}")
        dtype, offset = RECORD_DTYPE, FEATURE_HEADER_BYTES
    else:
        sys.exit(f"{path}: not a feature file of `shishi nnue-features` (no SHISHIFT or "
                 "SHISHIFS header)")
    count = (os.path.getsize(path) - offset) // dtype.itemsize
    if count == 0:
        return np.zeros(0, dtype=dtype)
    return np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=(count,))


def feature_set_of(path):
    """(hash, inputs) of a 12x12 feature file's feature set; None for shogi's files."""
    with open(path, "rb") as f:
        header = f.read(SPARSE_HEADER_BYTES)
    if header[:8] != SPARSE_MAGIC:
        return None
    return struct.unpack("<II", header[16:24])


class Dataset:
    """The records of several feature files, those with |score| <= max_score."""

    def __init__(self, paths, max_score):
        self.parts = [open_features(p) for p in paths]
        self.index = []  # (part, record) pairs as two arrays
        parts, records = [], []
        for i, part in enumerate(self.parts):
            keep = np.nonzero(np.abs(part["score"].astype(np.int32)) <= max_score)[0]
            parts.append(np.full(len(keep), i, dtype=np.int32))
            records.append(keep.astype(np.int64))
        self.part_of = np.concatenate(parts) if parts else np.zeros(0, np.int32)
        self.record_of = np.concatenate(records) if records else np.zeros(0, np.int64)
        self.total = sum(len(p) for p in self.parts)

    def __len__(self):
        return len(self.record_of)

    def gather(self, positions):
        """The records at dataset positions `positions` (sorted for locality)."""
        positions = np.sort(positions)
        out = np.empty(len(positions), dtype=self.parts[0].dtype)
        parts = self.part_of[positions]
        for i, part in enumerate(self.parts):
            mask = parts == i
            if mask.any():
                out[mask] = part[self.record_of[positions[mask]]]
        return out


def batch_tensors(records, arch):
    """Model inputs (B, 2, inputs a view), the BonaPieces (B, 2, 38), the labels of a batch
    of records and the evaluation the net's output is added to (in the model's units); the
    side to move's view first. For a 12x12 game the second tensor is each input's weight
    instead: 1, or 0 for an unused slot (read as the padding row, the last of the model's
    table), and the base is the hand-written tables' evaluation, which its nets correct
    (src/eval/board12_choice.rs); shogi's nets stand alone (base 0)."""
    if is_sparse(arch):
        inputs = records["inputs"].astype(np.int64)  # (B, 2, SLOTS)
        used = inputs != UNUSED
        inputs[~used] = ARCHS[arch]["inputs"]
        return (
            torch.from_numpy(inputs),
            torch.from_numpy(used.astype(np.float32)),
            torch.from_numpy(records["score"].astype(np.float32)),
            torch.from_numpy(records["result"].astype(np.float32)),
            Base.of_sparse(records, arch),
        )
    pieces = records["pieces"].astype(np.int64)  # (B, 2, 38)
    kings = records["kings"].astype(np.int64)  # (B, 2), each as its own side sees the board
    if arch == "halfkp":
        inputs = kings[:, :, None] * PIECE_INPUTS + pieces
    else:
        # A view sees the other king's square turned round (80 - s), as it sees every square.
        own = FRIEND_KING_INPUT + kings
        other = ENEMY_KING_INPUT + (KING_SQUARES - 1) - kings[:, ::-1]
        inputs = np.concatenate([pieces, own[:, :, None], other[:, :, None]], axis=2)
    return (
        torch.from_numpy(inputs),
        torch.from_numpy(pieces),
        torch.from_numpy(records["score"].astype(np.float32)),
        torch.from_numpy(records["result"].astype(np.float32)),
        Base(torch.zeros(len(records))),
    )


class Base:
    """What a batch's model output is composed with into the evaluation (in the model's
    units): added to the hand-written evaluation (a 12x12 game's tables; 0 for shogi's nets),
    or, for Shogammon, added to the material term inside the tanh of its expected result
    (src/eval/shogammon.rs, ExpectedParts): E = offset + slope * tanh(material + cp / 1200),
    which the engine maps linearly onto +-9000 of its scale of +-10000 (Value::EVAL_MAX):
    1200 * atanh(0.9 E) centipawns."""

    def __init__(self, added, parts=None):
        self.added = added
        self.parts = parts

    @staticmethod
    def of_sparse(records, arch):
        added = torch.from_numpy(records["tables"].astype(np.float32) / OUTPUT_SCALE)
        if ARCHS[arch]["variant"] != "shogammon":
            return Base(added)
        parts = (torch.from_numpy(records["material"].astype(np.float32)),
                 torch.from_numpy(records["offset"].astype(np.float32) / 32767.0),
                 torch.from_numpy(records["slope"].astype(np.float32) / 65535.0))
        return Base(added, parts)

    def compose(self, out):
        """The evaluation of the model's output `out` (model units)."""
        if self.parts is None:
            return out + self.added
        material, offset, slope = self.parts
        expected = offset + slope * torch.tanh(material + out * (OUTPUT_SCALE / TANH_CP))
        return TANH_CP * torch.atanh(EVAL_FRACTION * expected) / OUTPUT_SCALE

    def alone(self):
        """The evaluation with an output of 0: the hand-written one."""
        return self.compose(torch.zeros_like(self.added))


# --- model ---------------------------------------------------------------------------------
class LazyAdam:
    """Adam for the transformer's big table, touching only the rows a batch uses (as
    PyTorch's SparseAdam does, without its cost of coalescing a sparse gradient of every
    occurrence): the batch's distinct rows are gathered into a small dense tensor, the
    model reads them through remapped indices, and their gradient updates those rows."""

    def __init__(self, weight, lr, betas=(0.9, 0.999), eps=1e-8):
        self.weight = weight
        self.m = torch.zeros_like(weight)
        self.v = torch.zeros_like(weight)
        self.lr, self.betas, self.eps, self.steps = lr, betas, eps, 0

    @staticmethod
    def gather(weight, inputs):
        """(distinct rows, indices into them shaped as `inputs`, the rows as a leaf)."""
        distinct, inverse = torch.unique(inputs, return_inverse=True)
        rows = weight.index_select(0, distinct).requires_grad_()
        return distinct, inverse, rows

    def step(self, distinct, grad):
        self.steps += 1
        b1, b2 = self.betas
        m = self.m.index_select(0, distinct).mul_(b1).add_(grad, alpha=1 - b1)
        v = self.v.index_select(0, distinct).mul_(b2).addcmul_(grad, grad, value=1 - b2)
        self.m.index_copy_(0, distinct, m)
        self.v.index_copy_(0, distinct, v)
        step_size = self.lr * math.sqrt(1 - b2 ** self.steps) / (1 - b1 ** self.steps)
        update = m.div_(v.sqrt_().add_(self.eps)).mul_(-step_size)
        self.weight.index_add_(0, distinct, update)

    def state_dict(self):
        return {"m": self.m, "v": self.v, "steps": self.steps, "lr": self.lr}

    def load_state_dict(self, state):
        self.m.copy_(state["m"])
        self.v.copy_(state["v"])
        self.steps, self.lr = state["steps"], state["lr"]


def fake_quantised(w, scale, low, high):
    """`w` as the file holds it, round(w * scale) clamped to low..high, divided by scale
    again; its gradient passes to `w` unchanged (straight-through)."""
    q = torch.clamp(torch.round(w * scale), low, high) / scale
    return w + (q - w).detach()


class Model(nn.Module):
    def __init__(self, arch, factorise, quantise_aware=False):
        super().__init__()
        self.arch = arch
        inputs = ARCHS[arch]["inputs"]
        self.sparse = is_sparse(arch)
        self.factorise = factorise and (arch == "halfkp" or self.sparse)
        if quantise_aware and self.factorise and not self.sparse:
            raise ValueError("quantisation-aware training of halfkp needs unfactorised rows")
        self.quantise_aware = quantise_aware
        # The big table is a buffer: LazyAdam updates it, not autograd's optimisers. A 12x12
        # game's has one row more, never written: the row of unused slots (weight 0).
        rows = inputs + 1 if self.sparse else inputs
        self.register_buffer("transformer", torch.empty(rows, HALF).uniform_(-0.05, 0.05))
        self.pieces = (nn.Parameter(torch.zeros(PIECE_INPUTS, HALF))
                       if self.factorise and not self.sparse else None)
        # A 12x12 game's factorised kind rows (the last: the padding row's group), added to
        # every row of their kind before the rows are read, and merged into them when the
        # file is written, so quantisation-aware training sees the rows the file will hold.
        self.kinds = (nn.Parameter(torch.zeros(ARCHS[arch]["groups"] + 1, HALF))
                      if self.factorise and self.sparse else None)
        if self.kinds is not None:
            self.register_buffer("group_of", kind_groups(arch))
        self.transformer_bias = nn.Parameter(torch.full((HALF,), 0.5))
        self.first = nn.Linear(2 * HALF, HIDDEN)
        self.second = nn.Linear(HIDDEN, HIDDEN)
        self.output = nn.Linear(HIDDEN, 1)
        with torch.no_grad():
            self.output.weight.mul_(0.5)
            self.output.bias.zero_()
        # Mean inputs of each affine layer on training positions (`measure`), for the bias
        # correction of `quantise`.
        self.register_buffer("mean_inputs_first", torch.zeros(2 * HALF))
        self.register_buffer("mean_inputs_second", torch.zeros(HIDDEN))
        self.register_buffer("mean_inputs_output", torch.zeros(HIDDEN))
        self.varying_last_units = None  # set by measure()

    def transform(self, table, indices, extra):
        """The accumulator halves (2B, 256) before the bias: a 12x12 game's `extra` weighs
        each input (0 for unused slots)."""
        b, _, per_view = indices.shape
        weights = extra.reshape(2 * b, per_view) if self.sparse else None
        return F.embedding_bag(indices.reshape(2 * b, per_view), table, mode="sum",
                               per_sample_weights=weights)

    def with_kinds(self, table, rows):
        """`table`, the transformer's rows `rows` (all of them: None), with their factorised
        kind rows added (a 12x12 game's factorised model)."""
        if self.kinds is None:
            return table
        groups = self.group_of if rows is None else self.group_of[rows]
        return table + self.kinds[groups]

    def measure(self, inputs, pieces):
        """Records the mean inputs of the three affine layers over a batch of positions."""
        with torch.no_grad():
            b, _, per_view = inputs.shape
            acc = self.transform(self.with_kinds(self.transformer, None), inputs, pieces)
            if self.pieces is not None:
                acc = acc + F.embedding_bag(pieces.reshape(2 * b, PIECES), self.pieces, mode="sum")
            x = (acc + self.transformer_bias).reshape(b, 2 * HALF).clamp(0.0, 1.0)
            self.mean_inputs_first.copy_(x.mean(0))
            x = self.first(x).clamp(0.0, 1.0)
            self.mean_inputs_second.copy_(x.mean(0))
            x = self.second(x).clamp(0.0, 1.0)
            self.mean_inputs_output.copy_(x.mean(0))
            # Units of the last hidden layer whose value differs between positions: with
            # none the output is one number whatever the position (a dead net).
            self.varying_last_units = int((x.amax(0) > x.amin(0)).sum())

    def forward(self, inputs, pieces, rows=None):
        """Output (centipawns / OUTPUT_SCALE) for inputs (B, 2, n), side to move's first;
        `rows` (from `LazyAdam.gather`) when training: the table's rows the batch reads."""
        b, _, per_view = inputs.shape
        qa = self.quantise_aware
        if rows is None:
            table, indices = self.with_kinds(self.transformer, None), inputs
        else:
            distinct, indices, table = rows
            table = self.with_kinds(table, distinct)
        if qa:
            table = fake_quantised(table, ACTIVATION_SCALE, -32768, 32767)
        acc = self.transform(table, indices, pieces)
        if self.pieces is not None:
            acc = acc + F.embedding_bag(pieces.reshape(2 * b, PIECES), self.pieces, mode="sum")
        bias = self.transformer_bias
        if qa:
            bias = fake_quantised(bias, ACTIVATION_SCALE, -32768, 32767)
        x = (acc + bias).reshape(b, 2 * HALF).clamp(0.0, 1.0)

        def affine(layer, weight_scale):
            w = layer.weight
            if qa:
                w = fake_quantised(w, weight_scale, -128, 127)
            return F.linear(x, w, layer.bias)
        x = affine(self.first, 1 << WEIGHT_SCALE_BITS).clamp(0.0, 1.0)
        x = affine(self.second, 1 << WEIGHT_SCALE_BITS).clamp(0.0, 1.0)
        return affine(self.output, OUTPUT_WEIGHT_FACTOR).squeeze(1)

    def clip_weights(self):
        """Keeps the weights within what the integer layers can hold."""
        with torch.no_grad():
            self.first.weight.clamp_(*HIDDEN_WEIGHT_LIMIT)
            self.second.weight.clamp_(*HIDDEN_WEIGHT_LIMIT)
            self.output.weight.clamp_(*OUTPUT_WEIGHT_LIMIT)

    def merged_transformer(self):
        """The transformer's rows with the factorised piece rows added to every king's (a
        12x12 game's without its padding row)."""
        w = self.with_kinds(self.transformer, None).detach().clone()
        if self.sparse:
            w = w[:-1]
        if self.pieces is not None:
            w.view(KING_SQUARES, PIECE_INPUTS, HALF).add_(self.pieces.detach())
        return w


def loss_of(model_out, score, result, scale, lam):
    logits = model_out * (OUTPUT_SCALE / scale)
    target = lam * torch.sigmoid(score / scale) + (1.0 - lam) * (result + 1.0) / 2.0
    return F.binary_cross_entropy_with_logits(logits, target)


# --- the file ------------------------------------------------------------------------------
def quantise(model, wrong=None):
    """The integer arrays of the file. Unless the model was trained quantisation-aware, each
    affine layer's bias also takes back the mean effect of rounding its weights, measured
    with the mean inputs of `Model.measure` (bias correction): otherwise the rounding errors
    of a layer's weights, multiplied by inputs that are never negative, shift every
    evaluation by the same few centipawns.

    `wrong` makes a deliberate mistake, to show that the check fails on a wrong
    quantisation: "no-merge" leaves the factorised piece rows out of the transformer,
    "output-scale" writes the output weights 10 % too large."""
    def rounded(values, low, high, dtype):
        return np.clip(np.rint(values), low, high).astype(dtype)

    def affine(layer, weight_factor, bias_factor, mean_inputs, extra=0):
        w = layer.weight.detach().double().numpy() * weight_factor
        w_int = rounded(w, -128, 127, "i1")
        # Sum of (wanted - written) weight x the layer's mean integer input; none when the
        # model was trained through the rounding (it already reads the written weights).
        correction = 0.0 if model.quantise_aware else (
            (w - w_int) @ (mean_inputs.double().numpy() * ACTIVATION_SCALE))
        b = layer.bias.detach().double().numpy() * bias_factor + correction + extra
        return rounded(b, -(2 ** 31), 2 ** 31 - 1, "<i4"), w_int

    hidden_w = 1 << WEIGHT_SCALE_BITS
    hidden_b = ACTIVATION_SCALE * hidden_w
    round_half = 1 << (WEIGHT_SCALE_BITS - 1)
    out_w = OUTPUT_WEIGHT_FACTOR * (1.1 if wrong == "output-scale" else 1.0)
    transformer = model.transformer if wrong == "no-merge" else model.merged_transformer()
    q = {
        "ft_bias": rounded(model.transformer_bias.detach().double().numpy() * ACTIVATION_SCALE,
                           -32768, 32767, "<i2"),
        "ft_weight": rounded(transformer.double().numpy() * ACTIVATION_SCALE,
                             -32768, 32767, "<i2"),
    }
    q["l1_bias"], q["l1_weight"] = affine(model.first, hidden_w, hidden_b,
                                          model.mean_inputs_first, round_half)
    q["l2_bias"], q["l2_weight"] = affine(model.second, hidden_w, hidden_b,
                                          model.mean_inputs_second, round_half)
    q["out_bias"], q["out_weight"] = affine(model.output, out_w, OUTPUT_SCALE * FV_SCALE,
                                            model.mean_inputs_output)
    return q


def write_net(model, path, wrong=None):
    arch = ARCHS[model.arch]
    q = quantise(model, wrong)
    text = arch["text"].encode()
    net_hash = network_hash()
    tmp = f"{path}.tmp"
    hashes = {"transformer_hash": arch["transformer_hash"], "network_hash": net_hash}
    with open(tmp, "wb") as f:
        f.write(struct.pack("<III", NN_VERSION, arch["transformer_hash"] ^ net_hash, len(text)))
        f.write(text)
        for name, dtype, _ in net_layout(arch["inputs"]):
            if name in hashes:
                f.write(struct.pack("<I", hashes[name]))
            else:
                f.write(q[name].astype(dtype).tobytes())
    os.replace(tmp, path)


def net_layout(inputs):
    """What follows a net file's header and architecture string, in order: (name, dtype,
    count) for each array, and the two hash words as ("transformer_hash" / "network_hash",
    "<u4", 1). `write_net` writes and `read_net` reads by it."""
    return [("transformer_hash", "<u4", 1),
            ("ft_bias", "<i2", HALF), ("ft_weight", "<i2", inputs * HALF),
            ("network_hash", "<u4", 1),
            ("l1_bias", "<i4", HIDDEN), ("l1_weight", "i1", HIDDEN * 2 * HALF),
            ("l2_bias", "<i4", HIDDEN), ("l2_weight", "i1", HIDDEN * HIDDEN),
            ("out_bias", "<i4", 1), ("out_weight", "i1", HIDDEN)]


def read_net(path, arch):
    """The integer arrays of a net file of architecture `arch` (the layout `write_net`
    writes: YaneuraOu's nn.bin); exits with the reason if the file is not such a net."""
    with open(path, "rb") as f:
        data = f.read()
    expected_text = ARCHS[arch]["text"].encode()
    inputs = ARCHS[arch]["inputs"]
    version, _, text_bytes = struct.unpack_from("<III", data, 0)
    text = data[12:12 + text_bytes]
    if version != NN_VERSION or text != expected_text:
        sys.exit(f"{path}: not a {arch} net (version {version:#x}, architecture "
                 f"{text.decode(errors='replace')!r})")
    at = 12 + text_bytes
    q = {}
    for name, dtype, count in net_layout(inputs):
        width = np.dtype(dtype).itemsize * count
        if at + width > len(data):
            sys.exit(f"{path}: truncated ({len(data)} bytes)")
        q[name] = np.frombuffer(data, dtype=dtype, count=count, offset=at)
        at += width
    if at != len(data):
        sys.exit(f"{path}: {len(data) - at} bytes after the net")
    return q


def load_net_weights(model, path):
    """Sets the model's weights to those the net file holds, each integer divided by its
    scale (the inverse of `quantise`, less its bias correction): a quantisation-aware model
    loaded this way and written again gives the same file."""
    q = read_net(path, model.arch)
    hidden_w = 1 << WEIGHT_SCALE_BITS
    hidden_b = ACTIVATION_SCALE * hidden_w
    round_half = 1 << (WEIGHT_SCALE_BITS - 1)

    def tensor(values, shape, scale, offset=0):
        return torch.from_numpy((values.astype(np.float64) - offset) / scale).float().reshape(shape)
    with torch.no_grad():
        rows = ARCHS[model.arch]["inputs"]
        model.transformer[:rows].copy_(tensor(q["ft_weight"], (rows, HALF), ACTIVATION_SCALE))
        for factor in (model.pieces, model.kinds):
            if factor is not None:
                factor.zero_()
        model.transformer_bias.copy_(tensor(q["ft_bias"], (HALF,), ACTIVATION_SCALE))
        for layer, name in ((model.first, "l1"), (model.second, "l2")):
            layer.weight.copy_(tensor(q[f"{name}_weight"], layer.weight.shape, hidden_w))
            layer.bias.copy_(tensor(q[f"{name}_bias"], layer.bias.shape, hidden_b, round_half))
        model.output.weight.copy_(tensor(q["out_weight"], model.output.weight.shape,
                                         OUTPUT_WEIGHT_FACTOR))
        model.output.bias.copy_(tensor(q["out_bias"], (1,), OUTPUT_SCALE * FV_SCALE))


# --- checkpoints ---------------------------------------------------------------------------
def save_checkpoint(path, model, optimisers, epoch, batch, args, best_loss):
    tmp = f"{path}.tmp"
    torch.save(
        {
            "model": model.state_dict(),
            "optimisers": [o.state_dict() for o in optimisers],
            "epoch": epoch,
            "batch": batch,
            "best_loss": best_loss,
            "arch": model.arch,
            "factorise": model.factorise,
            "quantise_aware": model.quantise_aware,
            "args": vars(args),
        },
        tmp,
    )
    os.replace(tmp, path)


def load_model(checkpoint_path):
    state = torch.load(checkpoint_path, map_location="cpu", weights_only=False)
    model = Model(state["arch"], state["factorise"], state.get("quantise_aware", False))
    model.load_state_dict(state["model"])
    model.eval()
    return model, state


def make_optimisers(model, lr):
    """The transformer table's LazyAdam and Adam for every other weight."""
    return [LazyAdam(model.transformer, lr), torch.optim.Adam(model.parameters(), lr=lr)]


def set_lr(optimisers, lr):
    table, dense = optimisers
    table.lr = lr
    for g in dense.param_groups:
        g["lr"] = lr


def evaluate_loss(model, data, positions, args, base_only=False):
    """The mean loss over `positions` of the model's output plus its base; with `base_only`,
    of the base alone (the hand-written evaluation a 12x12 game's or Shogammon's net corrects,
    0 for shogi's nets): what the net has to improve on."""
    model.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for start in range(0, len(positions), args.batch_size):
            inputs, pieces, score, result, base = batch_tensors(
                data.gather(positions[start:start + args.batch_size]), model.arch)
            out = base.alone() if base_only else base.compose(model(inputs, pieces))
            total += loss_of(out, score, result, args.scale, args.lam).item() * len(score)
            count += len(score)
    model.train()
    return total / max(count, 1)


def check_feature_files(paths, arch):
    """Exits unless every feature file holds the inputs of `arch`'s nets."""
    want = ((ARCHS[arch]["transformer_hash"] ^ (2 * HALF), ARCHS[arch]["inputs"])
            if is_sparse(arch) else None)
    for path in paths:
        found = feature_set_of(path)
        if found != want:
            what = ("standard shogi's features" if found is None
                    else f"the features of feature set {found[0]:#010x} ({found[1]} inputs)")
            sys.exit(f"{path} holds {what}, not those of --arch {arch}")


def command_train(args):
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    checkpoint = args.checkpoint or f"{args.out}.ckpt"
    check_feature_files(args.features, args.arch)
    data = Dataset(args.features, args.max_score)
    if len(data) < 2:
        sys.exit("fewer than two usable positions in the feature files")
    held = min(args.validation, len(data) // 10)
    # The last records (the last games written) are held out, so no game is in both sets.
    train_positions = np.arange(len(data) - held)
    held_positions = np.arange(len(data) - held, len(data))
    log(f"{data.total} records, {len(data)} with |score| <= {args.max_score}: "
        f"{len(train_positions)} to train on, {held} held out")

    quantise_aware = args.quantise_aware
    if quantise_aware is None:
        quantise_aware = args.arch != "halfkp"
    if quantise_aware and args.arch == "halfkp" and not args.no_factorise:
        sys.exit("--quantise-aware with halfkp needs --no-factorise")
    model = Model(args.arch, not args.no_factorise, quantise_aware)
    if args.init and not args.resume:
        load_net_weights(model, args.init)
        log(f"starting from the weights of {args.init}")
    optimisers = make_optimisers(model, args.lr)
    start_epoch, start_batch, best_loss = 0, 0, float("inf")
    if args.resume:
        if not os.path.exists(checkpoint):
            sys.exit(f"--resume: no checkpoint {checkpoint}")
        state = torch.load(checkpoint, map_location="cpu", weights_only=False)
        if (state["arch"] != args.arch or state["factorise"] != model.factorise
                or state.get("quantise_aware", False) != model.quantise_aware):
            sys.exit(f"{checkpoint} is a {state['arch']} net (factorised: {state['factorise']}, "
                     f"quantisation-aware: {state.get('quantise_aware', False)}); resume it "
                     "with the same --arch, factorisation and --quantise-aware")
        model.load_state_dict(state["model"])
        for o, s in zip(optimisers, state["optimisers"]):
            o.load_state_dict(s)
        start_epoch, start_batch = state["epoch"], state["batch"]
        best_loss = state["best_loss"]
        log(f"resumed from {checkpoint} at epoch {start_epoch + 1}, batch {start_batch}")
    model.train()
    if held:
        log(f"held-out loss of the {'hand-written evaluation' if is_sparse(args.arch) else 'output 0'}"
            f" alone: {evaluate_loss(model, data, held_positions, args, base_only=True):.5f}")

    batches = len(train_positions) // args.batch_size
    if batches == 0:
        sys.exit(f"fewer positions ({len(train_positions)}) than one batch ({args.batch_size})")
    steps_done = 0
    # The positions whose mean activations correct the biases when the file is written.
    sample = batch_tensors(data.gather(train_positions[:10000]), args.arch)[:2]

    def write():
        model.measure(*sample)
        write_net(model, args.out)
    for epoch in range(start_epoch, args.epochs):
        lr = args.lr * (args.lr_decay ** epoch)
        set_lr(optimisers, lr)
        table, dense = optimisers
        order = np.random.default_rng([args.seed, epoch]).permutation(train_positions)
        first_batch = start_batch if epoch == start_epoch else 0
        window_loss, window_count, window_start = 0.0, 0, time.time()
        for batch in range(first_batch, batches):
            if args.max_steps is not None and steps_done >= args.max_steps:
                break
            chosen = order[batch * args.batch_size:(batch + 1) * args.batch_size]
            inputs, pieces, score, result, base = batch_tensors(data.gather(chosen), args.arch)
            rows = LazyAdam.gather(model.transformer, inputs)
            out = base.compose(model(inputs, pieces, rows))
            loss = loss_of(out, score, result, args.scale, args.lam)
            dense.zero_grad(set_to_none=True)
            loss.backward()
            dense.step()
            with torch.no_grad():
                table.step(rows[0], rows[2].grad)
            model.clip_weights()
            steps_done += 1
            window_loss += loss.item()
            window_count += 1
            if (batch + 1) % args.report_every == 0 or batch + 1 == batches:
                seconds = time.time() - window_start
                log(f"epoch {epoch + 1}/{args.epochs} batch {batch + 1}/{batches} "
                    f"loss {window_loss / window_count:.5f} lr {lr:.2e} "
                    f"{window_count * args.batch_size / max(seconds, 1e-9):.0f} positions/s")
                window_loss, window_count, window_start = 0.0, 0, time.time()
            if args.checkpoint_every and (batch + 1) % args.checkpoint_every == 0:
                model.measure(*sample)
                save_checkpoint(checkpoint, model, optimisers, epoch, batch + 1, args, best_loss)
        else:
            val = evaluate_loss(model, data, held_positions, args) if held else float("nan")
            improved = not val >= best_loss  # NaN (nothing held out) counts as better
            best_loss = val if improved else best_loss
            write()
            save_checkpoint(checkpoint, model, optimisers, epoch + 1, 0, args, best_loss)
            if improved:
                shutil.copyfile(args.out, f"{args.out}.best")
                shutil.copyfile(checkpoint, f"{checkpoint}.best")
            log(f"epoch {epoch + 1} done: held-out loss {val:.5f} (best {best_loss:.5f}); "
                f"wrote {args.out} and {checkpoint}"
                + (f", and copied them to {args.out}.best and {checkpoint}.best" if improved else ""))
            if model.varying_last_units == 0:
                log("warning: the net is dead: every unit of its last hidden layer gives one value "
                    "whatever the position, so its output is a constant; a lower --lr may train it")
            continue
        # --max-steps reached inside the epoch.
        write()
        save_checkpoint(checkpoint, model, optimisers, epoch, batch, args, best_loss)
        log(f"stopped after {steps_done} steps (--max-steps); wrote {args.out} and {checkpoint}")
        return
    if start_epoch >= args.epochs:
        log(f"{checkpoint} has already done {start_epoch} epochs (--epochs {args.epochs})")
        write()


def command_export(args):
    model, _ = load_model(args.checkpoint)
    write_net(model, args.out, wrong=args.deliberately_wrong_quantisation)
    log(f"wrote {args.out}")


# --- the quantisation check ----------------------------------------------------------------
def shishi_evals(shishi, net, sfens, arch):
    """Shishi's evaluation (`e`) of each SFEN of `arch`'s game with the net file `net` (None:
    the built-in hand-written evaluation)."""
    if is_sparse(arch):
        option = ARCHS[arch]["option"]
        commands = [f"setoption name USI_Variant value {ARCHS[arch]['variant']}",
                    f"setoption name {option} value "
                    + (os.path.abspath(net) if net else "<empty>")]
        if ARCHS[arch]["variant"] == "chukagamigi":
            # Without a file Chu Kagamigi plays its built-in net; the tables are asked for.
            commands.append("setoption name KagamigiEval value hand-written")
    else:
        commands = ([f"setoption name EvalFile value {os.path.abspath(net)}"] if net
                    else ["setoption name ShogiEval value hand-written"])
    commands.append("isready")
    for sfen in sfens:
        commands += [f"position sfen {sfen}", "e"]
    commands.append("quit")
    run = subprocess.run([shishi], input="\n".join(commands) + "\n", capture_output=True,
                         text=True, timeout=600)
    errors = [line for line in run.stdout.splitlines() if line.startswith("info string error")]
    if errors:
        sys.exit(f"shishi refused something: {errors[0]}")
    values = [int(line.split("=")[1]) for line in run.stdout.splitlines()
              if line.startswith("eval =")]
    if len(values) != len(sfens):
        sys.exit(f"shishi printed {len(values)} evaluations for {len(sfens)} positions:\n"
                 f"{run.stderr[-2000:]}")
    return np.array(values, dtype=np.float64)


def held_out(shishi, records, skip, count, arch):
    """The feature records and SFENs of `count` training records of the files `records`
    after the first `skip` (PackedSfenValue records, or a 12x12 game's lines), computed by
    Shishi (`nnue-features --sfens`)."""
    variant = ["--variant", ARCHS[arch]["variant"], "--arch", arch] if is_sparse(arch) else []
    with tempfile.TemporaryDirectory() as tmp:
        features = os.path.join(tmp, "held.feat")
        sfen_file = os.path.join(tmp, "held.sfen")
        subprocess.run([shishi, "nnue-features", *variant, *records, "--out", features,
                        "--sfens", sfen_file, "--skip", str(skip), "--limit", str(count)],
                       check=True, stdout=subprocess.DEVNULL)
        with open(sfen_file) as f:
            sfens = [line.strip() for line in f]
        return np.array(open_features(features)), sfens


def has_doubled_pawns(sfen):
    """Whether the SFEN's board has two unpromoted pawns of one side on a file (legal in the
    Central Madness, refused by standard shogi's `position`)."""
    seen = set()
    for rank in sfen.split()[0].split("/"):
        file, promoted = 0, False
        for c in rank:
            if c.isdigit():
                file += int(c)
            elif c == "+":
                promoted = True
            else:
                if c in "Pp" and not promoted:
                    if (c, file) in seen:
                        return True
                    seen.add((c, file))
                file, promoted = file + 1, False
    return False


def command_check(args):
    torch.set_num_threads(args.threads)
    model, _ = load_model(args.checkpoint)
    records, sfens = held_out(args.shishi, args.records, args.skip, args.count, model.arch)
    # The net values any board, but Shishi's `e` is asked through standard shogi's `position`:
    # boards it refuses (the Madness's doubled pawns) are left out of the comparison.
    kept = [i for i, sfen in enumerate(sfens)
            if is_sparse(model.arch) or not has_doubled_pawns(sfen)]
    if len(kept) < len(sfens):
        log(f"left out {len(sfens) - len(kept)} of {len(sfens)} boards with doubled pawns")
        records, sfens = records[kept], [sfens[i] for i in kept]
    inputs, pieces, _, _, base = batch_tensors(records, model.arch)
    with torch.no_grad():
        floats = base.compose(model(inputs, pieces)).double().numpy() * OUTPUT_SCALE
    ints = shishi_evals(args.shishi, args.net, sfens, model.arch)
    diff = np.abs(floats - ints)
    p50, p90, p99 = np.percentile(diff, [50, 90, 99])
    print(f"positions {len(diff)}  |float - shishi| centipawns: max {diff.max():.2f} "
          f"mean {diff.mean():.2f} (signed {np.mean(ints - floats):+.2f}) p50 {p50:.2f} p90 {p90:.2f} p99 {p99:.2f}  "
          f"(evaluations: mean |cp| {np.abs(ints).mean():.1f}, max |cp| {np.abs(ints).max():.0f})")
    worst = int(diff.argmax())
    print(f"largest difference: float {floats[worst]:.2f}, shishi {ints[worst]:.0f}: {sfens[worst]}")
    failed = []
    if diff.mean() > args.max_mean:
        failed.append(f"mean {diff.mean():.2f} > {args.max_mean}")
    if p99 > args.max_p99:
        failed.append(f"99th percentile {p99:.2f} > {args.max_p99}")
    if failed:
        print("quantisation check FAILED: " + "; ".join(failed))
        sys.exit(1)
    print(f"quantisation check passed (bounds: mean <= {args.max_mean}, "
          f"99th percentile <= {args.max_p99})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    t = sub.add_parser("train", help="train a net from feature files")
    t.add_argument("features", nargs="+", help="files written by `shishi nnue-features`")
    t.add_argument("--out", required=True,
                   help="the nn.bin to write after every epoch (and OUT.best: the epoch of "
                   "the lowest held-out loss so far)")
    t.add_argument("--checkpoint", help="checkpoint file (default: OUT.ckpt)")
    t.add_argument("--resume", action="store_true", help="go on from the checkpoint")
    t.add_argument("--init", metavar="NET",
                   help="start from the weights of this net file (of --arch) instead of "
                   "random ones: fine-tuning; factorised halfkp starts its piece table at zero")
    t.add_argument("--arch", choices=sorted(ARCHS), default="halfkp")
    t.add_argument("--no-factorise", action="store_true",
                   help="train HalfKP without the king-independent piece table, or a 12x12 "
                   "game's net without its kind table (kp never has one)")
    t.add_argument("--quantise-aware", action=argparse.BooleanOptionalAction, default=None,
                   help="train through the file's rounding (straight-through); default: on "
                   "for kp and the 12x12 games, off for halfkp (which needs --no-factorise "
                   "for it)")
    t.add_argument("--epochs", type=int, default=10)
    t.add_argument("--batch-size", type=int, default=4096)
    t.add_argument("--lr", type=float, default=1e-3)
    t.add_argument("--lr-decay", type=float, default=0.8,
                   help="learning rate factor per epoch (epoch e uses lr * decay^e)")
    t.add_argument("--lambda", dest="lam", type=float, default=0.7,
                   help="weight of the search score against the game result (1: score only)")
    t.add_argument("--scale", type=float, default=600.0,
                   help="centipawns of the win-probability sigmoid: p = sigmoid(cp / scale)")
    t.add_argument("--max-score", type=int, default=3000,
                   help="leave out records whose |score| is larger (mate scores)")
    t.add_argument("--validation", type=int, default=20000,
                   help="positions held out at the end of the data (at most a tenth)")
    t.add_argument("--threads", type=int, default=2, help="PyTorch threads")
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--checkpoint-every", type=int, default=500,
                   help="also checkpoint every this many batches (0: at epoch ends only)")
    t.add_argument("--report-every", type=int, default=100, help="progress every N batches")
    t.add_argument("--max-steps", type=int, help="stop after this many batches (tests)")

    e = sub.add_parser("export", help="write the nn.bin of a checkpoint")
    e.add_argument("--checkpoint", required=True)
    e.add_argument("--out", required=True)
    e.add_argument("--deliberately-wrong-quantisation", choices=["no-merge", "output-scale"],
                   help="write a wrongly quantised net (to see the check fail): without the "
                   "factorised rows merged (halfkp only), or with output weights 10%% too large")

    c = sub.add_parser("check", help="compare the float model with Shishi on the written net")
    c.add_argument("--checkpoint", required=True)
    c.add_argument("--net", required=True, help="the nn.bin written from the checkpoint")
    c.add_argument("--records", nargs="+", required=True,
                   help="held-out PackedSfenValue files, or a 12x12 game's training lines "
                   "(gensfen's), not trained on")
    c.add_argument("--count", type=int, default=2000)
    c.add_argument("--skip", type=int, default=0, help="records of --records to pass over first")
    c.add_argument("--shishi", default="target/release/shishi")
    c.add_argument("--threads", type=int, default=2)
    c.add_argument("--max-mean", type=float, default=MAX_MEAN_DIFF)
    c.add_argument("--max-p99", type=float, default=MAX_P99_DIFF)

    args = parser.parse_args()
    {"train": command_train, "export": command_export, "check": command_check}[args.command](args)


# The documented bounds of the quantisation check (docs/NNUE.md), centipawns.
MAX_MEAN_DIFF = 16.0
MAX_P99_DIFF = 45.0

if __name__ == "__main__":
    main()
