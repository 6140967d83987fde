//! The evaluation of the 12×12 variants (Chu Shogi, Chu Kagamigi), written once over
//! [`TablePosition`]: material and piece-square values per piece, pieces in hand, and royal
//! safety as attackers and defenders by distance to each side's royal (as the standard
//! shogi evaluation does). Every term belongs to one piece, so the totals are kept
//! incrementally ([`TableEvaluator::update`]); a move that moves or takes a royal recounts.
//! The variants' weights live in `eval/chu.rs` and `eval/kagamigi.rs`; what both share (values
//! measured from mobility and kept on first use, the square bonus by role, the cached
//! evaluator) is written here once, as [`TableWeights`]' provided methods.

use super::{mobility, Totals};
use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::{Board12x12, Color, Geometry, Square};
use crate::rules::moves::Move;
use crate::rules::piece::PieceRules;
use arrayvec::ArrayVec;
use std::sync::OnceLock;

type Geo = Board12x12;
const SQUARES: usize = Geo::SQUARES;
/// Distances counted for royal safety (1, 2 and 3; farther pieces add nothing).
const NEAR: usize = 4;

/// What a move does to the pieces, as the evaluation sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effect {
    /// The square and kind of the moving piece; `None` for a drop.
    pub moved: Option<(Square, usize)>,
    /// The kind dropped from hand.
    pub dropped: Option<usize>,
    pub to: Square,
    /// The kind that stands on `to` afterwards.
    pub landed: usize,
    /// The squares and kinds taken (two for a Lion's double capture).
    pub captures: ArrayVec<(Square, usize), 2>,
}

/// What [`TableEvaluator`] reads of a position (its kinds' facts are its [`TableWeights`]).
pub trait TablePosition: TableWeights {
    fn side_to_move(&self) -> Color;
    /// Calls `f` with the square, owner and kind index of every piece.
    fn for_each_piece(&self, f: impl FnMut(Square, Color, usize));
    /// The square of `color`'s royal that safety is measured around (`None`: no royal).
    fn royal(&self, color: Color) -> Option<Square>;
    /// How many pieces of (board) kind `kind` `color` holds in hand.
    fn hand_count(&self, color: Color, kind: usize) -> u32;
    /// The hand kind a captured piece of `kind` becomes (`None`: captures are not kept).
    fn hand_kind(kind: usize) -> Option<usize>;
    /// The effect of the legal move `mv`, not yet played.
    fn effect(&self, mv: Move) -> Effect;
}

/// Inside an `impl TablePosition for Position` of a game whose `Kind` lists its kinds in
/// `Kind::ALL`: the side to move and every piece, read from the position's own
/// `side_to_move` and `pieces(color, kind)`.
macro_rules! table_position_pieces {
    () => {
        #[inline]
        fn side_to_move(&self) -> Color {
            Position::side_to_move(self)
        }

        fn for_each_piece(&self, f: impl FnMut(Square, Color, usize)) {
            board12::each_piece_by_kind(Kind::COUNT, |c, k| self.pieces(c, Kind::ALL[k]), f);
        }
    };
}
pub(crate) use table_position_pieces;

/// Calls `f` with the square, owner and kind index of every piece, owner by owner and kind
/// by kind, where `pieces(color, kind)` is the set of `color`'s pieces of kind index `kind`
/// (the body of a position's [`TablePosition::for_each_piece`]).
#[inline]
pub fn each_piece_by_kind<B: Bitboard>(
    kinds: usize,
    pieces: impl Fn(Color, usize) -> B,
    mut f: impl FnMut(Square, Color, usize),
) {
    for color in Color::BOTH {
        for kind in 0..kinds {
            for sq in pieces(color, kind).squares() {
                f(sq, color, kind);
            }
        }
    }
}

/// A variant's weights, in centipawns, per kind index (implemented by its position type).
/// The values are measured from mobility on the 12×12 board, then adjusted by the variant;
/// they and the compiled [`TableEvaluator`] are built on first use and kept in the variant's
/// [`TableCells`].
pub trait TableWeights: Sized {
    /// Bonus for having the move.
    const TEMPO: i32;
    /// Where the values and the evaluator are kept (a static of the variant's own).
    const CELLS: &'static TableCells;
    /// The rule record of every kind, in kind order (their reach gives the values).
    fn rules() -> Vec<&'static PieceRules>;
    /// Changes the measured values, per kind (royals, powers mobility does not see).
    fn adjust_values(values: &mut [i32]);
    /// Value in hand of a kind worth `board` on the board (0 for kinds never in hand).
    fn hand_value(kind: usize, board: i32) -> i32;
    /// Whether a piece of this kind is a royal (kept back; moving or taking it recounts).
    fn is_royal(kind: usize) -> bool;
    /// Whether a piece of this kind can promote.
    fn can_promote(kind: usize) -> bool;
    /// Bonus by distance 1, 2, 3 to the enemy royal, per kind.
    fn attack(kind: usize) -> [i32; 3];
    /// Bonus by distance 1, 2, 3 to the own royal, per kind.
    fn defend(kind: usize) -> [i32; 3];

    /// Value on the board, per kind (one per kind: its length is the number of kinds).
    #[inline]
    fn values() -> &'static [i32] {
        Self::CELLS.values.get_or_init(|| {
            let mut values = mobility::measured_values::<Geo>(&Self::rules());
            Self::adjust_values(&mut values);
            values
        })
    }

    /// The variant's standard evaluator.
    #[inline]
    fn evaluator() -> &'static TableEvaluator {
        Self::CELLS
            .evaluator
            .get_or_init(TableEvaluator::new::<Self>)
    }

    /// Piece-square bonus for `color`'s piece of `kind` on a square, given the square's rank
    /// counted from `color`'s far edge (0 = the far edge) and its file from the left edge as
    /// that side sees it: [`square_bonus`] by the kind's [`SquareRole`].
    fn square_bonus(kind: usize, rank_from_far: usize, file: usize) -> i32 {
        let role = if Self::is_royal(kind) {
            SquareRole::Royal
        } else if Self::can_promote(kind) && Self::values()[kind] < 400 {
            SquareRole::SmallPromotable
        } else {
            SquareRole::Other
        };
        square_bonus(role, rank_from_far, file)
    }
}

/// One variant's measured values and evaluator, each built on first use.
#[derive(Default)]
pub struct TableCells {
    values: OnceLock<Vec<i32>>,
    evaluator: OnceLock<TableEvaluator>,
}

impl TableCells {
    pub const fn new() -> TableCells {
        TableCells {
            values: OnceLock::new(),
            evaluator: OnceLock::new(),
        }
    }
}

/// What a piece's square bonus depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareRole {
    /// Kept back on its own ranks.
    Royal,
    /// A promotable piece worth less than 400: gains by advancing towards the zone.
    SmallPromotable,
    /// Everything else: a little for the centre files.
    Other,
}

/// The square bonus both 12×12 variants use, by role, rank counted from the far edge and
/// file from the left edge as the owner sees it.
pub fn square_bonus(role: SquareRole, rank_from_far: usize, file: usize) -> i32 {
    let centre = 5 - (2 * file as i32 - 11).abs() / 2; // 0 on the edge files, 5 in the middle
    let from_back = 11 - rank_from_far as i32; // 0 on the own back rank
    match role {
        SquareRole::Royal => -12 * from_back + 3 * centre,
        SquareRole::SmallPromotable => 4 * from_back.min(8) + centre,
        SquareRole::Other => 2 * centre,
    }
}

/// Compiled tables for one variant's weights.
pub struct TableEvaluator {
    kinds: usize,
    /// Value + square bonus, indexed by (colour × kinds + kind) × squares + square.
    psq: Vec<i32>,
    attack: Vec<[i32; NEAR]>,
    defend: Vec<[i32; NEAR]>,
    hand: Vec<i32>,
    /// Chebyshev distance capped at `NEAR` (so `NEAR` reads "too far").
    distance: Vec<u8>,
    tempo: i32,
}

impl TableEvaluator {
    /// The tables of `W`'s weights.
    pub fn new<W: TableWeights>() -> TableEvaluator {
        let kinds = W::values().len();
        let mut psq = vec![0; 2 * kinds * SQUARES];
        for color in Color::BOTH {
            for kind in 0..kinds {
                for sq in Square::all::<Geo>() {
                    let rank = sq.rank::<Geo>().distance_from_far_edge::<Geo>(color) as usize;
                    let file = sq.file::<Geo>().0 as usize;
                    let file = match color {
                        Color::Sente => file,
                        Color::Gote => Geo::FILES as usize - 1 - file,
                    };
                    psq[(color.index() * kinds + kind) * SQUARES + sq.index()] =
                        W::values()[kind] + W::square_bonus(kind, rank, file);
                }
            }
        }
        let near = |f: &dyn Fn(usize) -> [i32; 3]| -> Vec<[i32; NEAR]> {
            (0..kinds)
                .map(|k| {
                    let b = f(k);
                    [0, b[0], b[1], b[2]]
                })
                .collect()
        };
        let mut distance = vec![0u8; SQUARES * SQUARES];
        for a in Square::all::<Geo>() {
            for b in Square::all::<Geo>() {
                let df = (a.file::<Geo>().0 as i32 - b.file::<Geo>().0 as i32).abs();
                let dr = (a.rank::<Geo>().0 as i32 - b.rank::<Geo>().0 as i32).abs();
                distance[a.index() * SQUARES + b.index()] = df.max(dr).min(NEAR as i32) as u8;
            }
        }
        TableEvaluator {
            kinds,
            psq,
            attack: near(&W::attack),
            defend: near(&W::defend),
            hand: (0..kinds)
                .map(|k| W::hand_value(k, W::values()[k]))
                .collect(),
            distance,
            tempo: W::TEMPO,
        }
    }

    #[inline]
    fn near(&self, royal: Option<Square>, sq: Square) -> usize {
        royal.map_or(NEAR, |r| {
            self.distance[r.index() * SQUARES + sq.index()] as usize
        })
    }

    /// What one piece adds to its owner's total, given both royals.
    #[inline]
    fn contribution(
        &self,
        royals: [Option<Square>; 2],
        color: Color,
        kind: usize,
        sq: Square,
    ) -> i32 {
        let own = self.near(royals[color.index()], sq);
        let enemy = self.near(royals[color.flip().index()], sq);
        let near = |table: &[i32; NEAR], d: usize| if d < NEAR { table[d] } else { 0 };
        self.psq[(color.index() * self.kinds + kind) * SQUARES + sq.index()]
            + near(&self.attack[kind], enemy)
            + near(&self.defend[kind], own)
    }

    fn royals<P: TablePosition>(pos: &P) -> [Option<Square>; 2] {
        [pos.royal(Color::Sente), pos.royal(Color::Gote)]
    }

    /// Each side's total, from scratch.
    pub fn totals<P: TablePosition>(&self, pos: &P) -> Totals {
        let royals = Self::royals(pos);
        let mut sides = [0i32; 2];
        pos.for_each_piece(|sq, color, kind| {
            sides[color.index()] += self.contribution(royals, color, kind, sq);
        });
        for color in Color::BOTH {
            for (kind, &value) in self.hand.iter().enumerate() {
                if value != 0 {
                    sides[color.index()] += pos.hand_count(color, kind) as i32 * value;
                }
            }
        }
        Totals(sides)
    }

    /// The totals after the legal move `mv` (not yet played); `None` when a royal moves or
    /// is taken (the distance terms of every piece change: recount).
    #[inline]
    pub fn update<P: TablePosition>(&self, pos: &P, mv: Move, before: Totals) -> Option<Totals> {
        let effect = pos.effect(mv);
        if effect.moved.is_some_and(|(_, k)| P::is_royal(k))
            || effect.captures.iter().any(|&(_, k)| P::is_royal(k))
        {
            return None;
        }
        let royals = Self::royals(pos);
        let us = pos.side_to_move();
        let them = us.flip();
        let mut t = before.0;
        match (effect.moved, effect.dropped) {
            (Some((from, kind)), _) => {
                t[us.index()] -= self.contribution(royals, us, kind, from);
            }
            (None, Some(kind)) => t[us.index()] -= self.hand[kind],
            (None, None) => return None,
        }
        t[us.index()] += self.contribution(royals, us, effect.landed, effect.to);
        for &(sq, kind) in &effect.captures {
            t[them.index()] -= self.contribution(royals, them, kind, sq);
            if let Some(hand_kind) = P::hand_kind(kind) {
                t[us.index()] += self.hand[hand_kind];
            }
        }
        Some(Totals(t))
    }

    /// The score of `totals` for `side_to_move`.
    #[inline]
    pub fn score(&self, totals: Totals, side_to_move: Color) -> i32 {
        totals.0[side_to_move.index()] - totals.0[side_to_move.flip().index()] + self.tempo
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variants::{chu, kagamigi};

    #[test]
    fn the_start_positions_are_balanced_apart_from_tempo() {
        fn balanced<P: TablePosition>(e: &TableEvaluator, start: &P) {
            assert_eq!(e.score(e.totals(start), Color::Sente), P::TEMPO);
            assert_eq!(e.score(e.totals(start), Color::Gote), P::TEMPO);
        }
        balanced(chu::Position::evaluator(), &chu::Position::startpos());
        balanced(
            kagamigi::Position::evaluator(),
            &kagamigi::Position::startpos(),
        );
    }
}
