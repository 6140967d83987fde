//! Minishogi (5×5): king, gold, silver, bishop, rook and pawn, each side's promotion zone
//! its last rank, drops with nifu and uchifuzume (RULES.md §8). A drop-shogi family member
//! built from nothing but its piece table: the tables are compiled from the move atoms
//! (`AtomTables`) and the family's default hooks find attacks and legal moves, so all of
//! its rules beyond the table (make/unmake, SFEN and USI text, legal moves, the game end)
//! are the family's (`rules::dropshogi`).

use crate::rules::bitboard::{Bb128, Bitboard};
use crate::rules::dropshogi::{
    AtomTables, ColoredPiece, DropKind, DropPosition, DropVariant, Hand,
};
use crate::rules::geometry::Geometry;
use crate::rules::piece::atoms::{step, BISHOP, DRAGON, GOLD, HORSE, KING, ROOK, SILVER};
use crate::rules::piece::{KindId, PieceRules};
use std::sync::OnceLock;

/// The 5×5 board; the promotion zone is the last rank.
#[derive(Clone, Copy, Debug)]
pub struct Board5x5;

impl Geometry for Board5x5 {
    const FILES: u8 = 5;
    const RANKS: u8 = 5;
    const ZONE_DEPTH: u8 = 1;
    type Bb = Bb128;
}

pub type Geo = Board5x5;

/// The piece kinds: the hand kinds first (index = hand slot), then the king and the
/// promoted forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Pawn,
    Silver,
    Gold,
    Bishop,
    Rook,
    King,
    Tokin,
    ProSilver,
    Horse,
    Dragon,
}

use Kind::*;

impl Kind {
    /// Every kind, by index.
    pub const ALL: [Kind; 10] = [
        Pawn, Silver, Gold, Bishop, Rook, King, Tokin, ProSilver, Horse, Dragon,
    ];
    pub const COUNT: usize = Kind::ALL.len();
}

/// The table id of `kind`.
const fn id(kind: Kind) -> KindId {
    KindId(kind as u8)
}

/// Each kind's rules, by index.
static PIECES: [PieceRules; Kind::COUNT] = [
    PieceRules::promoting_in_hand("pawn", 'P', &[step(1, 0)], id(Pawn), id(Tokin))
        .forced_on_last(1),
    PieceRules::promoting_in_hand("silver", 'S', &SILVER, id(Silver), id(ProSilver)),
    PieceRules::new("gold", 'G', &GOLD).held_as(id(Gold), true),
    PieceRules::promoting_in_hand("bishop", 'B', &BISHOP, id(Bishop), id(Horse)),
    PieceRules::promoting_in_hand("rook", 'R', &ROOK, id(Rook), id(Dragon)),
    PieceRules::new("king", 'K', &KING).royal(),
    PieceRules::promoted_from("tokin", 'P', &GOLD, id(Pawn)),
    PieceRules::promoted_from("promoted silver", 'S', &GOLD, id(Silver)),
    PieceRules::promoted_from("horse", 'B', &HORSE, id(Bishop)),
    PieceRules::promoted_from("dragon", 'R', &DRAGON, id(Rook)),
];

impl DropKind for Kind {
    const KING: Kind = King;
    const PAWN: Kind = Pawn;
    const KINDS: &'static [Kind] = &Kind::ALL;
    const HAND_KINDS: &'static [Kind] = &[Pawn, Silver, Gold, Bishop, Rook];
    const HAND_PRINT_ORDER: &'static [Kind] = &[Rook, Bishop, Gold, Silver, Pawn];

    fn index(self) -> usize {
        self as usize
    }
    fn rules(self) -> &'static PieceRules {
        &PIECES[self as usize]
    }
    fn can_promote(self) -> bool {
        PIECES[self as usize].promotes_to.is_some()
    }
    fn promoted(self) -> Kind {
        Kind::ALL[PIECES[self as usize].promotes_to.expect("promotes").0 as usize]
    }
    fn in_hand(self) -> Option<Kind> {
        PIECES[self as usize]
            .demotes_to
            .map(|k| Kind::ALL[k.0 as usize])
    }
    /// One of each kind per side (two in the whole game).
    fn set_count(self) -> u8 {
        2
    }
}

pub type Piece = ColoredPiece<Kind>;

/// The family member: the table, the start position and storage of the right sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Minishogi;

/// The start position (shogiops' and Fairy-Stockfish's).
pub const START_SFEN: &str = "rbsgk/4p/5/P4/KGSBR b - 1";

impl DropVariant for Minishogi {
    type Geo = Board5x5;
    type Kind = Kind;
    type Piece = Piece;
    type Tables = AtomTables<Minishogi>;
    type Mailbox = [Option<Piece>; 25];
    type KindSets = [Bb128; Kind::COUNT];
    type Hand = Hand<Kind, 5>;
    type Choices = ();

    const EMPTY_MAILBOX: Self::Mailbox = [None; 25];
    const EMPTY_KIND_SETS: Self::KindSets = [Bb128::EMPTY; Kind::COUNT];
    const START_SFEN: &'static str = START_SFEN;

    fn tables() -> &'static AtomTables<Minishogi> {
        static TABLES: OnceLock<AtomTables<Minishogi>> = OnceLock::new();
        TABLES.get_or_init(|| AtomTables::build(0x4D49_4E49))
    }
}

pub type Position = DropPosition<Minishogi>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_piece_table_is_consistent() {
        for kind in Kind::ALL {
            if kind.can_promote() {
                assert_eq!(kind.promoted().in_hand(), Some(kind), "{kind:?}");
                assert!(kind.promoted().rules().is_promoted, "{kind:?}");
            }
            assert_eq!(
                kind.rules().droppable,
                Kind::HAND_KINDS.contains(&kind),
                "{kind:?}"
            );
        }
        assert_eq!(Position::startpos().to_sfen(), START_SFEN);
    }
}
