//! Move ordering's memory: the heuristics (killers, history, counter-moves, continuation and
//! capture histories, and the correction history of the static evaluation) a search learns,
//! for any [`SearchGame`], and the shelf that carries them from one search to the next. The staged picker that uses them is `search::picker`.

use super::game::SearchGame;
use super::params::SearchParams;
use crate::rules::moves::Move;
use std::sync::Mutex;

/// A piece (its `SearchGame` slot) and the move it made: what counter-moves answer.
pub type PreviousMove = Option<(usize, Move)>;

/// The two moves before a node's (one and two plies back), whose continuation histories
/// score its quiet moves.
pub type RecentMoves = [PreviousMove; 2];

/// Quiet-move statistics learned during one search (per thread), and with
/// `Search_KeepHistory` carried on to the next search of the game through a [`Shelf`].
#[derive(Default)]
pub struct Heuristics {
    pub killers: Vec<[Option<Move>; 2]>,
    squares: usize,
    /// The butterfly history, indexed by moved-piece slot * squares + destination (a cell).
    history: Vec<i32>,
    /// The refutation of a move, indexed like `history` by the piece that moved and where.
    counter: Vec<Option<Move>>,
    /// Continuation histories: how a quiet move (its cell) fared after an earlier move (its
    /// cell), indexed by earlier cell * cells + cell. One table serves both distances. Empty
    /// on boards where cells² entries would not fit in [`CONTINUATION_MAX_CELLS`]².
    continuation: Vec<i16>,
    cells: usize,
    /// The capture history: how a capture fared, indexed by its cell * piece slots + the
    /// captured piece's slot. Empty unless asked for.
    captures: Vec<i16>,
    slots: usize,
    /// The correction history: how far the searched value of a node lay from its static
    /// evaluation, on average, after the previous move (indexed like `history` by the piece
    /// that moved and where; the piece's slot tells the side), in 1/[`CORRECTION_GRAIN`]
    /// centipawns.
    correction: Vec<i32>,
}

/// The correction history's entries are centipawns times this.
const CORRECTION_GRAIN: i32 = 256;

pub const HISTORY_MAX: i32 = 16384;

/// The most (piece slot, square) cells for which a continuation table is kept: standard
/// shogi's 28 × 81 = 2268 (10 MiB of `i16`); the 12×12 games have far more.
const CONTINUATION_MAX_CELLS: usize = 2400;

/// One update of a history entry under the gravity rule: the bonus shrinks as the entry
/// approaches the bound, so entries stay within ±[`HISTORY_MAX`].
#[inline]
fn gravity(entry: i32, bonus: i32) -> i32 {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    entry + bonus - entry * bonus.abs() / HISTORY_MAX
}

/// Which of the optional history tables a search keeps (the butterfly history, killers and
/// counter-moves are always kept).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OptionalTables {
    /// Continuation histories (kept only on boards small enough for them).
    pub continuation: bool,
    /// The capture history.
    pub captures: bool,
}

impl OptionalTables {
    /// The tables the search parameters switch on.
    pub fn of(params: &SearchParams) -> OptionalTables {
        OptionalTables {
            continuation: SearchParams::on(params.continuation_history),
            captures: SearchParams::on(params.capture_history),
        }
    }
}

/// The lengths of `G`'s tables: its (piece slot, square) cells, its continuation table and
/// its capture table (0 for a table not asked for, or a continuation table too big).
fn table_sizes<G: SearchGame>(optional: OptionalTables) -> (usize, usize, usize) {
    let cells = G::PIECE_SLOTS * G::SQUARES;
    let continued = optional.continuation && cells <= CONTINUATION_MAX_CELLS;
    (
        cells,
        if continued { cells * cells } else { 0 },
        if optional.captures {
            cells * G::PIECE_SLOTS
        } else {
            0
        },
    )
}

impl Heuristics {
    /// Empty tables for a search of `max_ply` plies on `G`'s board, with the `optional`
    /// ones asked for (continuation histories only if the board is small enough).
    pub fn new<G: SearchGame>(max_ply: usize, optional: OptionalTables) -> Heuristics {
        let (cells, continuation_len, captures_len) = table_sizes::<G>(optional);
        Heuristics {
            killers: vec![[None; 2]; max_ply + 4],
            squares: G::SQUARES,
            history: vec![0; cells],
            counter: vec![None; cells],
            continuation: vec![0; continuation_len],
            cells,
            captures: vec![0; captures_len],
            slots: G::PIECE_SLOTS,
            correction: vec![0; cells],
        }
    }

    /// Whether these tables are the ones [`Heuristics::new`] makes for `G` and `optional`.
    pub fn fits<G: SearchGame>(&self, optional: OptionalTables) -> bool {
        let (cells, continuation_len, captures_len) = table_sizes::<G>(optional);
        self.squares == G::SQUARES
            && self.slots == G::PIECE_SLOTS
            && self.cells == cells
            && self.continuation.len() == continuation_len
            && self.captures.len() == captures_len
            && self.correction.len() == cells
    }

    /// Readies tables learned in the last search for the next one: the killers are
    /// forgotten (the plies they belong to have moved on) and the histories halved.
    pub fn age(&mut self) {
        self.killers.fill([None; 2]);
        self.history.iter_mut().for_each(|h| *h /= 2);
        self.continuation.iter_mut().for_each(|h| *h /= 2);
        self.captures.iter_mut().for_each(|h| *h /= 2);
        self.correction.iter_mut().for_each(|h| *h /= 2);
    }

    /// The correction of the static evaluation after the move `previous`, in centipawns
    /// (0 after a null move or at the root).
    #[inline]
    pub fn correction(&self, previous: PreviousMove) -> i32 {
        previous.map_or(0, |(p, m)| {
            self.correction[self.cell(p, m)] / CORRECTION_GRAIN
        })
    }

    /// Moves the correction after `previous` towards `difference` (searched value less the
    /// corrected static evaluation, centipawns) by a weight that grows with the node's
    /// `depth`, keeping it within ±`max` centipawns.
    #[inline]
    pub fn update_correction(
        &mut self,
        previous: PreviousMove,
        difference: i32,
        depth: i32,
        max: i32,
    ) {
        if let Some((p, m)) = previous {
            let cell = self.cell(p, m);
            let entry = &mut self.correction[cell];
            let target = *entry + difference.clamp(-max, max) * CORRECTION_GRAIN;
            let weight = (depth + 1).min(16);
            let moved = (*entry * (256 - weight) + target * weight) / 256;
            *entry = moved.clamp(-max * CORRECTION_GRAIN, max * CORRECTION_GRAIN);
        }
    }

    #[inline]
    fn cell(&self, slot: usize, mv: Move) -> usize {
        slot * self.squares + mv.to().index()
    }

    /// The continuation entry of the quiet move in `cell` after `earlier`, if kept.
    #[inline]
    fn continuation_index(&self, earlier: PreviousMove, cell: usize) -> Option<usize> {
        let (p, m) = earlier?;
        (!self.continuation.is_empty()).then(|| self.cell(p, m) * self.cells + cell)
    }

    /// The ordering score of a quiet move: its butterfly history plus its continuation
    /// histories after the two moves before it.
    #[inline]
    pub fn quiet_score(&self, slot: usize, mv: Move, recent: &RecentMoves) -> i32 {
        let cell = self.cell(slot, mv);
        let mut score = self.history[cell];
        for &earlier in recent {
            if let Some(i) = self.continuation_index(earlier, cell) {
                score += i32::from(self.continuation[i]);
            }
        }
        score
    }

    /// Rewards (or, with a negative bonus, punishes) a quiet move in every table that
    /// scores it.
    #[inline]
    pub fn update_quiet(&mut self, slot: usize, mv: Move, recent: &RecentMoves, bonus: i32) {
        let cell = self.cell(slot, mv);
        self.history[cell] = gravity(self.history[cell], bonus);
        for &earlier in recent {
            if let Some(i) = self.continuation_index(earlier, cell) {
                let entry = &mut self.continuation[i];
                *entry = gravity(i32::from(*entry), bonus) as i16;
            }
        }
    }

    /// The capture history of the capture `mv` in `pos` (0 when the table is not kept).
    #[inline]
    pub fn capture_score<G: SearchGame>(&self, pos: &G, mv: Move) -> i32 {
        if self.captures.is_empty() {
            return 0;
        }
        let i = self.cell(pos.moved_slot(mv), mv) * self.slots + pos.victim_slot(mv);
        i32::from(self.captures[i])
    }

    /// Rewards (or, with a negative bonus, punishes) a capture in the capture history.
    #[inline]
    pub fn update_capture(&mut self, slot: usize, mv: Move, victim: usize, bonus: i32) {
        let i = self.cell(slot, mv) * self.slots + victim;
        let entry = &mut self.captures[i];
        *entry = gravity(i32::from(*entry), bonus) as i16;
    }

    #[inline]
    pub fn counter(&self, previous: PreviousMove) -> Option<Move> {
        previous.and_then(|(p, m)| self.counter[self.cell(p, m)])
    }

    #[inline]
    pub fn set_counter(&mut self, previous: PreviousMove, mv: Move) {
        if let Some((p, m)) = previous {
            let cell = self.cell(p, m);
            self.counter[cell] = Some(mv);
        }
    }

    #[inline]
    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
    }
}

/// The heuristics of each search thread (by thread id) between two searches of a game.
#[derive(Default)]
pub struct Shelf(Mutex<Vec<Option<Heuristics>>>);

impl Shelf {
    /// Takes thread `id`'s heuristics off the shelf, if any were left there.
    pub fn take(&self, id: usize) -> Option<Heuristics> {
        let mut slots = self.0.lock().unwrap_or_else(|e| e.into_inner());
        slots.get_mut(id).and_then(Option::take)
    }

    /// Leaves thread `id`'s heuristics for the next search.
    pub fn put(&self, id: usize, heuristics: Heuristics) {
        let mut slots = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if slots.len() <= id {
            slots.resize_with(id + 1, || None);
        }
        slots[id] = Some(heuristics);
    }

    /// Forgets every thread's heuristics (a new game).
    pub fn clear(&self) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}
