//! Standard shogi (RULES.md §1): its piece kinds and their rule records. It is a member of
//! the drop-shogi family (`rules::dropshogi`), whose position, make/unmake, hash, notation,
//! shared move generation and game end it uses.
//!
//! The submodules own what is standard shogi's own: `tables` the precomputed attack
//! geometry, `position` the family member (`Shogi`: storage, tables, attack detection),
//! `movegen` its checkers and slider pins, `notation` the start position, `checks` whether a
//! move gives check, `captures` the captures-only generator of quiescence search, `impasse`
//! the entering-king declaration.

mod captures;
mod checks;
/// The entering-king declaration (`bestmove win`) and its rule variants.
pub mod impasse;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod tables;

pub use position::{Position, Shogi};

use crate::rules::dropshogi::{drop_kind_from_inherent, drop_piece_from_inherent};
use crate::rules::geometry::Board9x9;
use crate::rules::piece::atoms::{
    leap, slide, step, BISHOP, DRAGON, GOLD, HORSE, KING, ROOK, SILVER,
};
use crate::rules::piece::{one_byte_piece, piece_kinds, MoveAtom, PieceRules};

/// The board of standard shogi.
pub type Geo = Board9x9;

piece_kinds! {
    /// The fourteen piece kinds. Hand-holdable kinds come first (their index is the hand
    /// slot); a promoted kind is its base kind plus [`Kind::PROMOTION_OFFSET`].
    pub enum Kind {
        Pawn,
        Lance,
        Knight,
        Silver,
        Bishop,
        Rook,
        Gold,
        King,
        ProPawn,
        ProLance,
        ProKnight,
        ProSilver,
        Horse,
        Dragon,
    }
    promotion: below Kind::Gold as u8, offset 8;
    in_hand_except: King;
}

impl Kind {
    /// Kinds that can be held in hand, in hand-slot order.
    pub const HAND: [Kind; 7] = [
        Kind::Pawn,
        Kind::Lance,
        Kind::Knight,
        Kind::Silver,
        Kind::Bishop,
        Kind::Rook,
        Kind::Gold,
    ];
    /// How many pieces of each hand kind exist in a full set.
    pub const SET_COUNT: [u8; 7] = [18, 4, 4, 4, 2, 2, 4];

    #[inline]
    pub fn rules(self) -> &'static PieceRules {
        &PIECES[self.index()]
    }

    /// Moves like a gold general (gold and the four promoted minor pieces).
    #[inline]
    pub fn is_gold_like(self) -> bool {
        matches!(
            self,
            Kind::Gold | Kind::ProPawn | Kind::ProLance | Kind::ProKnight | Kind::ProSilver
        )
    }
}

drop_kind_from_inherent!(Kind, hand: &Kind::HAND, print: &[
    Kind::Rook,
    Kind::Bishop,
    Kind::Gold,
    Kind::Silver,
    Kind::Knight,
    Kind::Lance,
    Kind::Pawn,
]);

one_byte_piece! {
    /// A coloured piece, stored in one non-zero byte so `Option<Piece>` is one byte.
    pub struct Piece(Kind), stride: 16
}

drop_piece_from_inherent!(Piece, Kind);

const KNIGHT_LEAPS: [MoveAtom; 2] = [leap(2, 1), leap(2, -1)];

/// The rule record of a kind that promotes to `promoted`, goes to hand as itself and must
/// promote on its last `forced_ranks` ranks.
const fn promoting(
    name: &'static str,
    letter: char,
    atoms: &'static [MoveAtom],
    promoted: Kind,
    forced_ranks: u8,
) -> PieceRules {
    let base = Kind::ALL[promoted as usize - Kind::PROMOTION_OFFSET as usize];
    PieceRules::promoting_in_hand(name, letter, atoms, base.id(), promoted.id())
        .forced_on_last(forced_ranks)
}

/// The rule record of every kind, indexed by `Kind as usize` (RULES.md §1.2).
pub static PIECES: [PieceRules; 14] = [
    promoting("pawn", 'P', &[step(1, 0)], Kind::ProPawn, 1),
    promoting("lance", 'L', &[slide(1, 0)], Kind::ProLance, 1),
    promoting("knight", 'N', &KNIGHT_LEAPS, Kind::ProKnight, 2),
    promoting("silver", 'S', &SILVER, Kind::ProSilver, 0),
    promoting("bishop", 'B', &BISHOP, Kind::Horse, 0),
    promoting("rook", 'R', &ROOK, Kind::Dragon, 0),
    PieceRules::new("gold", 'G', &GOLD).held_as(Kind::Gold.id(), true),
    PieceRules::new("king", 'K', &KING).royal(),
    PieceRules::promoted_from("tokin", 'P', &GOLD, Kind::Pawn.id()),
    PieceRules::promoted_from("promoted lance", 'L', &GOLD, Kind::Lance.id()),
    PieceRules::promoted_from("promoted knight", 'N', &GOLD, Kind::Knight.id()),
    PieceRules::promoted_from("promoted silver", 'S', &GOLD, Kind::Silver.id()),
    PieceRules::promoted_from("horse", 'B', &HORSE, Kind::Bishop.id()),
    PieceRules::promoted_from("dragon", 'R', &DRAGON, Kind::Rook.id()),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_table_is_consistent() {
        for kind in Kind::ALL {
            assert_eq!(kind.rules().is_royal, kind == Kind::King);
        }
        for (slot, kind) in Kind::HAND.iter().enumerate() {
            assert_eq!(kind.index(), slot);
        }
        let droppable: Vec<Kind> = Kind::ALL
            .into_iter()
            .filter(|k| k.rules().droppable)
            .collect();
        assert_eq!(droppable, Kind::HAND.to_vec());
    }
}
