//! Continuation histories: how well a quiet move did right after a given earlier move (one
//! and two plies back), learned per search thread. They order quiet moves and scale their
//! late-move reductions alongside the butterfly history of [`super::ordering::Heuristics`].
//!
//! A move is known by the piece that makes it (its `SearchGame` slot) and its destination:
//! a "cell". The table is indexed by the earlier move's cell (its row) and the later move's
//! cell. On the 12×12 boards the cells are too many for a square table, so there a row is
//! only the earlier move's destination square.

use super::game::SearchGame;
use crate::rules::geometry::Square;
use crate::rules::moves::Move;

/// The largest table (entries) keyed by full cells on both sides; larger boards key rows by
/// the earlier move's destination alone.
const FULL_CONTEXT_LIMIT: usize = 1 << 23;

/// The bound of a history value (and of one update).
pub const CONTINUATION_MAX: i32 = 16384;

/// The continuation table of one search thread.
pub struct ContinuationHistory {
    squares: usize,
    cells: usize,
    /// Whether rows are full cells (piece and square) rather than squares.
    full_context: bool,
    table: Vec<i16>,
}

/// Where the entries for the moves that follow one played move begin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContinuationRow(usize);

/// The rows of the moves one and two plies before a node (absent after a null move or at
/// the start of the game history).
pub type ContinuationRows = [Option<ContinuationRow>; 2];

impl ContinuationHistory {
    /// An empty table sized for `G`'s pieces and board.
    pub fn new<G: SearchGame>() -> ContinuationHistory {
        let cells = G::PIECE_SLOTS * G::SQUARES;
        let full_context = cells * cells <= FULL_CONTEXT_LIMIT;
        let rows = if full_context { cells } else { G::SQUARES };
        ContinuationHistory {
            squares: G::SQUARES,
            cells,
            full_context,
            table: vec![0; rows * cells],
        }
    }

    #[inline]
    fn cell(&self, slot: usize, to: Square) -> usize {
        slot * self.squares + to.index()
    }

    /// The row of a move that put the piece of `slot` on `to`.
    #[inline]
    pub fn row(&self, slot: usize, to: Square) -> ContinuationRow {
        let context = if self.full_context {
            self.cell(slot, to)
        } else {
            to.index()
        };
        ContinuationRow(context * self.cells)
    }

    /// The value of the quiet move `mv` (made by the piece of `slot`) after the move of `row`.
    #[inline]
    pub fn get(&self, row: ContinuationRow, slot: usize, mv: Move) -> i32 {
        i32::from(self.table[row.0 + self.cell(slot, mv.to())])
    }

    /// The sum of [`ContinuationHistory::get`] over the rows present.
    #[inline]
    pub fn sum(&self, rows: &ContinuationRows, slot: usize, mv: Move) -> i32 {
        rows.iter()
            .flatten()
            .map(|&row| self.get(row, slot, mv))
            .sum()
    }

    /// Moves each present row's entry for `mv` toward `bonus`'s sign, by less the nearer it
    /// already is to the bound.
    #[inline]
    pub fn update(&mut self, rows: &ContinuationRows, slot: usize, mv: Move, bonus: i32) {
        let bonus = bonus.clamp(-CONTINUATION_MAX, CONTINUATION_MAX);
        let cell = self.cell(slot, mv.to());
        for &row in rows.iter().flatten() {
            let entry = &mut self.table[row.0 + cell];
            let old = i32::from(*entry);
            *entry = (old + bonus - old * bonus.abs() / CONTINUATION_MAX) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variants::shogi::Position;

    #[test]
    fn an_update_raises_only_its_own_row_and_stays_bounded() {
        let pos = Position::startpos();
        let mut history = ContinuationHistory::new::<Position>();
        let mv = pos.parse_usi_move("7g7f").unwrap();
        let slot = pos.moved_slot(mv);
        let row = history.row(3, Square(10));
        let other = history.row(3, Square(11));
        let rows = [Some(row), None];
        for _ in 0..100 {
            history.update(&rows, slot, mv, CONTINUATION_MAX);
        }
        let value = history.get(row, slot, mv);
        assert!(value > CONTINUATION_MAX / 2 && value <= CONTINUATION_MAX);
        assert_eq!(history.get(other, slot, mv), 0);
        assert_eq!(history.sum(&[Some(row), Some(other)], slot, mv), value);
        history.update(&rows, slot, mv, -CONTINUATION_MAX);
        assert!(history.get(row, slot, mv) < value);
    }

    #[test]
    fn the_twelve_by_twelve_boards_key_rows_by_square() {
        use crate::rules::variants::chu::Position as Chu;
        let history = ContinuationHistory::new::<Chu>();
        assert!(!history.full_context);
        assert_eq!(history.row(0, Square(5)), history.row(7, Square(5)));
        let shogi = ContinuationHistory::new::<Position>();
        assert!(shogi.full_context);
        assert_ne!(shogi.row(0, Square(5)), shogi.row(7, Square(5)));
    }
}
