//! The inputs of Shishi's own nets for Shogammon (`FeatureSet::ShogammonP` and
//! `FeatureSet::ShogammonPK`): which rows of the feature transformer a position sets for each
//! side's view, and which ones an action changes. No other engine plays Shogammon, so the
//! feature sets are ours (docs/NNUE.md, "Shogammon"); the file and the layers after the
//! transformer are YaneuraOu's `nn.bin` and `256x2-32-32`, as for the 12×12 games.
//!
//! The features are *P* features, one per piece, king-independent, with the piece's place in
//! its stack: every piece on the board, kings included, is
//! `((relation × 3 + layer) × 14 + kind) × 81 + square`, where `relation` is 0 for the
//! view's own pieces and 1 for the other side's, `layer` 0 for a piece standing alone, 1 for
//! the lower piece of a point and 2 for its upper piece, `kind` shogi's kind index (promoted
//! kinds are kinds of their own) and `square` the square as the view sees the board (sente:
//! as it is, 0–80 file-major; gote: turned round, `80 − s`). Pieces in hand follow: the
//! `n`-th piece (from 0) of hand kind `h` held is `board inputs + (relation × 7 + h) × 18 +
//! n` (a set has at most 18 of a kind).
//!
//! `ShogammonPK` reads the same inputs, then places every piece on the board a second and a
//! third time, by where it stands from each king: `INPUTS + block × KING_BLOCK + (relation ×
//! 14 + kind) × 289 + offset`, where `block` is 0 for the view's own king and 1 for the
//! enemy's, and `offset = (files + 8) × 17 + (ranks + 8)` the piece's square less the king's
//! as the view sees the board (each from −8 to 8). A king is not placed in its own block (its
//! offset there is always 0); a block whose king is off the board (taken: the game is over)
//! is empty. A king's move changes every input of its blocks, so it recomputes both views.
//!
//! The dice are not inputs: the search evaluates between turns, before the roll (its depth
//! is counted in whole turns), and the hand-written evaluation the net corrects already
//! weighs what the next roll can do to each king (`eval::shogammon`).

use super::features::FeatureSet;
use super::sparse_file::SparsePosition;
use super::RowChanges;
use crate::rules::bitboard::Bitboard;
use crate::rules::dropshogi::DropPiece;
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::Move;
use crate::rules::variants::shogammon::Position;
use crate::rules::variants::shogi::{Kind, Piece};
use arrayvec::ArrayVec;

/// Squares of the board.
const SQUARES: usize = 81;
/// Places a piece can have in its stack: alone, under, on top.
const LAYERS: usize = 3;
/// Kinds that can be held (`Kind::HAND`; a hand kind's index is its kind index).
const HAND_KINDS: usize = Kind::HAND.len();
/// Inputs per hand kind and side: the most pieces of one kind a set has (the pawns).
const HAND_SLOTS: usize = 18;
/// Pieces in a set.
const PIECES: usize = 40;
/// The most inputs a view sets: one per piece of a set, and with `ShogammonPK` two more per
/// piece on the board but a king (one more for each king).
pub const MAX_ACTIVE: usize = PIECES + 2 * (PIECES - 1);
/// Inputs of the pieces on the board.
pub const BOARD_INPUTS: usize = 2 * LAYERS * Kind::COUNT * SQUARES;
/// Rows of the feature transformer of `ShogammonP`; `ShogammonPK`'s king blocks follow them.
pub const INPUTS: usize = BOARD_INPUTS + 2 * HAND_KINDS * HAND_SLOTS;
/// Offsets of a square from a king along one axis: −8 to 8.
const SPAN: usize = 17;
/// Inputs of one king's block: each side's pieces of each kind by their offset from it.
pub const KING_BLOCK: usize = 2 * Kind::COUNT * SPAN * SPAN;
/// Rows of the feature transformer of `ShogammonPK`.
pub const PK_INPUTS: usize = INPUTS + 2 * KING_BLOCK;

/// Where a piece stands in its stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// Alone on its square.
    Single = 0,
    /// The lower piece of a point (stuck until the upper one leaves).
    Lower = 1,
    /// The upper piece of a point.
    Upper = 2,
}

/// A square as `view` sees the board.
#[inline]
fn seen(view: Color, sq: Square) -> usize {
    match view {
        Color::Sente => sq.index(),
        Color::Gote => SQUARES - 1 - sq.index(),
    }
}

/// The input of `owner`'s piece of `kind` on `sq` at `layer`, as `view` sees it.
#[inline]
pub fn on_board(view: Color, owner: Color, kind: Kind, layer: Layer, sq: Square) -> usize {
    let relation = usize::from(owner != view);
    ((relation * LAYERS + layer as usize) * Kind::COUNT + kind.index()) * SQUARES + seen(view, sq)
}

/// The input of the `nth` (from 0) piece of hand kind `kind` held by `owner`, as `view`
/// sees it (`None` past the slots, which a legal position never reaches).
#[inline]
pub fn in_hand(view: Color, owner: Color, kind: Kind, nth: u8) -> Option<usize> {
    let nth = usize::from(nth);
    (kind.index() < HAND_KINDS && nth < HAND_SLOTS).then(|| {
        let relation = usize::from(owner != view);
        BOARD_INPUTS + (relation * HAND_KINDS + kind.index()) * HAND_SLOTS + nth
    })
}

/// Each side's king's square, by `Color::index` (`None`: off the board).
fn king_squares(pos: &Position) -> [Option<Square>; 2] {
    let mut kings = [None; 2];
    for sq in pos.occupied().squares() {
        for piece in [pos.top(sq), pos.bottom(sq)].into_iter().flatten() {
            if piece.kind() == Kind::King {
                kings[piece.color().index()] = Some(sq);
            }
        }
    }
    kings
}

/// The kings' squares (`king_squares`) as `view` sees the board: its own king's, then the
/// enemy's.
fn king_anchors(kings: [Option<Square>; 2], view: Color) -> [Option<usize>; 2] {
    [view, view.flip()].map(|owner| kings[owner.index()].map(|sq| seen(view, sq)))
}

/// The king-relative inputs (`ShogammonPK`) of the piece whose P input for the view is
/// `board_input` (below [`BOARD_INPUTS`]), given that view's [`king_anchors`].
fn king_inputs(board_input: usize, anchors: [Option<usize>; 2]) -> impl Iterator<Item = usize> {
    let square = board_input % SQUARES;
    let kind = board_input / SQUARES % Kind::COUNT;
    let relation = board_input / (SQUARES * Kind::COUNT * LAYERS);
    let is_king = kind == Kind::King.index();
    anchors
        .into_iter()
        .enumerate()
        .filter_map(move |(block, king)| {
            let king = king.filter(|_| !(is_king && relation == block))?;
            let files = square / 9 + 8 - king / 9;
            let ranks = square % 9 + 8 - king % 9;
            let offset = files * SPAN + ranks;
            Some(
                INPUTS
                    + block * KING_BLOCK
                    + (relation * Kind::COUNT + kind) * SPAN * SPAN
                    + offset,
            )
        })
}

/// Every input `view` reads in `pos` with the feature set `features`: the board square by
/// square (a point's lower piece, then its upper one), then the hands, then (`ShogammonPK`)
/// each piece on the board by its place from each king.
pub fn inputs_of(pos: &Position, view: Color, features: FeatureSet) -> ArrayVec<usize, MAX_ACTIVE> {
    let mut out = p_inputs(pos, view);
    if features == FeatureSet::ShogammonPK {
        let anchors = king_anchors(king_squares(pos), view);
        for i in 0..out.len() {
            if out[i] < BOARD_INPUTS {
                for input in king_inputs(out[i], anchors) {
                    out.push(input);
                }
            }
        }
    }
    out
}

/// The P inputs `view` reads in `pos` (`ShogammonP`'s all).
fn p_inputs(pos: &Position, view: Color) -> ArrayVec<usize, MAX_ACTIVE> {
    let mut out = ArrayVec::new();
    for sq in pos.occupied().squares() {
        let Some(top) = pos.top(sq) else { continue };
        match pos.bottom(sq) {
            None => out.push(on_board(view, top.color(), top.kind(), Layer::Single, sq)),
            Some(lower) => {
                out.push(on_board(
                    view,
                    lower.color(),
                    lower.kind(),
                    Layer::Lower,
                    sq,
                ));
                out.push(on_board(view, top.color(), top.kind(), Layer::Upper, sq));
            }
        }
    }
    for owner in Color::BOTH {
        let hand = pos.hand(owner);
        for kind in Kind::HAND {
            for nth in 0..hand.count(kind) {
                out.extend(in_hand(view, owner, kind, nth));
            }
        }
    }
    out
}

impl SparsePosition for Position {
    const FEATURE_SETS: &'static [FeatureSet] = &[FeatureSet::ShogammonP, FeatureSet::ShogammonPK];

    fn side_to_move(&self) -> Color {
        Position::side_to_move(self)
    }

    fn hand_written(&self) -> i32 {
        crate::eval::shogammon::hand_written_cp(self).round() as i32
    }

    fn expected_parts(&self) -> Option<crate::eval::shogammon::ExpectedParts> {
        Some(crate::eval::shogammon::ShogammonEval::standard().parts(self))
    }

    fn net_inputs(&self, features: FeatureSet, view: Color) -> Vec<usize> {
        inputs_of(self, view, features).to_vec()
    }

    fn from_training_sfen(text: &str) -> Option<Self> {
        Position::from_sfen(text).ok()
    }

    fn training_sfen(&self) -> String {
        self.to_sfen()
    }
}

/// Both views' inputs of `owner`'s piece of `kind` on `sq` at `layer`.
#[inline]
fn on_board_both(owner: Color, kind: Kind, layer: Layer, sq: Square) -> [usize; 2] {
    Color::BOTH.map(|view| on_board(view, owner, kind, layer, sq))
}

/// Both views' inputs of the `nth` piece of hand kind `kind` held by `owner` (`None` past
/// the slots).
#[inline]
fn in_hand_both(owner: Color, kind: Kind, nth: u8) -> Option<[usize; 2]> {
    Some([
        in_hand(Color::Sente, owner, kind, nth)?,
        in_hand(Color::Gote, owner, kind, nth)?,
    ])
}

/// What an action does to a Shogammon net's inputs. Made and used at once by each action,
/// never stored: [`InputStep::Rows`] costs no allocation that a box would.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)]
pub enum InputStep {
    /// Nothing (a roll, a pass, the first arrival on an enemy point).
    Unchanged,
    /// These rows go and come.
    Rows(RowChanges),
    /// Too much to list (a king moved or was taken, with `ShogammonPK`): recompute.
    Recompute,
}

/// What the legal action `action` (not yet played) changes in `pos`'s inputs of the feature
/// set `features`. `ShogammonPK`'s king-relative rows follow the P rows that change: each
/// piece keeps its place from the kings unless a king moves, which recomputes.
pub fn changes(pos: &Position, action: Move, features: FeatureSet) -> InputStep {
    let Some(mut rows) = p_changes(pos, action) else {
        return InputStep::Unchanged;
    };
    if features != FeatureSet::ShogammonPK {
        return InputStep::Rows(rows);
    }
    let king_moves = action
        .from()
        .and_then(|from| pos.top(from))
        .is_some_and(|p| p.kind() == Kind::King);
    let king_taken = [pos.top(action.to()), pos.bottom(action.to())]
        .into_iter()
        .flatten()
        .any(|p| p.kind() == Kind::King && p.color() != pos.side_to_move());
    if king_moves || king_taken {
        return InputStep::Recompute;
    }
    let kings = king_squares(pos);
    let anchors = Color::BOTH.map(|view| king_anchors(kings, view));
    let derive = |pairs: &[[usize; 2]]| -> Option<ArrayVec<[usize; 2], { RowChanges::CAPACITY }>> {
        let mut out = ArrayVec::new();
        for pair in pairs.iter().filter(|pair| pair[0] < BOARD_INPUTS) {
            let [sente, gote] =
                [0, 1].map(|v| king_inputs(pair[v], anchors[v]).collect::<ArrayVec<usize, 2>>());
            if sente.len() != gote.len() {
                return None;
            }
            for (s, g) in sente.into_iter().zip(gote) {
                out.try_push([s, g]).ok()?;
            }
        }
        Some(out)
    };
    let (Some(removed), Some(added)) = (derive(&rows.removed), derive(&rows.added)) else {
        return InputStep::Recompute;
    };
    let fits = rows.removed.try_extend_from_slice(&removed).is_ok()
        && rows.added.try_extend_from_slice(&added).is_ok();
    if fits {
        InputStep::Rows(rows)
    } else {
        InputStep::Recompute
    }
}

/// What the legal action `action` (not yet played) changes in `pos`'s P inputs; `None` when it
/// changes none (a roll, a pass). As `Position::play` moves the pieces: the mover leaves its
/// square (the piece under it, if any, is then alone), and lands alone on an empty square, on
/// top of a lone friend (which becomes the lower piece), or alone on a lone enemy it takes.
/// The first arrival on an enemy point only leaves its square: the waiting piece is no input
/// until the second arrives (as [`inputs_of`] reads the board), which takes both pieces of the
/// point and forms a point of the two arrivals, the first below. Captured pieces go to the
/// mover's hand in base form (a king to none: the game is over).
fn p_changes(pos: &Position, action: Move) -> Option<RowChanges> {
    if action.is_pass() || action.chance_code().is_some() {
        return None;
    }
    let us = pos.side_to_move();
    let to = action.to();
    let mut out = RowChanges::default();
    let mut held = pos.hand(us);
    let arriving = match action.from() {
        None => {
            let kind = Kind::from_index(action.dropped_kind()?.0)?;
            let count = held.count(kind);
            out.removed
                .extend(in_hand_both(us, kind, count.checked_sub(1)?));
            Piece::new(us, kind)
        }
        Some(from) => {
            let moving = pos.top(from)?;
            match pos.bottom(from) {
                None => out
                    .removed
                    .push(on_board_both(us, moving.kind(), Layer::Single, from)),
                Some(lower) => {
                    out.removed
                        .push(on_board_both(us, moving.kind(), Layer::Upper, from));
                    out.removed
                        .push(on_board_both(us, lower.kind(), Layer::Lower, from));
                    out.added
                        .push(on_board_both(us, lower.kind(), Layer::Single, from));
                }
            }
            moving.landing(action)
        }
    };
    let mut take = |victim: Piece, layer: Layer, out: &mut RowChanges| {
        out.removed
            .push(on_board_both(victim.color(), victim.kind(), layer, to));
        if let Some(base) = victim.kind().in_hand() {
            out.added.extend(in_hand_both(us, base, held.count(base)));
            held.add(base);
        }
    };
    match (pos.top(to), pos.bottom(to)) {
        (None, _) => out
            .added
            .push(on_board_both(us, arriving.kind(), Layer::Single, to)),
        (Some(single), None) if single.color() == us => {
            out.removed
                .push(on_board_both(us, single.kind(), Layer::Single, to));
            out.added
                .push(on_board_both(us, single.kind(), Layer::Lower, to));
            out.added
                .push(on_board_both(us, arriving.kind(), Layer::Upper, to));
        }
        (Some(single), None) => {
            take(single, Layer::Single, &mut out);
            out.added
                .push(on_board_both(us, arriving.kind(), Layer::Single, to));
        }
        // The first arrival waits off the board: only its square of origin changed.
        (Some(_), Some(_)) if pos.pending_capture().is_none() => {}
        (Some(upper), Some(lower)) => {
            let first = pos.pending_capture()?;
            take(upper, Layer::Upper, &mut out);
            take(lower, Layer::Lower, &mut out);
            out.added
                .push(on_board_both(us, first.piece.kind(), Layer::Lower, to));
            out.added
                .push(on_board_both(us, arriving.kind(), Layer::Upper, to));
        }
    }
    (!out.removed.is_empty() || !out.added.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs_with(features: FeatureSet, sfen: &str, view: Color) -> Vec<usize> {
        let pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        let mut out = inputs_of(&pos, view, features).to_vec();
        out.sort_unstable();
        out
    }

    fn inputs(sfen: &str, view: Color) -> Vec<usize> {
        inputs_with(FeatureSet::ShogammonP, sfen, view)
    }

    #[test]
    fn the_start_position_reads_the_same_from_both_sides() {
        let start = Position::startpos().to_sfen();
        let sente = inputs(&start, Color::Sente);
        assert_eq!(sente.len(), 40);
        assert_eq!(sente, inputs(&start, Color::Gote));
        let mut distinct = sente.clone();
        distinct.dedup();
        assert_eq!(distinct.len(), 40, "one input per piece");
        assert!(sente.iter().all(|&i| i < BOARD_INPUTS));
        // With the kings' blocks: each piece but a king twice more, each king once more.
        let pk = inputs_with(FeatureSet::ShogammonPK, &start, Color::Sente);
        assert_eq!(pk.len(), MAX_ACTIVE);
        assert_eq!(
            pk,
            inputs_with(FeatureSet::ShogammonPK, &start, Color::Gote)
        );
        assert_eq!(pk[..40], sente[..]);
        let mut distinct = pk.clone();
        distinct.dedup();
        assert_eq!(distinct.len(), MAX_ACTIVE);
        assert!(pk[40..].iter().all(|&i| (INPUTS..PK_INPUTS).contains(&i)));
    }

    /// The king-relative inputs, counted by hand on a small board: the offsets are the files
    /// and ranks between the piece and the king as each side sees the board.
    #[test]
    fn the_kings_blocks_place_each_piece_by_its_offset_from_each_king() {
        // Sente: king 5i, silver 4h; gote: king 1a.
        let sfen = "8k/9/9/9/9/9/9/5S3/4K4 b - 1";
        let pos = Position::from_sfen(sfen).unwrap();
        let square = |color: Color, kind: Kind| {
            pos.occupied()
                .squares()
                .find(|&sq| pos.top(sq) == Some(Piece::new(color, kind)))
                .unwrap()
        };
        let king5i = square(Color::Sente, Kind::King);
        let silver4h = square(Color::Sente, Kind::Silver);
        let king1a = square(Color::Gote, Kind::King);
        // (block, relation, kind, files from the king, ranks from the king), in sente's view,
        // from the squares' own numbering (file-major): gote sees every offset turned round.
        let coords = |sq: Square| ((sq.index() / 9) as i32, (sq.index() % 9) as i32);
        let expect = |view: Color,
                      block: usize,
                      relation: usize,
                      kind: Kind,
                      piece: Square,
                      king: Square| {
            let ((pf, pr), (kf, kr)) = (coords(piece), coords(king));
            let turn = if view == Color::Sente { 1 } else { -1 };
            let (df, dr) = ((pf - kf) * turn, (pr - kr) * turn);
            INPUTS
                + block * KING_BLOCK
                + (relation * Kind::COUNT + kind.index()) * SPAN * SPAN
                + ((df + 8) * 17 + dr + 8) as usize
        };
        for view in Color::BOTH {
            let (own, enemy) = match view {
                Color::Sente => (king5i, king1a),
                Color::Gote => (king1a, king5i),
            };
            let sente_is = usize::from(view != Color::Sente);
            let mut want = [
                expect(view, 0, sente_is, Kind::Silver, silver4h, own),
                expect(view, 1, sente_is, Kind::Silver, silver4h, enemy),
                // Each king in the other's block only.
                expect(view, 1, 0, Kind::King, own, enemy),
                expect(view, 0, 1, Kind::King, enemy, own),
            ];
            want.sort_unstable();
            let got = inputs_with(FeatureSet::ShogammonPK, sfen, view);
            assert_eq!(got[3..], want[..], "{view:?}");
        }
    }

    #[test]
    fn a_point_sets_its_layers_and_the_hands_their_slots() {
        // A sente king under a tokin on 5i; gote's king alone; sente holds two pawns.
        let sfen = "4k4/9/9/9/9/9/9/9/4(K+P)4 b 2P 1";
        let pos = Position::from_sfen(sfen).unwrap();
        let e5i = pos
            .occupied()
            .squares()
            .find(|&sq| pos.bottom(sq).is_some())
            .unwrap();
        let sente = inputs(sfen, Color::Sente);
        let want = |owner, kind, layer| on_board(Color::Sente, owner, kind, layer, e5i);
        assert!(sente.contains(&want(Color::Sente, Kind::King, Layer::Lower)));
        assert!(sente.contains(&want(Color::Sente, Kind::ProPawn, Layer::Upper)));
        for nth in 0..2 {
            let pawn = in_hand(Color::Sente, Color::Sente, Kind::Pawn, nth).unwrap();
            assert!(sente.contains(&pawn));
        }
        assert!(!sente.contains(&in_hand(Color::Sente, Color::Sente, Kind::Pawn, 2).unwrap()));
        assert_eq!(sente.len(), 5);
        // Gote sees the same pieces as the enemy's, the board turned round.
        let gote = inputs(sfen, Color::Gote);
        let theirs = on_board(Color::Gote, Color::Sente, Kind::King, Layer::Lower, e5i);
        assert!(gote.contains(&theirs));
        assert_eq!(theirs % SQUARES, 80 - e5i.index());
        assert!(gote.contains(&in_hand(Color::Gote, Color::Sente, Kind::Pawn, 1).unwrap()));
        assert!(gote.iter().all(|&i| i < INPUTS));
    }

    /// Over the positions of random games (captures and points come up): a training record
    /// holds the inputs the net adds up (the accumulator summed from them, the side to
    /// move's view first) and the hand-written evaluation in centipawns; the net's value stays
    /// within the evaluation's bounds, is the same from both sides with the sign turned, and
    /// a net that outputs nothing leaves the hand-written value as it was (up to the rounding
    /// of the turn into centipawns and back).
    #[test]
    fn records_and_values_of_random_games() {
        records_and_values_of_random_games_with(FeatureSet::ShogammonP);
        records_and_values_of_random_games_with(FeatureSet::ShogammonPK);
    }

    fn records_and_values_of_random_games_with(features: FeatureSet) {
        use crate::eval::expected::Value;
        use crate::eval::nnue::layers::{Affine, HIDDEN};
        use crate::eval::nnue::sparse_file::{self, Labels};
        use crate::eval::nnue::Network;
        use crate::eval::shogammon::{evaluate, evaluate_with_net};
        use crate::rules::game::Game;
        use crate::search::chance::ChanceGame;
        let net = Network::random(features, 3);
        let mut silent = Network::random(features, 3);
        silent.output = Affine::from_rows([0], &[[0; HIDDEN]]);
        let (mut checked, mut points, mut held, mut moved, mut certain) = (0, 0, 0, 0, 0);
        crate::eval::random_games::random_games(
            &Position::startpos(),
            5,
            (8, 240),
            |pos, legal, rng| {
                if pos.outcome().is_none() {
                    let labels = Labels {
                        score: 7,
                        game_ply: 3,
                        result: 1,
                    };
                    let bytes =
                        sparse_file::record(pos, features, labels).expect("a game's position fits");
                    let base = i16::from_le_bytes([bytes[6], bytes[7]]);
                    assert_eq!(i32::from(base), pos.hand_written());
                    // The record's parts, with the net's output, compose the engine's value.
                    let parts = sparse_file::expected_parts(&bytes);
                    let composed = parts.value(f64::from(net.evaluate_shogammon(pos)));
                    let own = evaluate_with_net(pos, pos.side_to_move(), Some(&net));
                    assert!((composed.0 - own.0).abs() <= 2, "{composed:?} {own:?}");
                    let us = sparse_file::side_to_move(&bytes);
                    assert_eq!(us, pos.side_to_move());
                    let acc = net.accumulate_shogammon(pos);
                    for (slot, view) in [us, us.flip()].into_iter().enumerate() {
                        let mut row = net.transformer.biases;
                        for input in sparse_file::inputs(&bytes, slot) {
                            for (a, w) in row.0.iter_mut().zip(net.transformer.weights[input].0) {
                                *a = a.wrapping_add(w);
                            }
                        }
                        assert_eq!(row, acc.0[view.index()]);
                    }
                    let [sente, gote] =
                        Color::BOTH.map(|pov| evaluate_with_net(pos, pov, Some(&net)));
                    assert_eq!(sente, gote.negate());
                    assert!(sente.0.abs() <= Value::EVAL_MAX.0, "{sente:?}");
                    let plain = evaluate(pos, Color::Sente);
                    moved += usize::from(sente != plain);
                    // The net corrects the material inside: a king captured for certain on
                    // this roll stays so, whatever the net says.
                    if parts.slope == 0.0 {
                        assert_eq!(sente, plain);
                        certain += 1;
                    }
                    let quiet = evaluate_with_net(pos, Color::Sente, Some(&silent));
                    assert!((quiet.0 - plain.0).abs() <= 1, "{quiet:?} {plain:?}");
                    points += usize::from(!pos.points().is_empty());
                    held += usize::from(Color::BOTH.iter().any(|&c| !pos.hand(c).is_empty()));
                    checked += 1;
                }
                crate::eval::random_games::pick_preferring(legal, rng, |m| pos.is_capture(m))
            },
        );
        assert!(
            checked > 500 && points > 100 && held > 100 && certain > 0,
            "{checked} {points} {held} {certain}"
        );
        assert!(
            moved > checked / 2,
            "the net moved {moved} of {checked} values"
        );
    }

    #[test]
    fn every_input_has_one_meaning() {
        let mut seen_inputs = vec![false; INPUTS];
        for view in Color::BOTH {
            for owner in Color::BOTH {
                for kind in Kind::ALL {
                    for layer in [Layer::Single, Layer::Lower, Layer::Upper] {
                        for s in 0..SQUARES {
                            let input = on_board(view, owner, kind, layer, Square(s as u8));
                            if view == Color::Sente {
                                assert!(!seen_inputs[input], "{input} twice");
                                seen_inputs[input] = true;
                            }
                        }
                    }
                }
                for kind in Kind::HAND {
                    for nth in 0..HAND_SLOTS as u8 {
                        let input = in_hand(view, owner, kind, nth).unwrap();
                        if view == Color::Sente {
                            assert!(!seen_inputs[input], "{input} twice");
                            seen_inputs[input] = true;
                        }
                    }
                    assert_eq!(in_hand(view, owner, kind, HAND_SLOTS as u8), None);
                }
            }
        }
        assert!(
            seen_inputs.iter().all(|&s| s),
            "every input is some piece's"
        );
        // The kings' blocks: an input is one (block, relation, kind, offset), and each of
        // those has an input.
        let mut meaning = vec![None; 2 * KING_BLOCK];
        for board_input in 0..BOARD_INPUTS {
            let (square, kind) = (board_input % SQUARES, board_input / SQUARES % Kind::COUNT);
            let relation = board_input / (SQUARES * Kind::COUNT * LAYERS);
            for king in 0..SQUARES {
                for block in 0..2 {
                    let mut anchors = [None; 2];
                    anchors[block] = Some(king);
                    let offset = (
                        square as i32 / 9 - king as i32 / 9,
                        square as i32 % 9 - king as i32 % 9,
                    );
                    let got: Vec<usize> = king_inputs(board_input, anchors).collect();
                    if kind == Kind::King.index() && relation == block {
                        assert!(got.is_empty(), "a king in its own block");
                        continue;
                    }
                    let [input] = got[..] else { panic!("{got:?}") };
                    let said = (block, relation, kind, offset);
                    let slot = &mut meaning[input - INPUTS];
                    assert!(
                        slot.is_none_or(|m| m == said),
                        "{input}: {slot:?} and {said:?}"
                    );
                    *slot = Some(said);
                }
            }
        }
        // All but a king's place in its own block, which no input stands for.
        for (input, said) in meaning.iter().enumerate() {
            let (block, rest) = (input / KING_BLOCK, input % KING_BLOCK);
            let (relation, kind) = (
                rest / (SPAN * SPAN) / Kind::COUNT,
                rest / (SPAN * SPAN) % Kind::COUNT,
            );
            let unused = kind == Kind::King.index() && relation == block;
            assert_eq!(said.is_none(), unused, "{input}");
        }
    }
}
