//! The feature file of Shishi's own nets, the 12×12 games' and Shogammon's (`shishi
//! nnue-features --variant chushogi|chukagamigi|shogammon` writes it, `scripts/train_nnue.py`
//! memory-maps it): per training position, the transformer inputs of both views exactly as
//! the evaluation numbers them (`board12::Layout`, `nnue::shogammon`), so the trainer needs
//! to know nothing of the boards.
//!
//! All numbers little-endian. A header of [`HEADER_BYTES`]: the magic `SHISHIFS`, the format
//! version ([`VERSION`], `u32`), the bytes of a record (`u32`), the feature set's hash
//! (`FeatureSet::hash`, `u32`), its number of inputs (`u32`), the inputs a view holds in a
//! record ([`SLOTS`], `u32`). Then fixed-size records, one per position:
//!
//! | bytes | field |
//! |---|---|
//! | 0–1 | score, `i16`: centipawns, side to move's view (the training line's) |
//! | 2–3 | game ply, `u16` |
//! | 4 | game result for the side to move, `i8`: 1 win, 0 draw, −1 loss |
//! | 5 | side to move, `u8`: 0 sente, 1 gote |
//! | 6–7 | the hand-written evaluation, `i16` (clamped): centipawns, side to move's view (the net corrects it; Shogammon's expected result turned into centipawns by `Value::as_centipawns`) |
//! | 8–11 | Shogammon: the material term of its evaluation, `f32` (`ExpectedParts::material`); 0 in the 12×12 games, whose nets' output is added to the hand-written evaluation |
//! | 12–13 | Shogammon: the king odds' offset, `i16`, in 1/32 767 (`ExpectedParts::offset`); 0 in the 12×12 games |
//! | 14–15 | Shogammon: the king odds' slope, `u16`, in 1/65 535 (`ExpectedParts::slope`); 0 in the 12×12 games |
//! | 16– | the side to move's inputs, [`SLOTS`] `u16`, unused ones [`UNUSED`]; then the other side's |

use super::board12::Board12Net;
use super::features::FeatureSet;
use crate::eval::board12::TablePosition;
use crate::eval::shogammon::ExpectedParts;
use crate::record::quiet::board12_is_noisy;
use crate::rules::geometry::Color;
use crate::rules::notation::GameText;
use crate::search::game::SearchGame;

/// The first bytes of a file.
pub const MAGIC: &[u8; 8] = b"SHISHIFS";
/// The format version this module writes (3: 128 slots a view, for `ShogammonPK`; 4: the
/// parts of Shogammon's expected result).
pub const VERSION: u32 = 4;
/// Bytes before the first record.
pub const HEADER_BYTES: usize = 32;
/// Inputs a view holds in a record: more than any game's feature set reads (92 in Chu,
/// 84 in Chu Kagamigi, 40 in Shogammon with `ShogammonP`, 118 with `ShogammonPK`), but for
/// `ChuPK`, whose windows near the royals can hold 24 pieces each: a position that reads
/// more is left out of the file (Chu's start position reads 118; none of 148 000 positions
/// of Chu's self-play read more).
pub const SLOTS: usize = 128;
/// An unused input slot.
pub const UNUSED: u16 = u16::MAX;
/// Bytes of one record.
pub const RECORD_BYTES: usize = INPUTS_OFFSET + 2 * 2 * SLOTS;
/// Bytes of a record before its inputs.
const INPUTS_OFFSET: usize = 16;

/// The header of a file of `features`' records.
pub fn header(features: FeatureSet) -> [u8; HEADER_BYTES] {
    let mut out = [0u8; HEADER_BYTES];
    out[..8].copy_from_slice(MAGIC);
    let words = [
        VERSION,
        RECORD_BYTES as u32,
        features.hash(),
        features.inputs() as u32,
        SLOTS as u32,
    ];
    for (i, word) in words.iter().enumerate() {
        out[8 + 4 * i..12 + 4 * i].copy_from_slice(&word.to_le_bytes());
    }
    out
}

/// The labels of a training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labels {
    pub score: i16,
    pub game_ply: u16,
    /// For the side to move: 1, 0, −1.
    pub result: i8,
}

/// A position of a game whose nets' feature file this is.
pub trait SparsePosition: Sized {
    /// The feature sets of the game's nets (the first is the default).
    const FEATURE_SETS: &'static [FeatureSet];
    fn side_to_move(&self) -> Color;
    /// The hand-written evaluation the net corrects: centipawns, the side to move's view.
    fn hand_written(&self) -> i32;
    /// The parts of the expected result the net corrects inside (Shogammon's), `None` where
    /// the net's output is added to [`Self::hand_written`].
    fn expected_parts(&self) -> Option<ExpectedParts> {
        None
    }
    /// The transformer inputs `view` reads with `features` (one of [`Self::FEATURE_SETS`]).
    fn net_inputs(&self, features: FeatureSet, view: Color) -> Vec<usize>;
    /// The position of a training line's SFEN (`None`: it does not read).
    fn from_training_sfen(text: &str) -> Option<Self>;
    /// The SFEN as the training lines write it.
    fn training_sfen(&self) -> String;
    /// Whether the position is noisy (`record::quiet`) given the move its line records;
    /// `None` if that move is not legal here, or the game's lines cannot be judged so
    /// (Shogammon's start before the roll).
    fn is_noisy(&self, _move_text: &str) -> Option<bool> {
        None
    }
}

impl<P: Board12Net + GameText + SearchGame> SparsePosition for P {
    const FEATURE_SETS: &'static [FeatureSet] = <P as Board12Net>::FEATURE_SETS;

    fn side_to_move(&self) -> Color {
        TablePosition::side_to_move(self)
    }

    fn hand_written(&self) -> i32 {
        let tables = P::evaluator();
        tables.score(tables.totals(self), TablePosition::side_to_move(self))
    }

    fn net_inputs(&self, features: FeatureSet, view: Color) -> Vec<usize> {
        let layout = features.layout().expect("a 12×12 feature set");
        layout.inputs_of(self, view)
    }

    fn from_training_sfen(text: &str) -> Option<Self> {
        P::parse_sfen(text).ok()
    }

    fn training_sfen(&self) -> String {
        self.sfen()
    }

    fn is_noisy(&self, move_text: &str) -> Option<bool> {
        let mv = self.parse_move(move_text).ok()?;
        Some(board12_is_noisy(self, mv))
    }
}

/// The record of `pos` for a net of `features` with `labels`; `None` when a view reads more
/// than [`SLOTS`] inputs (a composed position).
pub fn record<P: SparsePosition>(
    pos: &P,
    features: FeatureSet,
    labels: Labels,
) -> Option<[u8; RECORD_BYTES]> {
    let us = pos.side_to_move();
    let mut out = [0u8; RECORD_BYTES];
    out[0..2].copy_from_slice(&labels.score.to_le_bytes());
    out[2..4].copy_from_slice(&labels.game_ply.to_le_bytes());
    out[4] = labels.result as u8;
    out[5] = us.index() as u8;
    let base = pos.hand_written();
    let base = base.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
    out[6..8].copy_from_slice(&base.to_le_bytes());
    if let Some(parts) = pos.expected_parts() {
        out[8..12].copy_from_slice(&(parts.material as f32).to_le_bytes());
        let offset = (parts.offset * f64::from(i16::MAX)).round() as i16;
        out[12..14].copy_from_slice(&offset.to_le_bytes());
        let slope = (parts.slope * f64::from(u16::MAX)).round() as u16;
        out[14..16].copy_from_slice(&slope.to_le_bytes());
    }
    for (slot, view) in [us, us.flip()].into_iter().enumerate() {
        let inputs = pos.net_inputs(features, view);
        if inputs.len() > SLOTS {
            return None;
        }
        let base = INPUTS_OFFSET + 2 * SLOTS * slot;
        for i in 0..SLOTS {
            let value = inputs.get(i).map_or(UNUSED, |&input| input as u16);
            out[base + 2 * i..base + 2 * i + 2].copy_from_slice(&value.to_le_bytes());
        }
    }
    Some(out)
}

/// The inputs of view `slot` (0: the side to move's) of a record.
pub fn inputs(record: &[u8; RECORD_BYTES], slot: usize) -> Vec<usize> {
    let base = INPUTS_OFFSET + 2 * SLOTS * slot;
    (0..SLOTS)
        .map(|i| u16::from_le_bytes([record[base + 2 * i], record[base + 2 * i + 1]]))
        .filter(|&v| v != UNUSED)
        .map(usize::from)
        .collect()
}

/// The parts of Shogammon's expected result a record holds (as [`record`] rounded them; all
/// 0 in the 12×12 games' records).
pub fn expected_parts(record: &[u8; RECORD_BYTES]) -> ExpectedParts {
    let material = f32::from_le_bytes([record[8], record[9], record[10], record[11]]);
    let offset = i16::from_le_bytes([record[12], record[13]]);
    let slope = u16::from_le_bytes([record[14], record[15]]);
    ExpectedParts {
        material: f64::from(material),
        offset: f64::from(offset) / f64::from(i16::MAX),
        slope: f64::from(slope) / f64::from(u16::MAX),
    }
}

/// The side to move of a record.
pub fn side_to_move(record: &[u8; RECORD_BYTES]) -> Color {
    if record[5] == 0 {
        Color::Sente
    } else {
        Color::Gote
    }
}

// Every input of every game fits a `u16` below `UNUSED`.
const _: () = assert!(super::board12::Layout::CHU.inputs() < UNUSED as usize);
const _: () = assert!(super::board12::Layout::KAGAMIGI.inputs() < UNUSED as usize);
const _: () = assert!(super::shogammon::PK_INPUTS < UNUSED as usize);
const _: () = assert!(super::shogammon::MAX_ACTIVE <= SLOTS);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::Network;
    use crate::rules::variants::{chu, kagamigi};

    /// The inputs a record holds are those the net adds up: the accumulator summed from them
    /// (side to move's view first) gives the evaluation, and its base is the tables'
    /// evaluation the net corrects; over the positions of random games
    /// (captures preferred: full hands in Chu Kagamigi).
    fn records_give_the_evaluation<P>(start: &P)
    where
        P: Board12Net + GameText + SearchGame + crate::rules::game::Game + Clone,
    {
        for &features in P::FEATURE_SETS {
            records_give_the_evaluation_with(start, features);
        }
    }

    fn records_give_the_evaluation_with<P>(start: &P, features: FeatureSet)
    where
        P: Board12Net + GameText + SearchGame + crate::rules::game::Game + Clone,
    {
        use crate::eval::random_games::{pick_preferring, random_games};
        let net = Network::random(features, 7);
        let mut checked = 0;
        random_games(start, 11, (2, 120), |pos, legal, rng| {
            let labels = Labels {
                score: -42,
                game_ply: 17,
                result: -1,
            };
            let bytes = record(pos, features, labels).expect("a game's position fits");
            assert_eq!(i16::from_le_bytes([bytes[0], bytes[1]]), -42);
            assert_eq!(bytes[4] as i8, -1);
            let tables = crate::eval::board12_choice::Board12Evaluator::<P>::with_net(None);
            assert_eq!(
                i32::from(i16::from_le_bytes([bytes[6], bytes[7]])),
                tables.evaluate(pos).clamp(i16::MIN.into(), i16::MAX.into())
            );
            let us = side_to_move(&bytes);
            assert_eq!(us, TablePosition::side_to_move(pos));
            let acc = net.accumulate_board12(pos);
            for (slot, view) in [us, us.flip()].into_iter().enumerate() {
                let mut row = net.transformer.biases;
                for input in inputs(&bytes, slot) {
                    for (a, w) in row.0.iter_mut().zip(net.transformer.weights[input].0) {
                        *a = a.wrapping_add(w);
                    }
                }
                assert_eq!(row, acc.0[view.index()]);
            }
            checked += 1;
            pick_preferring(legal, rng, |m| !pos.effect(m).captures.is_empty())
        });
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn chu_records_hold_the_evaluations_inputs() {
        records_give_the_evaluation(&chu::Position::startpos());
    }

    #[test]
    fn kagamigi_records_hold_the_evaluations_inputs() {
        records_give_the_evaluation(&kagamigi::Position::startpos());
    }
}
