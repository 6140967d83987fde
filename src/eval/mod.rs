//! Evaluation: how good a position is for the side to move, per variant. This file holds
//! standard shogi's; `board12` the one written once for the 12×12 variants, with their
//! weights in `chu` and `kagamigi`; `mobility` measures piece values from reach.
//!
//! Standard shogi is scored as material on the board and in hand (hand pieces are worth a
//! little more, they can be dropped anywhere), piece-square tables by rank and file, and king
//! safety measured as attackers and defenders near each king (a table per kind and king
//! distance). Every term belongs to one piece, so the search keeps each side's total
//! incrementally ([`Evaluator::update`]; a king move recounts from scratch). All weights live
//! in [`Weights`] so that two settings can be compared by self-play; [`Evaluator`]
//! compiles them into flat tables once.

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
    /// Bonus for having the move.
    pub tempo: Centipawns,
}

impl Default for Weights {
    fn default() -> Self {
        // Fitted to game results by scripts/texel.sh (the first fit of 2026-11-23: 3 071
        // games, 169 597 positions; docs/STRENGTH.md), so every table is at full strength.
        Weights {
            //      P    L    N    S    B    R    G   K  +P   +L   +N   +S   +B    +R
            board: [
                103, 321, 388, 529, 801, 935, 583, 0, 548, 561, 559, 567, 1058, 1261,
            ],
            hand: [123, 358, 417, 582, 882, 1052, 646],
            hand_count: [[0; 18]; 7],
            rank: [
                [0, 18, 18, 14, -11, 17, -8, -3, 1],        // pawn
                [0, 4, 3, 2, -3, -2, -2, 0, 3],             // lance
                [0, 0, 5, 6, 7, 3, -14, -3, -5],            // knight
                [1, 5, 8, 8, 8, 6, 19, -16, -17],           // silver
                [-1, 1, 0, 2, -3, 3, 1, 0, -3],             // bishop
                [1, 1, 0, 2, 2, 3, 0, -21, -4],             // rook
                [-10, -9, -4, -2, -2, 1, 3, 15, 0],         // gold
                [-29, -29, -29, -24, -20, -14, -1, 19, -1], // king
                [-4, 7, 12, 7, 5, 3, 0, 0, 0],              // promoted pawn
                [8, 12, 9, 7, 4, 2, 0, 0, 0],               // promoted lance
                [6, 7, 11, 9, 5, 2, 0, 0, 0],               // promoted knight
                [6, 11, 8, 7, 5, 2, 0, 0, 0],               // promoted silver
                [6, 6, 6, 5, 4, 4, 3, 2, 1],                // horse
                [10, 9, 8, 4, 3, 1, 2, 2, 3],               // dragon
            ],
            king_file: [5, 9, 9, 0, -12, 6, 10, 8, 5],
            pst_percent: 100,
            attack: [
                [10, 11, 2],  // pawn
                [20, 12, 3],  // lance
                [20, 11, 5],  // knight
                [31, 22, 8],  // silver
                [25, 19, 10], // bishop
                [25, 19, 14], // rook
                [31, 18, 5],  // gold
                [0, 0, 0],    // king
                [35, 24, 7],  // promoted pawn
                [35, 23, 7],  // promoted lance
                [35, 23, 7],  // promoted knight
                [35, 22, 6],  // promoted silver
                [45, 36, 19], // horse
                [45, 38, 21], // dragon
            ],
            attack_percent: 100,
            defend: [
                [21, 19, -14], // pawn
                [4, 8, 5],     // lance
                [5, 8, -4],    // knight
                [18, 27, -1],  // silver
                [2, 8, -4],    // bishop
                [-6, -6, -3],  // rook
                [38, 18, -3],  // gold
                [0, 0, 0],     // king
                [1, 1, 1],     // promoted pawn
                [0, 1, 0],     // promoted lance
                [1, 1, 0],     // promoted knight
                [31, 15, 0],   // promoted silver
                [25, 13, 1],   // horse
                [0, 0, -1],    // dragon
            ],
            defend_percent: 100,
            tempo: 22,
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

    #[inline]
    fn king_distances(&self, king: Option<Square>) -> &[u8; 81] {
        const ABSENT: [u8; 81] = [0; 81];
        // Distances to a missing king read as 0, where the tables hold nothing.
        king.map_or(&ABSENT, |k| &self.distance[k.index()])
    }

    /// What one piece adds to its owner's total.
    #[inline]
    fn contribution(&self, pos: &Position, color: Color, kind: Kind, sq: Square) -> i32 {
        let own = self.king_distances(pos.king_square(color));
        let enemy = self.king_distances(pos.king_square(color.flip()));
        let i = sq.index();
        self.psq[Piece::new(color, kind).index()][i] as i32
            + self.attack[kind.index()][enemy[i] as usize] as i32
            + self.defend[kind.index()][own[i] as usize] as i32
    }

    /// Each side's total, computed from scratch.
    pub fn totals(&self, pos: &Position) -> Totals {
        let mut sides = [0i32; 2];
        let kings = [pos.king_square(Color::Sente), pos.king_square(Color::Gote)];
        for color in Color::BOTH {
            let mut total = 0;
            let own = self.king_distances(kings[color.index()]);
            let enemy = self.king_distances(kings[color.flip().index()]);
            let ours = pos.pieces_of(color);
            for kind in Kind::ALL {
                let bb = ours & pos.pieces_of_kind(kind);
                if bb.is_empty() {
                    continue;
                }
                let psq = &self.psq[Piece::new(color, kind).index()];
                let attack = &self.attack[kind.index()];
                let defend = &self.defend[kind.index()];
                for sq in bb.squares() {
                    let i = sq.index();
                    total += psq[i] as i32
                        + attack[enemy[i] as usize] as i32
                        + defend[own[i] as usize] as i32;
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
    fn extra_material_counts_and_hand_pieces_are_worth_more() {
        let base = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap();
        let rook_in_hand = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b R 1").unwrap();
        let rook_on_board = Position::from_sfen("4k4/9/9/9/9/9/9/7R1/4K4 b - 1").unwrap();
        let pawn_up = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
        assert!(evaluate(&rook_in_hand) > evaluate(&rook_on_board));
        assert!(evaluate(&rook_on_board) > evaluate(&base) + 800);
        let pawn = evaluate(&pawn_up) - evaluate(&base);
        assert!((90..=140).contains(&pawn), "pawn is {pawn}");
    }
}
