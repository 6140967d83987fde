//! How good a standard-shogi position is (the built-in evaluation; `shogi_choice` picks
//! between it and a net).
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

use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::{Color, Square};
use crate::rules::moves::Move;
use crate::rules::variants::shogi::{Geo, Kind, Piece, Position};
use std::sync::OnceLock;

use super::{Centipawns, Totals};

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
        // Fitted to game results by scripts/texel.sh (the fourth fit, of 2026-11-27: 7 861
        // games, 503 352 positions, L2 1e-10, 200 epochs; docs/STRENGTH.md), so every table
        // is at full strength.
        Weights {
            //      P    L    N    S    B    R    G   K  +P   +L   +N   +S   +B    +R
            board: [
                97, 192, 208, 370, 668, 875, 435, 0, 382, 428, 392, 357, 1013, 1258,
            ],
            hand: [117, 317, 357, 592, 818, 1078, 705],
            hand_count: [
                [
                    0, -30, -70, -54, -39, -152, -16, 96, -33, -57, 14, 21, 1, 0, 0, 0, 0, 0,
                ], // pawn
                [0, -43, -130, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], // lance
                [0, -47, -147, 50, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], // knight
                [0, -216, -225, -77, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], // silver
                [0, -114, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],   // bishop
                [0, -208, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],   // rook
                [0, -221, 28, 30, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], // gold
            ],
            rank: [
                [0, 74, 116, 141, 32, -6, -59, -77, -197],           // pawn
                [0, -114, 28, 43, -62, -7, -84, -14, -17],           // lance
                [0, 0, -112, 3, 35, -35, -82, -207, -24],            // knight
                [-97, 55, 191, 2, 17, -21, -75, -69, -98],           // silver
                [93, 258, 152, 47, -173, -121, -103, -128, -194],    // bishop
                [327, 264, 178, -144, -138, -172, -211, -210, -181], // rook
                [-28, -83, -62, 4, -31, -74, 24, 12, -10],           // gold
                [63, 246, 226, 200, 106, -7, -230, -236, -149],      // king
                [-164, -14, 24, 0, -7, 24, 0, 0, 0],                 // promoted pawn
                [-104, -104, 39, 52, 57, 2, 0, 0, 0],                // promoted lance
                [-169, -21, -114, 167, -23, -36, 0, 0, 0],           // promoted knight
                [8, 31, 222, -58, -256, -149, 0, 0, 0],              // promoted silver
                [-41, 35, 0, 94, 53, 11, 83, -7, -177],              // horse
                [127, 193, 68, -51, -140, -118, -21, -107, -127],    // dragon
            ],
            king_file: [-33, 65, 91, -39, -135, -34, 29, 140, 45],
            pst_percent: 100,
            attack: [
                [-138, -38, -52], // pawn
                [5, 180, 69],     // lance
                [-97, 77, 49],    // knight
                [268, 262, -37],  // silver
                [192, 144, 114],  // bishop
                [61, 25, 38],     // rook
                [164, 241, 59],   // gold
                [0, 0, 0],        // king
                [143, 318, 146],  // promoted pawn
                [131, 285, 20],   // promoted lance
                [105, 278, 52],   // promoted knight
                [144, 221, 117],  // promoted silver
                [45, 188, 107],   // horse
                [45, 298, 99],    // dragon
            ],
            attack_percent: 100,
            defend: [
                [29, 79, 52],    // pawn
                [33, 44, 38],    // lance
                [136, 108, 74],  // knight
                [127, 124, 80],  // silver
                [31, 12, 75],    // bishop
                [-86, -34, -31], // rook
                [130, 102, 95],  // gold
                [0, 0, 0],       // king
                [250, 157, 100], // promoted pawn
                [142, 113, 171], // promoted lance
                [216, 184, 129], // promoted knight
                [222, 109, 21],  // promoted silver
                [251, 230, 150], // horse
                [69, 40, 86],    // dragon
            ],
            defend_percent: 100,
            attack_shape: [
                [
                    0, 99, 184, 0, 0, 29, 24, 67, 83, 120, 141, -99, -177, -173, -166, 68, 39, 78,
                    -148, -180, -159, -163, 62, 40, -68, -11, -88, -127, -136,
                ], // pawn
                [
                    0, 16, 103, 0, 0, -19, -19, 0, 149, 8, 163, -161, -41, 53, -6, -30, 79, -32,
                    59, -4, -52, -72, -88, 45, 68, -72, 62, -1, -17,
                ], // lance
                [
                    0, 97, 199, 17, 0, -11, -55, -44, 85, 0, 38, -132, -48, -86, -29, -16, 62, -55,
                    -136, -110, 3, -17, -11, 110, 16, -49, -43, -22, -42,
                ], // knight
                [
                    0, 183, 214, 0, 0, 171, -32, -133, 144, 170, 0, 181, 0, -77, -58, 22, 3, -30,
                    60, 7, -177, -178, 142, 85, 18, 27, -135, -128, -97,
                ], // silver
                [
                    0, 12, -127, 21, 0, 41, 125, -20, 45, -180, 0, 150, 0, -55, -78, -11, -122,
                    115, 186, -121, 194, 72, 44, 0, -89, 40, 30, 74, -2,
                ], // bishop
                [
                    0, -98, -50, 0, 0, 0, -89, -47, -158, -8, -23, 0, 59, 23, 76, -57, -27, 14,
                    -46, 134, 9, -1, -24, -68, 86, 133, 91, 50, 22,
                ], // rook
                [
                    0, 95, 203, 0, 0, 0, -86, 8, 231, 212, 0, 0, 133, -143, 4, 33, -39, 163, -35,
                    -171, -106, -55, -55, -71, -14, 2, 19, -155, -171,
                ], // gold
                [
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    0, 0, 0,
                ], // king
                [
                    0, 4, 157, 0, 0, 0, -41, 16, 10, 124, 0, 0, 108, -112, -141, -97, 141, 171,
                    179, 14, -89, -42, 110, 174, 106, -56, -15, -88, -35,
                ], // promoted pawn
                [
                    0, 0, 109, 0, 0, 0, 85, -37, 24, 14, 0, 0, 96, 71, -99, -9, 144, 43, 25, -56,
                    27, -68, -133, -2, 130, 154, -133, 78, 37,
                ], // promoted lance
                [
                    0, -66, 45, 0, 0, 0, -29, 5, 54, 167, 0, 0, 70, -1, 136, 109, 83, 150, 160,
                    -124, -29, 86, -43, -97, 79, -71, -145, 80, -42,
                ], // promoted knight
                [
                    0, 135, 79, 0, 0, 0, -20, -71, 71, 171, 0, 0, 109, -79, -28, 134, -24, 139,
                    128, 16, -176, 85, -86, 150, -7, -114, -90, 4, -95,
                ], // promoted silver
                [
                    0, -47, -42, 0, 0, 0, 101, -53, -47, 25, 0, 0, 0, 102, -111, 98, -73, -8, 65,
                    6, 15, 79, -66, 85, 48, 25, 130, 37, -77,
                ], // horse
                [
                    0, -97, -44, 0, 0, 0, 139, -138, 101, 80, 0, 0, 0, 204, -47, 189, -91, 45, 96,
                    18, -87, -115, 23, -61, 82, 28, 195, 25, -185,
                ], // dragon
            ],
            defend_shape: [
                [
                    0, 205, 111, -188, 0, 60, -38, 8, -133, -9, 21, 46, 49, -12, -39, 203, -42, 41,
                    -7, 17, -22, -22, -80, 68, -75, -9, 5, -35, -81,
                ], // pawn
                [
                    0, -177, -170, -51, 0, 57, 9, 155, 4, 36, -56, -3, 87, 115, 191, 6, -50, 87,
                    48, -10, -32, -126, -40, -6, -11, 49, 16, -88, 51,
                ], // lance
                [
                    0, 6, 39, 48, 0, 117, 45, 86, -12, -17, 1, 22, 10, 126, -39, 34, 22, -74, 83,
                    33, -39, -67, -80, 127, 49, 28, 24, 73, -116,
                ], // knight
                [
                    0, 66, -4, -45, 0, 118, 86, 100, -31, 64, -65, 62, 39, 31, 129, -34, -130, -9,
                    13, 45, 40, -153, -133, -86, 20, -1, 41, 41, 75,
                ], // silver
                [
                    0, 112, -110, 44, 0, -4, 19, 118, 25, 11, -50, 26, 23, 129, -17, 131, -106, 54,
                    59, -17, -69, -14, 70, 19, -99, -130, -74, 94, -81,
                ], // bishop
                [
                    0, -16, 112, -198, 0, 130, -49, 47, -122, -89, 37, -76, 28, -112, -15, -171,
                    168, -19, -60, 11, -26, 51, 106, 44, 88, -35, 18, -21, 31,
                ], // rook
                [
                    0, -63, -18, 32, 0, 24, 84, 121, -63, 2, -5, 29, 4, 88, 129, -60, -65, 16, -16,
                    14, 11, 157, -117, -13, 1, 51, -1, -50, -87,
                ], // gold
                [
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    0, 0, 0,
                ], // king
                [
                    0, -3, -96, 176, 0, -6, 96, 114, -38, -65, 35, -2, 172, 124, -39, 3, -64, 89,
                    8, 92, -27, -8, 6, 2, 47, 75, 54, -26, -108,
                ], // promoted pawn
                [
                    0, 8, 0, 15, 0, -39, 47, 46, 4, -62, 55, 103, 38, 60, 140, 0, 27, 71, -81, 3,
                    56, 53, 0, -1, 11, 3, 34, 8, -82,
                ], // promoted lance
                [
                    0, 0, 0, 41, 0, 147, 22, 79, 0, 0, 116, 103, -68, 118, -7, 0, -1, 41, 62, -62,
                    48, 55, 0, 10, 1, 61, -3, 16, -88,
                ], // promoted knight
                [
                    0, 3, 5, -7, 0, 11, -60, 3, 11, 27, 90, 28, 146, -39, -32, -8, 55, 51, 45, 45,
                    -40, -38, 0, -14, -1, 80, 30, -28, 20,
                ], // promoted silver
                [
                    0, 37, 53, -37, 0, 118, -2, 56, -34, 60, 140, 156, -4, 3, -6, 8, -6, 9, 182,
                    97, -145, -7, 0, 81, -74, -27, 50, 89, -20,
                ], // horse
                [
                    0, -29, 12, -116, 0, 66, 26, 0, 58, 0, -45, 84, 75, 61, 55, 15, -41, -9, 17,
                    -51, 19, 101, -37, 29, 58, 148, 46, -171, -127,
                ], // dragon
            ],
            tempo: 12,
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

/// The standard evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> Centipawns {
    Evaluator::standard().evaluate(pos)
}

#[cfg(test)]
mod tests {
    use super::super::random_games::{any_move, check_incremental};
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
