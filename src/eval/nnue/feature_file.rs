//! The feature file a net trainer reads (`shishi nnue-features` writes it,
//! `scripts/train_nnue.py` memory-maps it): per training position, the king squares and
//! BonaPieces of both views exactly as the evaluation computes them (`features::active`,
//! `features::king_offset`), from which both feature sets' inputs follow, so training and
//! inference index the transformer identically and no other program has to decode
//! positions.
//!
//! All numbers little-endian. A header of [`HEADER_BYTES`]: the magic `SHISHIFT`, the
//! format version ([`VERSION`], `u32`), the bytes of a record ([`RECORD_BYTES`], `u32`).
//! Then fixed-size records, one per position:
//!
//! | bytes | field |
//! |---|---|
//! | 0–1 | score, `i16`: centipawns, side to move's view (the training record's) |
//! | 2–3 | game ply, `u16` (the training record's) |
//! | 4 | game result for the side to move, `i8`: 1 win, 0 draw, −1 loss |
//! | 5 | side to move, `u8`: 0 sente, 1 gote |
//! | 6 | the side to move's king square as that side sees the board (0–80) |
//! | 7 | the other side's king square as that side sees the board |
//! | 8–83 | the side to move's 38 BonaPieces (`u16`, 0–1547), in `features::active`'s order |
//! | 84–159 | the other side's 38 BonaPieces |
//!
//! The HalfKP input of a view is `king × 1548 + piece` (`features::king_offset` plus the
//! BonaPiece), the side to move's view first, as `Network::score` orders the halves. The
//! king-independent piece number (the factorised "P" feature, and feature P of K+P) is the
//! BonaPiece itself; K+P's king inputs are `1548 + own king` and `1629 + the other king`,
//! the other king's square turned round (`80 − s`) since its byte is as the other side
//! sees the board ([`FeatureRecord::inputs`]).

use super::features::{self, FeatureSet, PIECES};
use crate::record::packed_sfen::TrainingRecord;
use crate::rules::dropshogi::notation::SfenRules;
use crate::rules::geometry::Color;
use crate::rules::variants::shogi::Position;
use arrayvec::ArrayVec;

/// The first bytes of a feature file.
pub const MAGIC: &[u8; 8] = b"SHISHIFT";
/// The format version this module writes and reads.
pub const VERSION: u32 = 1;
/// Bytes before the first record.
pub const HEADER_BYTES: usize = 16;
/// Bytes of one record.
pub const RECORD_BYTES: usize = 8 + 2 * 2 * PIECES;

/// The header of a feature file.
pub fn header() -> [u8; HEADER_BYTES] {
    let mut out = [0u8; HEADER_BYTES];
    out[..8].copy_from_slice(MAGIC);
    out[8..12].copy_from_slice(&VERSION.to_le_bytes());
    out[12..16].copy_from_slice(&(RECORD_BYTES as u32).to_le_bytes());
    out
}

/// Whether `bytes` start with the header this module writes.
pub fn check_header(bytes: &[u8]) -> Result<(), String> {
    if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
        return Err("not a Shishi feature file (no SHISHIFT header)".to_string());
    }
    if bytes[8..16] != header()[8..16] {
        return Err(format!(
            "feature file of another version or record size (this build writes version {VERSION}, {RECORD_BYTES}-byte records)"
        ));
    }
    Ok(())
}

/// One position's features, with the training record's labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureRecord {
    pub score: i16,
    pub game_ply: u16,
    pub result: i8,
    pub side_to_move: Color,
    /// The king squares (as each side sees the board), side to move's view first.
    pub kings: [u8; 2],
    /// The BonaPieces of each view, side to move's view first.
    pub pieces: [[u16; PIECES]; 2],
}

/// Why a training record gives no feature record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// The packed position does not decode to a legal position.
    Undecodable,
    /// A king is missing: HalfKP needs both.
    NoKing,
    /// More than 38 non-king pieces (not a position of one set).
    TooManyPieces,
    /// In check, or its move captures: left out by `nnue-features --quiet-only`
    /// (`record::quiet`).
    Noisy,
}

impl FeatureRecord {
    /// The features of `pos` with the labels of `record` (whose position it is).
    pub fn from_position(pos: &Position, record: &TrainingRecord) -> Result<FeatureRecord, Skip> {
        let us = pos.side_to_move();
        let mut kings = [0u8; 2];
        let mut pieces = [[0u16; PIECES]; 2];
        for (slot, view) in [us, us.flip()].into_iter().enumerate() {
            let king = pos.king_square(view).ok_or(Skip::NoKing)?;
            kings[slot] = (features::king_offset(view, king) / features::PIECE_INPUTS) as u8;
            let active = features::active(pos, view);
            if active.len() != PIECES {
                return Err(Skip::TooManyPieces);
            }
            for (out, piece) in pieces[slot].iter_mut().zip(active.iter()) {
                *out = piece.0;
            }
        }
        Ok(FeatureRecord {
            score: record.score,
            game_ply: record.game_ply,
            result: record.result as i8,
            side_to_move: us,
            kings,
            pieces,
        })
    }

    /// The features of a training record's position (its SFEN move number is irrelevant to
    /// the features). Two pawns of a side on a file are read too: the Central Madness's
    /// boards have them (`gensfen --variant madness`), and the net values such a board as
    /// any other.
    pub fn from_training(record: &TrainingRecord) -> Result<(FeatureRecord, Position), Skip> {
        let pos = record
            .position
            .to_position_with(
                u32::from(record.game_ply) + 1,
                SfenRules::DoubledPawnsAllowed,
            )
            .map_err(|_| Skip::Undecodable)?;
        Ok((FeatureRecord::from_position(&pos, record)?, pos))
    }

    /// The transformer inputs of view `slot` (0 the side to move's) in a net of
    /// `features`, as `Network::refresh` adds their rows (none in another game's net).
    pub fn inputs(&self, slot: usize, features: FeatureSet) -> ArrayVec<usize, { PIECES + 2 }> {
        let pieces = self.pieces[slot].iter().map(|&p| usize::from(p));
        let king = usize::from(self.kings[slot]);
        match features {
            FeatureSet::HalfKp => pieces.map(|p| king * features::PIECE_INPUTS + p).collect(),
            FeatureSet::Kp => {
                let other = 80 - usize::from(self.kings[1 - slot]);
                let kings = [
                    features::PIECE_INPUTS + king,
                    features::PIECE_INPUTS + 81 + other,
                ];
                pieces.chain(kings).collect()
            }
            FeatureSet::ChuP
            | FeatureSet::ChuPK
            | FeatureSet::KagamigiP
            | FeatureSet::ShogammonP
            | FeatureSet::ShogammonPK => ArrayVec::new(),
        }
    }

    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        out[0..2].copy_from_slice(&self.score.to_le_bytes());
        out[2..4].copy_from_slice(&self.game_ply.to_le_bytes());
        out[4] = self.result as u8;
        out[5] = self.side_to_move.index() as u8;
        out[6..8].copy_from_slice(&self.kings);
        for (i, piece) in self.pieces.iter().flatten().enumerate() {
            out[8 + 2 * i..10 + 2 * i].copy_from_slice(&piece.to_le_bytes());
        }
        out
    }

    pub fn from_bytes(bytes: &[u8; RECORD_BYTES]) -> FeatureRecord {
        let mut pieces = [[0u16; PIECES]; 2];
        for (i, piece) in pieces.iter_mut().flatten().enumerate() {
            *piece = u16::from_le_bytes([bytes[8 + 2 * i], bytes[9 + 2 * i]]);
        }
        FeatureRecord {
            score: i16::from_le_bytes([bytes[0], bytes[1]]),
            game_ply: u16::from_le_bytes([bytes[2], bytes[3]]),
            result: bytes[4] as i8,
            side_to_move: if bytes[5] == 0 {
                Color::Sente
            } else {
                Color::Gote
            },
            kings: [bytes[6], bytes[7]],
            pieces,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::{Accumulator, Network, Row};
    use crate::record::packed_sfen::{GameResult, Move16, PackedSfen};

    const SFENS: [&str; 4] = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "l4g1nl/1r1sgks2/3p1p1pp/p1p3p2/1p1np4/2P2P1P1/PP4P1P/1R1S1G3/LN1G1KSNL b Bb2p 35",
        // Promoted pieces and both hands, gote to move (from a gensfen game).
        "l1+R6/9/3+P3+Lp/2P1+N1+B2/ppp1K1s1P/4pP3/PPGGPs3/5+p1k1/LN2+r2+b1 w GS4Pgs2nlp 188",
        // A handicap start (rook and bishop missing: their numbers read as 0).
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ];

    fn record_of(pos: &Position, score: i16) -> TrainingRecord {
        TrainingRecord {
            position: PackedSfen::pack(pos),
            score,
            best_move: Move16(0),
            game_ply: 7,
            result: GameResult::Loss,
            padding: 0,
        }
    }

    /// The features written and read back are `features::active`'s for both views, side to
    /// move first, and the transformer rows they name give the accumulator the net computes,
    /// for both feature sets.
    #[test]
    fn written_features_are_the_evaluations_features() {
        for features in FeatureSet::SHOGI {
            written_features_give_the_accumulator(features);
        }
    }

    fn written_features_give_the_accumulator(feature_set: FeatureSet) {
        let net = Network::random(feature_set, 3);
        for (i, sfen) in SFENS.iter().enumerate() {
            let pos = Position::from_sfen(sfen).unwrap();
            let record = record_of(&pos, 100 * i as i16 - 150);
            let (features, _) = FeatureRecord::from_training(&record).unwrap();
            let back = FeatureRecord::from_bytes(&features.to_bytes());
            assert_eq!(back, features, "{sfen}");
            assert_eq!(back.score, 100 * i as i16 - 150);
            assert_eq!((back.game_ply, back.result), (7, -1));
            let us = pos.side_to_move();
            assert_eq!(back.side_to_move, us);
            let acc: Accumulator = net.accumulate(&pos);
            for (slot, view) in [us, us.flip()].into_iter().enumerate() {
                let active: Vec<u16> = features::active(&pos, view).iter().map(|p| p.0).collect();
                assert_eq!(back.pieces[slot].to_vec(), active, "{sfen} view {view:?}");
                let mut half = net.transformer.biases;
                for input in back.inputs(slot, feature_set) {
                    half.add(&net.transformer.weights[input]);
                }
                assert_eq!(half, acc.0[view.index()], "{sfen} view {view:?}");
            }
        }
        let empty = Row::default();
        assert_ne!(net.transformer.weights[0], empty);
    }

    #[test]
    fn a_position_without_both_kings_is_skipped() {
        // (A kingless position cannot be packed: any record's labels will do.)
        let record = record_of(&Position::from_sfen(SFENS[0]).unwrap(), 0);
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/9 b P 1").unwrap();
        assert_eq!(
            FeatureRecord::from_position(&pos, &record),
            Err(Skip::NoKing)
        );
    }

    #[test]
    fn undecodable_positions_are_skipped() {
        let pos = Position::from_sfen(SFENS[0]).unwrap();
        let mut record = record_of(&pos, 0);
        // Both kings on one square.
        record.position.0[0] = 0;
        record.position.0[1] = 0;
        assert_eq!(
            FeatureRecord::from_training(&record).map(|(f, _)| f),
            Err(Skip::Undecodable)
        );
    }

    #[test]
    fn the_header_is_checked() {
        let mut h = header();
        assert_eq!(check_header(&h), Ok(()));
        h[12] ^= 1;
        assert!(check_header(&h).is_err());
        assert!(check_header(b"SHISHI").is_err());
    }
}
