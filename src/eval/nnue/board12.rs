//! The inputs of Shishi's own nets for the 12×12 games (Chu Shogi, Chu Kagamigi): which
//! rows of the feature transformer a position sets for each side's view, and which ones a
//! move changes. No other engine plays these games with a net, so the feature set is ours
//! (docs/NNUE.md, "The 12×12 games"); the file and the layers after the transformer are
//! YaneuraOu's `nn.bin` and `256x2-32-32` (`file`, `layers`).
//!
//! The features are *P* features, one per piece, king-independent (as K+P's): every piece
//! of the board, royals included, is `(relation × kinds + kind) × 144 + square`, where
//! `relation` is 0 for the view's own pieces and 1 for the other side's, `kind` the game's
//! kind index (promoted kinds are kinds of their own) and `square` the square as the view
//! sees the board (sente: as it is, square index 0–143 file-major; gote: turned round,
//! `143 − s`). Pieces in hand (Chu Kagamigi) follow the board's inputs: the `n`-th piece
//! (from 0) of hand kind `h` held is `board inputs + (relation × hand kinds + h) × slots +
//! n`; a game's slots per hand kind are the most of one kind a side can hold, and a
//! composed position holding more sets only the first slots.
//!
//! The *PK* sets (`ChuPK`) read every piece a second time near the royals: after the P
//! inputs, a piece standing within two files and two ranks of a side's royal (the one the
//! tables measure safety around, `TablePosition::royal`), the royal itself left out, is
//! `p inputs + ((block × 2 + relation) × kinds + kind) × 25 + place`, where `block` is 0
//! for the view's own royal and 1 for the other side's, and `place = (files + 2) × 5 +
//! (ranks + 2)` the piece's square less the royal's as the view sees the board. A move
//! changes the window inputs of the pieces whose P inputs it changes, unless a royal moves
//! or is taken (or another piece becomes the royal): then both views are counted again.

use super::features::FeatureSet;
use super::RowChanges;
use crate::eval::board12::TablePosition;
use crate::rules::geometry::{Board12x12, Color, Geometry, Square};
use crate::rules::moves::Move;
use crate::rules::variants::{chu, kagamigi};

/// Squares of the board.
pub const SQUARES: usize = Board12x12::SQUARES;
/// Ranks of a file (squares are numbered file-major).
const RANKS: usize = Board12x12::RANKS as usize;
/// How many files and ranks from a royal a piece is read near it (PK sets).
const WINDOW_REACH: i32 = 2;
/// Files (and ranks) of a royal's window.
const WINDOW_SIDE: usize = 2 * WINDOW_REACH as usize + 1;
/// Places in a royal's window.
pub const WINDOW_PLACES: usize = WINDOW_SIDE * WINDOW_SIDE;

/// The index of `sq` as `view` sees the board: sente's as it is, gote's turned round.
#[inline]
fn seen(view: Color, sq: Square) -> usize {
    match view {
        Color::Sente => sq.index(),
        Color::Gote => SQUARES - 1 - sq.index(),
    }
}

/// How a 12×12 game's pieces are numbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Kinds on the board.
    pub kinds: usize,
    /// Kinds that can be held in hand (their hand kind index is their kind index).
    pub hand_kinds: usize,
    /// Inputs per hand kind and side: the most pieces of one kind held.
    pub hand_slots: usize,
    /// Whether the pieces near each royal are read again by their place from it (PK).
    pub royal_windows: bool,
}

impl Layout {
    /// Chu Shogi: 39 kinds, no hand.
    pub const CHU: Layout = Layout {
        kinds: chu::Kind::COUNT,
        hand_kinds: 0,
        hand_slots: 0,
        royal_windows: false,
    };

    /// Chu Shogi with the pieces near the royals (`ChuPK`).
    pub const CHU_PK: Layout = Layout {
        royal_windows: true,
        ..Layout::CHU
    };

    /// Chu Kagamigi: its kinds, 24 of them held in hand, at most 24 of a kind (the pawns of
    /// both sides).
    pub const KAGAMIGI: Layout = Layout {
        kinds: kagamigi::Kind::COUNT,
        hand_kinds: kagamigi::Kind::HAND_COUNT,
        hand_slots: 24,
        royal_windows: false,
    };

    /// The inputs of the board's pieces.
    pub const fn board_inputs(self) -> usize {
        2 * self.kinds * SQUARES
    }

    /// The P inputs: the board's pieces and the hands.
    pub const fn p_inputs(self) -> usize {
        self.board_inputs() + 2 * self.hand_kinds * self.hand_slots
    }

    /// Rows of the feature transformer.
    pub const fn inputs(self) -> usize {
        let windows = if self.royal_windows {
            2 * 2 * self.kinds * WINDOW_PLACES
        } else {
            0
        };
        self.p_inputs() + windows
    }

    /// The input of `owner`'s piece of kind index `kind` on `sq`, as `view` sees it.
    #[inline]
    pub fn on_board(self, view: Color, owner: Color, kind: usize, sq: Square) -> usize {
        let relation = usize::from(owner != view);
        (relation * self.kinds + kind) * SQUARES + seen(view, sq)
    }

    /// The input of the `nth` (from 0) piece of hand kind `kind` held by `owner`, as `view`
    /// sees it (`None` past the game's slots).
    #[inline]
    pub fn in_hand(self, view: Color, owner: Color, kind: usize, nth: u32) -> Option<usize> {
        let nth = nth as usize;
        if kind >= self.hand_kinds || nth >= self.hand_slots {
            return None;
        }
        let relation = usize::from(owner != view);
        Some(self.board_inputs() + (relation * self.hand_kinds + kind) * self.hand_slots + nth)
    }

    /// The window input, as `view` sees it, of `owner`'s piece of kind index `kind` on `sq`
    /// near `royal_owner`'s royal on `royal` (`None`: outside the window, or the royal
    /// itself). Its place is the same for both views, each seeing the other turned round.
    #[inline]
    pub fn near_royal(
        self,
        view: Color,
        royal_owner: Color,
        royal: Square,
        owner: Color,
        kind: usize,
        sq: Square,
    ) -> Option<usize> {
        if sq == royal {
            return None;
        }
        let file_and_rank = |s: Square| {
            let index = seen(view, s);
            ((index / RANKS) as i32, (index % RANKS) as i32)
        };
        let ((file, rank), (royal_file, royal_rank)) = (file_and_rank(sq), file_and_rank(royal));
        let (files, ranks) = (file - royal_file, rank - royal_rank);
        if files.abs() > WINDOW_REACH || ranks.abs() > WINDOW_REACH {
            return None;
        }
        let block = usize::from(royal_owner != view);
        let relation = usize::from(owner != view);
        let place = (files + WINDOW_REACH) as usize * WINDOW_SIDE + (ranks + WINDOW_REACH) as usize;
        Some(self.p_inputs() + ((block * 2 + relation) * self.kinds + kind) * WINDOW_PLACES + place)
    }

    /// The royals the windows are read around, sente's and gote's (none without windows).
    #[inline]
    pub fn window_royals<P: TablePosition>(self, pos: &P) -> [Option<Square>; 2] {
        if self.royal_windows {
            Color::BOTH.map(|color| pos.royal(color))
        } else {
            [None; 2]
        }
    }

    /// The rows, for both views, of `owner`'s piece of kind index `kind` on `sq`: its P
    /// row, and its window rows near `royals` (sente's, gote's).
    #[inline]
    fn piece_rows(
        self,
        royals: [Option<Square>; 2],
        owner: Color,
        kind: usize,
        sq: Square,
        out: &mut arrayvec::ArrayVec<[usize; 2], { RowChanges::CAPACITY }>,
    ) {
        out.push(self.on_board_both(owner, kind, sq));
        for royal_owner in Color::BOTH {
            if let Some(royal) = royals[royal_owner.index()] {
                let rows = Color::BOTH
                    .map(|view| self.near_royal(view, royal_owner, royal, owner, kind, sq));
                debug_assert_eq!(rows[0].is_some(), rows[1].is_some());
                if let [Some(sente), Some(gote)] = rows {
                    out.push([sente, gote]);
                }
            }
        }
    }

    /// [`Layout::on_board`] for both views (sente's, gote's).
    #[inline]
    fn on_board_both(self, owner: Color, kind: usize, sq: Square) -> [usize; 2] {
        Color::BOTH.map(|view| self.on_board(view, owner, kind, sq))
    }

    /// [`Layout::in_hand`] for both views (`None` past the game's slots, for both alike).
    #[inline]
    fn in_hand_both(self, owner: Color, kind: usize, nth: u32) -> Option<[usize; 2]> {
        Some([
            self.in_hand(Color::Sente, owner, kind, nth)?,
            self.in_hand(Color::Gote, owner, kind, nth)?,
        ])
    }

    /// Calls `f` with every input `view` reads in `pos`.
    pub fn for_each_input<P: TablePosition>(self, pos: &P, view: Color, mut f: impl FnMut(usize)) {
        pos.for_each_piece(|sq, owner, kind| f(self.on_board(view, owner, kind, sq)));
        for owner in Color::BOTH {
            for kind in 0..self.hand_kinds {
                for nth in 0..pos.hand_count(owner, kind) {
                    match self.in_hand(view, owner, kind, nth) {
                        Some(input) => f(input),
                        None => break,
                    }
                }
            }
        }
        for (royal_owner, royal) in Color::BOTH.into_iter().zip(self.window_royals(pos)) {
            let Some(royal) = royal else { continue };
            pos.for_each_piece(|sq, owner, kind| {
                if let Some(input) = self.near_royal(view, royal_owner, royal, owner, kind, sq) {
                    f(input);
                }
            });
        }
    }

    /// The inputs `view` reads in `pos`, in [`Layout::for_each_input`]'s order.
    pub fn inputs_of<P: TablePosition>(self, pos: &P, view: Color) -> Vec<usize> {
        let mut out = Vec::with_capacity(2 * SQUARES);
        self.for_each_input(pos, view, |input| out.push(input));
        out
    }

    /// What the legal move `mv` (not yet played) changes in `pos`'s inputs, if the royals
    /// the windows are read around stay on `royals` ([`Layout::window_royals`] of `pos`)
    /// after it (the caller checks that after the move, and counts the views again if not).
    #[inline]
    pub fn changes<P: TablePosition>(
        self,
        pos: &P,
        mv: Move,
        royals: [Option<Square>; 2],
    ) -> RowChanges {
        let effect = pos.effect(mv);
        let us = pos.side_to_move();
        let them = us.flip();
        let mut out = RowChanges::default();
        match (effect.moved, effect.dropped) {
            (Some((from, kind)), _) => self.piece_rows(royals, us, kind, from, &mut out.removed),
            (None, Some(kind)) => {
                let nth = pos.hand_count(us, kind).saturating_sub(1);
                out.removed.extend(self.in_hand_both(us, kind, nth));
            }
            (None, None) => {}
        }
        self.piece_rows(royals, us, effect.landed, effect.to, &mut out.added);
        for (i, &(sq, kind)) in effect.captures.iter().enumerate() {
            self.piece_rows(royals, them, kind, sq, &mut out.removed);
            if let Some(held) = P::hand_kind(kind) {
                // A second capture of the same hand kind in one move takes the next slot.
                let earlier = effect.captures[..i]
                    .iter()
                    .filter(|&&(_, k)| P::hand_kind(k) == Some(held))
                    .count() as u32;
                let nth = pos.hand_count(us, held) + earlier;
                out.added.extend(self.in_hand_both(us, held, nth));
            }
        }
        out
    }
}

/// A 12×12 game that a net of Shishi's own can evaluate.
pub trait Board12Net: TablePosition {
    /// The feature sets of its nets (the first is the default of `nnue-features`).
    const FEATURE_SETS: &'static [FeatureSet];
}

impl Board12Net for chu::Position {
    const FEATURE_SETS: &'static [FeatureSet] = &[FeatureSet::ChuP, FeatureSet::ChuPK];
}

impl Board12Net for kagamigi::Position {
    const FEATURE_SETS: &'static [FeatureSet] = &[FeatureSet::KagamigiP];
}
