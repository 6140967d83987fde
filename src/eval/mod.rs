//! Evaluation: how good a position is for the side to move, per variant. This file holds
//! standard shogi's; `board12` the one written once for the 12×12 variants, with their
//! weights in `chu` and `kagamigi`; `mobility` measures piece values from reach.
//!
//! Standard shogi is scored as material on the board and in hand (hand pieces are worth a
//! little more, they can be dropped anywhere; the second and later pieces of a kind in hand
//! have their own values), piece-square tables by rank and file, and king safety measured
//! as attackers and defenders near each king (a table per kind and king distance, refined
//! by shape tables per kind and square of the 7×7 box around each king). Every term belongs
//! to one piece or one hand count, so the search keeps each side's total incrementally
//! ([`Evaluator::update`]; a king move recounts from scratch). All weights live in
//! [`Weights`] so that two settings can be compared by self-play; [`Evaluator`] compiles
//! them into flat tables once.

pub mod board12;
pub mod chu;
pub mod expected;
pub mod kagamigi;
pub mod madness;
pub mod mobility;
#[cfg(test)]
pub(crate) mod random_games;
pub mod shogammon;

use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::Move;
use crate::rules::variants::shogi::{Geo, Kind, Piece, Position};
use std::sync::OnceLock;

/// A score in centipawns (a pawn is about 100), from a stated side's point of view.
pub type Centipawns = i32;

/// Bonus by rank, per kind (`Kind as usize`), counted from the far edge (0 = the
/// opponent's back rank).
pub type RankTable = [[Centipawns; 9]; Kind::COUNT];
/// Bonus at king distance 1, 2 and 3, per kind.
pub type NearKingTable = [[Centipawns; 3]; Kind::COUNT];
/// Cells of the box around a king in which the shape tables score a piece: files 0 to 3 away
/// (either side) by ranks 3 behind to 3 in front, the king's own square left out; cell 0
/// stands for every square outside.
pub const SHAPE_CELLS: usize = 1 + 4 * 7;
/// Bonus per kind by where the piece stands relative to a king ([`shape_cell`]).
pub type ShapeTable = [[Centipawns; SHAPE_CELLS]; Kind::COUNT];

/// The shape-table cell of a piece of `color` on `sq` relative to the king on `king`: by
/// files away (0 to 3, either side) and by ranks in front of the king as `color` sees the
/// board (−3 to 3); 0 outside that box or on the king's square.
pub fn shape_cell(color: Color, king: Square, sq: Square) -> usize {
    let rank = |s: Square| i32::from(s.rank::<Geo>().distance_from_far_edge::<Geo>(color));
    let files = (i32::from(sq.file::<Geo>().0) - i32::from(king.file::<Geo>().0)).abs();
    let ahead = rank(king) - rank(sq);
    if files > 3 || ahead.abs() > 3 || (files == 0 && ahead == 0) {
        return 0;
    }
    1 + (files * 7 + ahead + 3) as usize
}

/// Per hand kind (hand-slot order), what the n-th piece held (index n − 1) adds to the
/// kind's hand value; the first entry of each row is unused (that is the hand value itself)
/// and so are the entries past the kind's count in a full set (`Kind::SET_COUNT`).
pub type HandCountTable = [[Centipawns; 18]; 7];

/// The knobs of the evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Value of a piece on the board, per kind (`Kind as usize`).
    pub board: [Centipawns; Kind::COUNT],
    /// Value of a piece in hand, per hand kind.
    pub hand: [Centipawns; 7],
    /// What the second, third, … piece of a kind in hand adds to that value (a second
    /// pawn in hand is not worth what the first is).
    pub hand_count: HandCountTable,
    /// Piece-square table by rank, per kind.
    pub rank: RankTable,
    /// The king's bonus by file from its own left (0 = USI file 1 for sente); kings prefer
    /// the flanks.
    pub king_file: [Centipawns; 9],
    /// Per cent applied to the piece-square tables (`rank` and `king_file` together).
    pub pst_percent: i32,
    /// What a piece near the enemy king adds.
    pub attack: NearKingTable,
    /// Per cent applied to `attack`.
    pub attack_percent: i32,
    /// What a piece near its own king adds.
    pub defend: NearKingTable,
    /// Per cent applied to `defend`.
    pub defend_percent: i32,
    /// What a piece adds by where it stands relative to the enemy king (on top of
    /// `attack`, which knows only the distance).
    pub attack_shape: ShapeTable,
    /// What a piece adds by where it stands relative to its own king (the castle's shape,
    /// on top of `defend`).
    pub defend_shape: ShapeTable,
    /// Bonus for having the move.
    pub tempo: Centipawns,
}

impl Default for Weights {
    fn default() -> Self {
        // Fitted to game results by scripts/texel.sh (the third fit, of 2026-11-27: 6 373
        // games, 422 781 positions, L2 1e-9; docs/STRENGTH.md), so every table is at full
        // strength.
        Weights {
            //      P    L    N    S    B    R    G   K  +P   +L   +N   +S   +B    +R
            board: [
                101, 234, 245, 415, 686, 866, 502, 0, 436, 484, 459, 490, 1112, 1330,
            ],
            hand: [114, 302, 352, 595, 845, 1071, 699],
            hand_count: [
                [
                    0, -29, -71, -58, -51, -75, 7, 36, 9, 1, 3, 3, 0, 0, 0, 0, 0, 0,
                ], // pawn
                [0, -25, -19, -4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], // lance
                [0, -24, -39, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], // knight
                [0, -106, -55, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], // silver
                [0, -56, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],    // bishop
                [0, -33, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],    // rook
                [0, -99, -2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],   // gold
            ],
            rank: [
                [0, 57, 102, 156, 27, -2, -60, -75, -182],      // pawn
                [0, -38, 17, 53, -42, 44, -78, -12, -35],       // lance
                [0, 0, -74, 19, 54, -29, -73, -159, -41],       // knight
                [-55, 32, 144, 36, 13, -21, -80, -86, -78],     // silver
                [92, 147, 79, 48, -82, -77, -72, -96, -140],    // bishop
                [191, 122, 52, -31, -25, -90, -112, -124, -69], // rook
                [11, -84, -29, 24, 64, -80, -7, 25, -29],       // gold
                [-29, 91, 75, 86, 37, -3, -136, -130, -76],     // king
                [-123, -11, -4, 19, 26, 5, 0, 0, 0],            // promoted pawn
                [-38, -51, 13, 22, 10, 2, 0, 0, 0],             // promoted lance
                [-98, 20, -61, 51, 20, 2, 0, 0, 0],             // promoted knight
                [2, -7, 116, -39, -89, -21, 0, 0, 0],           // promoted silver
                [-64, -8, -30, 67, 3, 27, 55, 55, -39],         // horse
                [116, 106, 52, -53, -73, -48, -7, -40, -31],    // dragon
            ],
            king_file: [-7, 49, 88, -37, -113, -15, 30, 88, 15],
            pst_percent: 100,
            attack: [
                [-46, -15, -17], // pawn
                [-4, 95, 28],    // lance
                [-15, 44, 38],   // knight
                [123, 175, 25],  // silver
                [61, 59, 113],   // bishop
                [38, 61, -5],    // rook
                [65, 136, 29],   // gold
                [0, 0, 0],       // king
                [48, 197, 82],   // promoted pawn
                [52, 149, -3],   // promoted lance
                [44, 146, -5],   // promoted knight
                [51, 111, 27],   // promoted silver
                [45, 119, 107],  // horse
                [45, 201, 83],   // dragon
            ],
            attack_percent: 100,
            defend: [
                [23, 71, 34],    // pawn
                [-7, 63, 29],    // lance
                [101, 72, 84],   // knight
                [103, 120, 75],  // silver
                [4, -11, 3],     // bishop
                [-79, -74, -33], // rook
                [110, 86, 58],   // gold
                [0, 0, 0],       // king
                [119, 76, 62],   // promoted pawn
                [33, 28, 41],    // promoted lance
                [77, 75, 60],    // promoted knight
                [87, 42, -2],    // promoted silver
                [137, 136, 79],  // horse
                [12, -13, 7],    // dragon
            ],
            defend_percent: 100,
            attack_shape: [
                [
                    0, 64, 83, 0, 0, -8, 1, 11, 60, 88, 55, -55, -47, -44, -46, 62, 0, 42, -97,
                    -68, -47, -31, 53, 21, -98, -29, -30, -36, -25,
                ], // pawn
                [
                    0, 10, 23, 0, 0, -1, -3, 0, 48, 29, 16, -31, -6, 4, -3, 1, 27, -1, 0, 5, -2,
                    -7, -13, 6, 5, -18, 0, -1, -2,
                ], // lance
                [
                    0, 50, 73, -4, 0, -2, -3, -6, 42, 0, -3, -24, -1, -11, -2, -28, 34, -34, -13,
                    -13, 0, -2, -9, 48, -15, -21, -7, -4, -9,
                ], // knight
                [
                    0, 89, 65, 0, 0, 37, 3, -22, 46, 83, 0, 55, 0, -23, -17, -32, 50, 4, 38, 9,
                    -42, -45, 66, 18, 5, -6, -40, -28, -16,
                ], // silver
                [
                    0, 21, -53, 8, 0, 5, 18, -2, 22, -50, 0, 22, 0, -4, -2, -30, -23, 48, 69, -13,
                    49, 4, -8, 30, -2, 39, 16, 14, 1,
                ], // bishop
                [
                    0, -23, -8, 0, 0, 0, -3, -3, -95, -4, 9, 0, 3, 0, 5, 4, -22, 3, 8, 62, 3, -1,
                    27, -39, 14, 29, 54, 4, 2,
                ], // rook
                [
                    0, 17, 52, 0, 0, 0, -8, -3, 103, 73, 0, 0, 34, -17, -11, 16, 13, 63, -12, -27,
                    -18, -22, -11, -20, -1, 9, -8, -19, -23,
                ], // gold
                [
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    0, 0, 0,
                ], // king
                [
                    0, 0, 15, 0, 0, 0, -2, 3, 1, 12, 0, 0, 13, -14, -23, -5, 26, 74, 68, 22, -5,
                    -16, 7, 31, 73, 3, 13, -4, -8,
                ], // promoted pawn
                [
                    0, 0, 12, 0, 0, 0, 7, -1, 2, -2, 0, 0, 17, 21, -14, -1, 27, 30, 28, -4, 6, -6,
                    -17, 1, 20, 40, -55, 17, 3,
                ], // promoted lance
                [
                    0, -1, 19, 0, 0, 0, -7, -3, 1, 32, 0, 0, 9, -2, 5, 10, 14, 59, 49, -34, -6, -7,
                    -1, -4, 33, -2, -47, 13, -9,
                ], // promoted knight
                [
                    0, 14, 8, 0, 0, 0, 1, -11, 4, 28, 0, 0, 16, -9, -3, 14, 3, 32, 37, 21, -32, 10,
                    -12, 36, -1, -6, -20, 6, -10,
                ], // promoted silver
                [
                    0, -7, -3, 0, 0, 0, 2, -10, -19, 18, 0, 0, 0, 21, -28, 52, -9, 30, 16, 13, -3,
                    2, -9, 23, 21, 10, 66, 4, -12,
                ], // horse
                [
                    0, -12, -4, 0, 0, 0, 15, -30, 15, 31, 0, 0, 0, 65, -42, 54, 3, 40, 46, 40, 14,
                    -24, -7, 2, 31, 32, 90, -6, -41,
                ], // dragon
            ],
            defend_shape: [
                [
                    0, 68, 57, -94, 0, 34, -58, -7, -11, 26, 31, -4, 37, -29, 4, 84, 26, 19, 12,
                    23, -23, -68, 15, 56, 3, 44, 20, -32, -95,
                ], // pawn
                [
                    0, -21, -37, -44, 0, 14, -17, 31, 4, 22, 8, -17, 28, 31, 47, 7, -16, 78, 28,
                    -32, -14, -62, 22, 45, -7, 23, -9, -48, -10,
                ], // lance
                [
                    0, 17, 41, 15, 0, 86, -2, 101, 1, -55, -10, 15, 17, 86, -8, 3, 60, -46, 41, 22,
                    -28, -63, 5, 41, 25, 63, -20, 28, -102,
                ], // knight
                [
                    0, 9, 14, -27, 0, 103, 66, 56, 16, 21, -76, 42, 29, -4, 94, 12, -32, -27, 17,
                    26, 13, -122, -20, -10, 16, -26, -12, 26, 34,
                ], // silver
                [
                    0, 16, -44, 12, 0, -12, -11, 36, -3, 6, -48, 29, 24, 87, -16, 18, -28, 9, 62,
                    -22, -71, -3, -1, 11, -36, -68, -18, 99, -11,
                ], // bishop
                [
                    0, -6, 32, -85, 0, 44, -38, 5, -21, -16, 31, -63, -4, -88, -50, -26, 46, 0, -6,
                    7, -7, 36, 16, 17, 55, -26, 4, -10, -23,
                ], // rook
                [
                    0, -15, -27, 38, 0, 39, 107, 11, 4, 18, -12, 7, 7, 21, 51, -9, 12, 1, -38, 19,
                    -49, 55, -7, -17, -43, 55, 5, 3, -35,
                ], // gold
                [
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    0, 0, 0,
                ], // king
                [
                    0, -2, -17, 38, 0, 9, 20, 20, -4, -18, -5, 14, 63, 34, 19, 0, -6, 10, 12, 27,
                    11, 5, 0, 0, 0, 11, 12, 3, -5,
                ], // promoted pawn
                [
                    0, 2, 0, 3, 0, 2, 0, 3, 1, -8, 8, 23, -3, 8, 14, 0, 5, 10, -1, 4, 9, 12, 0, 0,
                    3, 1, 4, 4, -3,
                ], // promoted lance
                [
                    0, 0, 0, 5, 0, 33, 14, 20, 0, 0, 15, 25, -4, 22, 11, 0, 0, 10, 11, -2, 18, 21,
                    0, 2, 1, 4, 2, 4, -5,
                ], // promoted knight
                [
                    0, 1, 2, 0, 0, 0, -4, -6, 3, 4, 17, 9, 30, -4, -11, 0, 8, 6, 9, 10, -3, -11, 0,
                    0, 4, 15, 5, -2, 0,
                ], // promoted silver
                [
                    0, 5, 5, -4, 0, 51, -13, 19, -3, 9, 28, 40, 5, 32, 37, 3, 2, -5, 62, 80, -30,
                    0, 0, 4, -19, -10, 24, 31, -11,
                ], // horse
                [
                    0, -2, 2, -12, 0, 4, -2, -2, 9, 0, -2, 16, 6, 5, 15, 3, -7, -3, -3, -2, -3, 23,
                    -4, 3, 6, 39, 4, -48, -38,
                ], // dragon
            ],
            tempo: 10,
        }
    }
}

/// Chebyshev distance between squares never exceeds 8.
const DISTANCES: usize = 9;

/// Compiled evaluation tables for one [`Weights`].
pub struct Evaluator {
    /// Material plus piece-square value, per coloured piece index and square, from the
    /// piece owner's point of view.
    psq: [[i16; 81]; 2 * Kind::COUNT],
    /// Bonus for a piece of a kind at a distance from the enemy king.
    attack: [[i16; DISTANCES]; Kind::COUNT],
    /// Bonus for a piece of a kind at a distance from its own king.
    defend: [[i16; DISTANCES]; Kind::COUNT],
    /// Per hand kind, the value of holding 0, 1, 2, … pieces of it.
    held: [[i32; 19]; 7],
    distance: [[u8; 81]; 81],
    /// Bonus for a piece of a kind by its shape cell relative to the enemy king.
    attack_shape: ShapeTable,
    /// Bonus for a piece of a kind by its shape cell relative to its own king.
    defend_shape: ShapeTable,
    /// Per piece colour and king square, each square's shape cell.
    shape: [[[u8; 81]; 81]; 2],
    tempo: i32,
}

impl Evaluator {
    /// Compiles `weights` into tables.
    pub fn new(weights: &Weights) -> Evaluator {
        let mut psq = [[0i16; 81]; 2 * Kind::COUNT];
        for color in Color::BOTH {
            for kind in Kind::ALL {
                let piece = Piece::new(color, kind);
                for sq in Square::all::<Geo>() {
                    let rank = sq.rank::<Geo>().distance_from_far_edge::<Geo>(color) as usize;
                    let file = sq.file::<Geo>().0 as usize;
                    let file = match color {
                        Color::Sente => file,
                        Color::Gote => 8 - file,
                    };
                    let king_file = if kind == Kind::King {
                        weights.king_file[file]
                    } else {
                        0
                    };
                    let pst = weights.rank[kind.index()][rank] + king_file;
                    let value = weights.board[kind.index()] + pst * weights.pst_percent / 100;
                    psq[piece.index()][sq.index()] = value as i16;
                }
            }
        }
        let mut attack = [[0i16; DISTANCES]; Kind::COUNT];
        let mut defend = [[0i16; DISTANCES]; Kind::COUNT];
        for kind in Kind::ALL {
            for d in 1..4 {
                attack[kind.index()][d] =
                    (weights.attack[kind.index()][d - 1] * weights.attack_percent / 100) as i16;
                defend[kind.index()][d] =
                    (weights.defend[kind.index()][d - 1] * weights.defend_percent / 100) as i16;
            }
        }
        let mut distance = [[0u8; 81]; 81];
        for a in Square::all::<Geo>() {
            for b in Square::all::<Geo>() {
                let df = (a.file::<Geo>().0 as i32 - b.file::<Geo>().0 as i32).abs();
                let dr = (a.rank::<Geo>().0 as i32 - b.rank::<Geo>().0 as i32).abs();
                distance[a.index()][b.index()] = df.max(dr) as u8;
            }
        }
        let mut shape = [[[0u8; 81]; 81]; 2];
        for color in Color::BOTH {
            for king in Square::all::<Geo>() {
                for sq in Square::all::<Geo>() {
                    shape[color.index()][king.index()][sq.index()] =
                        shape_cell(color, king, sq) as u8;
                }
            }
        }
        let mut held = [[0i32; 19]; 7];
        for (h, row) in held.iter_mut().enumerate() {
            for n in 1..=usize::from(Kind::SET_COUNT[h]) {
                row[n] = row[n - 1] + weights.hand[h] + weights.hand_count[h][n - 1];
            }
        }
        Evaluator {
            psq,
            attack,
            defend,
            held,
            distance,
            attack_shape: weights.attack_shape,
            defend_shape: weights.defend_shape,
            shape,
            tempo: weights.tempo,
        }
    }

    /// The tables for [`Weights::default`], built on first use.
    pub fn standard() -> &'static Evaluator {
        static STANDARD: OnceLock<Evaluator> = OnceLock::new();
        STANDARD.get_or_init(|| Evaluator::new(&Weights::default()))
    }

    /// The value of a piece of `kind` on the board (for move ordering and exchange scores).
    pub fn piece_value(kind: Kind) -> Centipawns {
        Weights::default().board[kind.index()]
    }

    /// The score of `pos` for the side to move.
    pub fn evaluate(&self, pos: &Position) -> Centipawns {
        self.score(self.totals(pos), pos.side_to_move())
    }

    /// The score for `side_to_move` of a position whose totals are `totals`.
    #[inline]
    pub fn score(&self, totals: Totals, side_to_move: Color) -> Centipawns {
        totals.0[side_to_move.index()] - totals.0[side_to_move.flip().index()] + self.tempo
    }

    /// How the pieces of `color` see the two kings of `pos`.
    #[inline]
    fn kings_seen_by(&self, pos: &Position, color: Color) -> KingsSeen<'_> {
        const ABSENT: [u8; 81] = [0; 81];
        // Distances and cells around a missing king read as 0, where the tables hold
        // nothing.
        let distances = |king: Option<Square>| king.map_or(&ABSENT, |k| &self.distance[k.index()]);
        let shape = &self.shape[color.index()];
        let cells = |king: Option<Square>| king.map_or(&ABSENT, |k| &shape[k.index()]);
        let (own, enemy) = (pos.king_square(color), pos.king_square(color.flip()));
        KingsSeen {
            own_distance: distances(own),
            enemy_distance: distances(enemy),
            own_cell: cells(own),
            enemy_cell: cells(enemy),
        }
    }

    /// What a piece of `color` and `kind` on `sq` adds to its owner's total.
    #[inline]
    fn piece_total(&self, color: Color, kind: Kind, sq: Square, kings: &KingsSeen) -> i32 {
        let (i, k) = (sq.index(), kind.index());
        self.psq[Piece::new(color, kind).index()][i] as i32
            + self.attack[k][kings.enemy_distance[i] as usize] as i32
            + self.defend[k][kings.own_distance[i] as usize] as i32
            + self.attack_shape[k][kings.enemy_cell[i] as usize]
            + self.defend_shape[k][kings.own_cell[i] as usize]
    }

    /// What one piece adds to its owner's total.
    #[inline]
    fn contribution(&self, pos: &Position, color: Color, kind: Kind, sq: Square) -> i32 {
        self.piece_total(color, kind, sq, &self.kings_seen_by(pos, color))
    }

    /// Each side's total, computed from scratch.
    pub fn totals(&self, pos: &Position) -> Totals {
        let mut sides = [0i32; 2];
        for color in Color::BOTH {
            let mut total = 0;
            let kings = self.kings_seen_by(pos, color);
            let ours = pos.pieces_of(color);
            for kind in Kind::ALL {
                for sq in (ours & pos.pieces_of_kind(kind)).squares() {
                    total += self.piece_total(color, kind, sq, &kings);
                }
            }
            let hand = pos.hand(color);
            for kind in Kind::HAND {
                total += self.held[kind.index()][usize::from(hand.count(kind))];
            }
            sides[color.index()] = total;
        }
        Totals(sides)
    }

    /// The totals after the legal move `mv` (not yet played) from `pos`, whose totals are
    /// `before`; `None` when a king moves (every king-distance term changes: recompute).
    #[inline]
    pub fn update(&self, pos: &Position, mv: Move, before: Totals) -> Option<Totals> {
        let us = pos.side_to_move();
        let them = us.flip();
        let mut t = before.0;
        let to = mv.to();
        match mv.from() {
            None => {
                let kind = Kind::from_index(mv.dropped_kind()?.0)?;
                let held = &self.held[kind.index()];
                let count = usize::from(pos.hand(us).count(kind));
                t[us.index()] +=
                    self.contribution(pos, us, kind, to) - held[count] + held[count - 1];
            }
            Some(from) => {
                let kind = pos.piece_at(from)?.kind();
                if kind == Kind::King {
                    return None;
                }
                let landed = if mv.is_promotion() {
                    kind.promoted()
                } else {
                    kind
                };
                t[us.index()] +=
                    self.contribution(pos, us, landed, to) - self.contribution(pos, us, kind, from);
                if let Some(victim) = pos.piece_at(to) {
                    t[them.index()] -= self.contribution(pos, them, victim.kind(), to);
                    let kind = victim.kind().in_hand()?;
                    let held = &self.held[kind.index()];
                    let count = usize::from(pos.hand(us).count(kind));
                    t[us.index()] += held[count + 1] - held[count];
                }
            }
        }
        Some(Totals(t))
    }
}

/// The distance and shape-cell tables of the two kings, as the pieces of one side see them.
struct KingsSeen<'a> {
    own_distance: &'a [u8; 81],
    enemy_distance: &'a [u8; 81],
    own_cell: &'a [u8; 81],
    enemy_cell: &'a [u8; 81],
}

/// Each side's evaluation total (material, tables, king safety) from its own point of view,
/// indexed by `Color::index`; the score is the difference plus the tempo bonus.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals(pub [i32; 2]);

/// The standard evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> Centipawns {
    Evaluator::standard().evaluate(pos)
}

#[cfg(test)]
mod tests {
    use super::random_games::{any_move, check_incremental};
    use super::*;

    #[test]
    fn incremental_totals_match_a_full_recount() {
        let e = Evaluator::standard();
        let updated = check_incremental(e, &Position::startpos(), 3, (30, 160), any_move);
        assert!(updated > 2000, "{updated}");
    }

    #[test]
    fn start_position_is_balanced_apart_from_tempo() {
        let pos = Position::startpos();
        assert_eq!(evaluate(&pos), Weights::default().tempo);
    }

    #[test]
    fn mirrored_positions_score_alike() {
        // The same position with colours swapped and the board turned round.
        let a = Position::from_sfen("4k4/9/4p4/9/9/2P6/9/1B7/4K4 b RG2p 1").unwrap();
        let b = Position::from_sfen("4k4/7b1/9/6p2/9/9/4P4/9/4K4 w rg2P 1").unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn hand_pieces_are_valued_by_their_count_and_updated_incrementally() {
        let mut weights = Weights::default();
        for (h, row) in weights.hand_count.iter_mut().enumerate() {
            for (n, extra) in row.iter_mut().enumerate().skip(1) {
                *extra = 9 * h as i32 - 7 * n as i32;
            }
        }
        let e = Evaluator::new(&weights);
        let score = |sfen: &str| e.evaluate(&Position::from_sfen(sfen).unwrap());
        let none = score("4k4/9/9/9/9/9/9/9/4K4 b - 1");
        let one = score("4k4/9/9/9/9/9/9/9/4K4 b P 1");
        let three = score("4k4/9/9/9/9/9/9/9/4K4 b 3P 1");
        let hand = weights.hand[0];
        assert_eq!(one - none, hand);
        assert_eq!(three - one, 2 * hand - 7 - 14);
        let updated = check_incremental(&e, &Position::startpos(), 5, (30, 160), any_move);
        assert!(updated > 2000, "{updated}");
    }

    #[test]
    fn shape_cells_are_seen_from_each_side_and_updated_incrementally() {
        let sq = |usi: &str| Square::from_usi::<Geo>(usi).unwrap();
        // A gold one file aside and one rank in front of its king, for sente and for gote
        // (the mirror image), is the same cell; behind is another; far away is none.
        let in_front = shape_cell(Color::Sente, sq("7h"), sq("6g"));
        assert_ne!(in_front, 0);
        assert_eq!(shape_cell(Color::Gote, sq("3b"), sq("4c")), in_front);
        assert_eq!(shape_cell(Color::Gote, sq("3b"), sq("2c")), in_front);
        assert_ne!(shape_cell(Color::Sente, sq("7h"), sq("6i")), in_front);
        assert_eq!(shape_cell(Color::Sente, sq("7h"), sq("7h")), 0);
        assert_eq!(shape_cell(Color::Sente, sq("9i"), sq("5e")), 0);
        let plain = Weights {
            attack_shape: [[0; SHAPE_CELLS]; Kind::COUNT],
            defend_shape: [[0; SHAPE_CELLS]; Kind::COUNT],
            ..Weights::default()
        };
        let mut weights = plain.clone();
        for (k, (attack, defend)) in weights
            .attack_shape
            .iter_mut()
            .zip(weights.defend_shape.iter_mut())
            .enumerate()
        {
            for c in 1..SHAPE_CELLS {
                attack[c] = (k * 3 + c) as i32 % 17;
                defend[c] = 11 - (k + 2 * c) as i32 % 23;
            }
        }
        let gold = Kind::Gold.index();
        let e = Evaluator::new(&weights);
        let with_gold = |at: &str| {
            let sfen = format!("4k4/9/9/9/9/9/9/{at}/7K1 b - 1");
            e.evaluate(&Position::from_sfen(&sfen).unwrap())
        };
        // Gold on 3h (one rank in front of the king on 2i, one file aside) against 5h.
        let shift = weights.defend_shape[gold][shape_cell(Color::Sente, sq("2i"), sq("3h"))]
            - weights.defend_shape[gold][shape_cell(Color::Sente, sq("2i"), sq("5h"))];
        let tables = Evaluator::new(&plain);
        let without_shapes = |at: &str| {
            let sfen = format!("4k4/9/9/9/9/9/9/{at}/7K1 b - 1");
            tables.evaluate(&Position::from_sfen(&sfen).unwrap())
        };
        assert_eq!(
            with_gold("6G2") - with_gold("4G4"),
            without_shapes("6G2") - without_shapes("4G4") + shift
        );
        let updated = check_incremental(&e, &Position::startpos(), 7, (30, 160), any_move);
        assert!(updated > 2000, "{updated}");
    }

    #[test]
    fn extra_material_counts_and_hand_pieces_are_worth_more() {
        let base = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap();
        let rook_in_hand = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b R 1").unwrap();
        let rook_on_board = Position::from_sfen("4k4/9/9/9/9/9/9/7R1/4K4 b - 1").unwrap();
        let pawn_up = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
        let silver_on_board = Position::from_sfen("4k4/9/9/9/9/9/9/7S1/4K4 b - 1").unwrap();
        assert!(evaluate(&rook_in_hand) > evaluate(&rook_on_board));
        assert!(evaluate(&rook_on_board) > evaluate(&silver_on_board));
        // Six pawns, not a full rook's value: the fitted tables mark a rook idle on its
        // starting square down.
        assert!(evaluate(&rook_on_board) > evaluate(&base) + 600);
        let pawn = evaluate(&pawn_up) - evaluate(&base);
        assert!((90..=140).contains(&pawn), "pawn is {pawn}");
    }
}
