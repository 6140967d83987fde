//! The drop-shogi family written once: a board of some size, a table of piece kinds, hands,
//! and shogi's rules of drops, promotion, check and game end. Standard shogi and Chu
//! Kagamigi are two instantiations of [`DropPosition`]; Shogammon and the Central Madness
//! reuse its hands, tables and notation where their rules are shogi's.
//!
//! A member of the family is a type implementing [`DropVariant`]: its geometry, its kinds
//! ([`DropKind`]) and coloured pieces ([`DropPiece`]), its precomputed tables
//! ([`DropTables`]), the fixed-size arrays a position of that size is stored in, and the few
//! hooks where the members differ (how attacks on a square are found, whether a move leaving
//! the zone promotes). Everything is resolved at compile time: each member's position, move
//! generator and notation are monomorphised and pay nothing for being generic.
//!
//! The submodules own one question each: `position` the state with make/unmake, the hash
//! and the debug invariants; `movegen` the parts of legal move generation every member
//! shares (king moves, the promotion split, drops with nifu, dead ranks and uchifuzume);
//! `notation` SFEN and USI move text with one- or two-digit files and what counts as a valid
//! position; `game` the `Game` and `History` impls and the game end. A new member can start
//! from a piece table and a start position alone: `tables` compiles its tables from the
//! move atoms, `piece` gives it a one-byte piece type, and `fallback` holds the slow but
//! exact default hooks (attacks by asking each piece, legal moves by trial).

pub mod fallback;
mod forward;
pub mod game;
pub mod movegen;
pub mod notation;
pub mod piece;
pub mod position;
pub mod tables;

pub(crate) use forward::{
    drop_kind_from_inherent, drop_piece_from_inherent, drop_tables_from_fields,
    drop_variant_storage,
};
pub use piece::ColoredPiece;
pub use position::{DropPosition, Hand};
pub use tables::AtomTables;

use crate::rules::bitboard::Bitboard;
use crate::rules::geometry::{Color, Geometry, Square};
use crate::rules::moves::Move;
use crate::rules::piece::{KindId, PieceRules};
use crate::rules::sink::MoveSink;
use std::fmt::Debug;
use std::hash::Hash;

/// The bitboard of a member's board.
pub type Bb<V> = <<V as DropVariant>::Geo as Geometry>::Bb;

/// A piece kind of a drop variant: a dense index into the kind table and its rule record.
pub trait DropKind: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// The royal kind.
    const KING: Self;
    /// The kind nifu and uchifuzume speak of.
    const PAWN: Self;
    /// Every kind, in index order.
    const KINDS: &'static [Self];
    /// The kinds that can be held in hand, in hand-slot order (a hand kind's index is its
    /// slot).
    const HAND_KINDS: &'static [Self];
    /// The order the SFEN hands field writes the hand kinds in.
    const HAND_PRINT_ORDER: &'static [Self];

    fn index(self) -> usize;
    fn rules(self) -> &'static PieceRules;
    fn can_promote(self) -> bool;
    /// The promoted form; only meaningful when [`DropKind::can_promote`].
    fn promoted(self) -> Self;
    /// The kind a captured piece of this kind becomes in hand (`None` for the king).
    fn in_hand(self) -> Option<Self>;
    /// How many pieces of this hand kind a full set holds (both sides together).
    fn set_count(self) -> u8;

    #[inline]
    fn id(self) -> KindId {
        KindId(self.index() as u8)
    }

    #[inline]
    fn from_index(index: u8) -> Option<Self> {
        Self::KINDS.get(index as usize).copied()
    }
}

/// A coloured piece of a drop variant.
pub trait DropPiece: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    type Kind: DropKind;
    fn new(color: Color, kind: Self::Kind) -> Self;
    fn kind(self) -> Self::Kind;
    fn color(self) -> Color;
    /// A dense index over colour and kind, for tables indexed by coloured piece.
    fn index(self) -> usize;

    /// The piece this one leaves on the destination of its legal move `mv` (promoted if
    /// `mv` promotes).
    #[inline]
    fn landing(self, mv: Move) -> Self {
        if mv.is_promotion() {
            Self::new(self.color(), self.kind().promoted())
        } else {
            self
        }
    }
}

/// What the shared code reads from a member's precomputed tables.
pub trait DropTables<V: DropVariant>: Send + Sync + 'static {
    /// Every square of the board.
    fn all(&self) -> Bb<V>;
    /// `color`'s promotion zone.
    fn zone(&self, color: Color) -> Bb<V>;
    /// Whether `sq` lies in `color`'s promotion zone.
    fn in_zone(&self, color: Color, sq: Square) -> bool;
    /// Where a piece of `color` and hand kind `kind` may be dropped or stand unpromoted.
    fn alive(&self, color: Color, kind: V::Kind) -> Bb<V>;
    /// The squares of one file.
    fn file(&self, file: usize) -> Bb<V>;
    /// Steps and leaps of a piece of `color` and `kind` from `sq`.
    fn step_attacks(&self, color: Color, kind: V::Kind, sq: Square) -> Bb<V>;
    /// Everything a piece attacks from `sq` given the occupancy.
    fn attacks(&self, piece: V::Piece, sq: Square, occupied: Bb<V>) -> Bb<V>;
    /// The square one step forward of `sq` for `color`, if on the board.
    fn square_ahead(&self, color: Color, sq: Square) -> Option<Square>;
    /// The zobrist key of `piece` on `sq`.
    fn board_key(&self, piece: V::Piece, sq: Square) -> u64;
    /// The zobrist key of `count` pieces of hand kind `kind` in `color`'s hand (0 for none).
    fn hand_key(&self, color: Color, kind: V::Kind, count: usize) -> u64;
    /// The zobrist key of gote to move.
    fn side_key(&self) -> u64;
}

/// A member of the drop-shogi family: the types and hooks [`DropPosition`] is built from.
pub trait DropVariant: Sized + Send + Sync + 'static {
    type Geo: Geometry;
    type Kind: DropKind;
    type Piece: DropPiece<Kind = Self::Kind>;
    type Tables: DropTables<Self>;
    /// One square's content per square (`[Option<Piece>; SQUARES]`).
    type Mailbox: Copy
        + PartialEq
        + Send
        + Sync
        + AsRef<[Option<Self::Piece>]>
        + AsMut<[Option<Self::Piece>]>;
    /// One bitboard per kind (`[Bb; KINDS]`).
    type KindSets: Copy + PartialEq + Debug + Send + Sync + AsRef<[Bb<Self>]> + AsMut<[Bb<Self>]>;
    /// One side's hand (`Hand<Kind, HAND_KINDS>`).
    type Hand: HandCounts<Self::Kind>;
    /// Rule choices a game of this member is played under (`()` when there are none).
    type Choices: Copy + Default + Debug + PartialEq + Eq + Hash + Send + Sync;

    const EMPTY_MAILBOX: Self::Mailbox;
    const EMPTY_KIND_SETS: Self::KindSets;
    /// The start position.
    const START_SFEN: &'static str;

    /// The shared tables (built on first call).
    fn tables() -> &'static Self::Tables;

    /// Every piece of `by` that attacks `sq`, with `occupied` as the blocking pieces.
    /// Default: every piece of `by` is asked (`fallback`).
    #[inline]
    fn attackers_to(
        pos: &DropPosition<Self>,
        sq: Square,
        by: Color,
        occupied: Bb<Self>,
    ) -> Bb<Self> {
        fallback::attackers_by_trial(pos, sq, by, occupied)
    }

    /// True if any piece of `by` attacks `sq` (as `attackers_to`, stopping at the first).
    #[inline]
    fn is_attacked(pos: &DropPosition<Self>, sq: Square, by: Color, occupied: Bb<Self>) -> bool {
        Self::attackers_to(pos, sq, by, occupied).any()
    }

    /// Gives every legal move of the side to move to `out`. A fast member finds its
    /// checkers and pins (which depend on its pieces) and calls the shared
    /// `push_king_moves`, `push_board_moves` and `push_drops` of `dropshogi::movegen`.
    /// Default: pseudo-legal moves kept by trial (`fallback`).
    #[inline]
    fn generate_into<S: MoveSink<Bb<Self>>>(pos: &DropPosition<Self>, out: &mut S) {
        fallback::generate_by_trial(pos, out);
    }

    /// Whether one of `takers` (pieces of `color`, attacking `sq`, kings excluded; never
    /// empty) may take on `sq` without exposing `color`'s king on `king`, with `occupied` as
    /// the blocking pieces. Uchifuzume asks it of a dropped pawn.
    fn some_taker_may_capture(
        pos: &DropPosition<Self>,
        color: Color,
        king: Square,
        occupied: Bb<Self>,
        takers: Bb<Self>,
        sq: Square,
    ) -> bool {
        let _ = (color, king, occupied);
        fallback::capture_by_trial(pos, takers, sq)
    }

    /// Judges an entering-king declaration (`bestmove win`) of the side to move under the
    /// member's default rule: `None` if it has no such declaration, else whether it is valid
    /// (with the reason it is not). Standard shogi judges by the CSA 27-point rule.
    fn judge_declaration(_pos: &DropPosition<Self>) -> Option<Result<(), String>> {
        None
    }

    /// Whether a move that starts in the zone and ends outside it may promote.
    #[inline]
    fn promotes_leaving_zone(_choices: Self::Choices) -> bool {
        true
    }
}

/// The counts of one side's hand, as the shared code uses them.
pub trait HandCounts<K>: Copy + Default + PartialEq + Eq + Hash + Debug + Send + Sync {
    fn count(self, kind: K) -> u8;
    fn is_empty(self) -> bool;
    fn add(&mut self, kind: K);
    fn remove(&mut self, kind: K);
    fn set(&mut self, kind: K, count: u8);
}
