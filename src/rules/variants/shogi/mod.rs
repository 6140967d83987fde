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
use crate::rules::geometry::{Board9x9, Color};
use crate::rules::piece::{KindId, MoveAtom, PieceRules};
use std::num::NonZeroU8;

/// The board of standard shogi.
pub type Geo = Board9x9;

/// The fourteen piece kinds. Hand-holdable kinds come first (their index is the hand slot);
/// a promoted kind is its base kind plus [`Kind::PROMOTION_OFFSET`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    Pawn = 0,
    Lance = 1,
    Knight = 2,
    Silver = 3,
    Bishop = 4,
    Rook = 5,
    Gold = 6,
    King = 7,
    ProPawn = 8,
    ProLance = 9,
    ProKnight = 10,
    ProSilver = 11,
    Horse = 12,
    Dragon = 13,
}

impl Kind {
    pub const COUNT: usize = 14;
    pub const PROMOTION_OFFSET: u8 = 8;
    pub const ALL: [Kind; 14] = [
        Kind::Pawn,
        Kind::Lance,
        Kind::Knight,
        Kind::Silver,
        Kind::Bishop,
        Kind::Rook,
        Kind::Gold,
        Kind::King,
        Kind::ProPawn,
        Kind::ProLance,
        Kind::ProKnight,
        Kind::ProSilver,
        Kind::Horse,
        Kind::Dragon,
    ];
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
    pub fn from_index(index: u8) -> Option<Kind> {
        Kind::ALL.get(index as usize).copied()
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn id(self) -> KindId {
        KindId(self as u8)
    }

    #[inline]
    pub fn rules(self) -> &'static PieceRules {
        &PIECES[self.index()]
    }

    #[inline]
    pub fn can_promote(self) -> bool {
        (self as u8) < Kind::Gold as u8
    }

    /// The promoted form; only meaningful when [`Kind::can_promote`].
    #[inline]
    pub fn promoted(self) -> Kind {
        debug_assert!(self.can_promote());
        Kind::ALL[self.index() + Kind::PROMOTION_OFFSET as usize]
    }

    /// The kind a captured piece of this kind becomes in hand (`None` for the king).
    #[inline]
    pub fn in_hand(self) -> Option<Kind> {
        match self {
            Kind::King => None,
            k if (k as u8) >= Kind::PROMOTION_OFFSET => {
                Some(Kind::ALL[k.index() - Kind::PROMOTION_OFFSET as usize])
            }
            k => Some(k),
        }
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

/// A coloured piece, stored in one non-zero byte so `Option<Piece>` is one byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(NonZeroU8);

impl Piece {
    #[inline]
    pub fn new(color: Color, kind: Kind) -> Piece {
        Piece(NonZeroU8::new(1 + kind as u8 + 16 * color as u8).expect("never zero"))
    }

    #[inline]
    pub fn kind(self) -> Kind {
        KIND_OF_BYTE[(self.0.get() & 31) as usize]
    }

    #[inline]
    pub fn color(self) -> Color {
        if self.0.get() > 16 {
            Color::Gote
        } else {
            Color::Sente
        }
    }

    /// A dense index 0..28 for tables indexed by coloured piece.
    #[inline]
    pub fn index(self) -> usize {
        self.color().index() * Kind::COUNT + self.kind().index()
    }
}

/// The kind encoded by each possible `Piece` byte (`1 + kind + 16 * color`), so that
/// decoding is one table load with no bounds check.
const KIND_OF_BYTE: [Kind; 32] = {
    let mut table = [Kind::Pawn; 32];
    let mut i = 0;
    while i < Kind::COUNT {
        table[1 + i] = Kind::ALL[i];
        table[17 + i] = Kind::ALL[i];
        i += 1;
    }
    table
};

drop_piece_from_inherent!(Piece, Kind);

impl std::fmt::Debug for Piece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} {:?}", self.color(), self.kind())
    }
}

const fn step(forward: i8, left: i8) -> MoveAtom {
    MoveAtom::Step { forward, left }
}
const fn slide(forward: i8, left: i8) -> MoveAtom {
    MoveAtom::Slide { forward, left }
}

const KING_STEPS: [MoveAtom; 8] = [
    step(1, 0),
    step(-1, 0),
    step(0, 1),
    step(0, -1),
    step(1, 1),
    step(1, -1),
    step(-1, 1),
    step(-1, -1),
];
const GOLD_STEPS: [MoveAtom; 6] = [
    step(1, 0),
    step(-1, 0),
    step(0, 1),
    step(0, -1),
    step(1, 1),
    step(1, -1),
];
const SILVER_STEPS: [MoveAtom; 5] = [
    step(1, 0),
    step(1, 1),
    step(1, -1),
    step(-1, 1),
    step(-1, -1),
];
const KNIGHT_LEAPS: [MoveAtom; 2] = [
    MoveAtom::Leap {
        forward: 2,
        left: 1,
    },
    MoveAtom::Leap {
        forward: 2,
        left: -1,
    },
];
const BISHOP_SLIDES: [MoveAtom; 4] = [slide(1, 1), slide(1, -1), slide(-1, 1), slide(-1, -1)];
const ROOK_SLIDES: [MoveAtom; 4] = [slide(1, 0), slide(-1, 0), slide(0, 1), slide(0, -1)];
const HORSE: [MoveAtom; 8] = [
    slide(1, 1),
    slide(1, -1),
    slide(-1, 1),
    slide(-1, -1),
    step(1, 0),
    step(-1, 0),
    step(0, 1),
    step(0, -1),
];
const DRAGON: [MoveAtom; 8] = [
    slide(1, 0),
    slide(-1, 0),
    slide(0, 1),
    slide(0, -1),
    step(1, 1),
    step(1, -1),
    step(-1, 1),
    step(-1, -1),
];

const fn piece(
    name: &'static str,
    letter: char,
    atoms: &'static [MoveAtom],
    promotes_to: Option<Kind>,
    demotes_to: Option<Kind>,
    forced_promotion_ranks: u8,
) -> PieceRules {
    PieceRules {
        name,
        letter,
        atoms,
        promotes_to: match promotes_to {
            Some(k) => Some(KindId(k as u8)),
            None => None,
        },
        demotes_to: match demotes_to {
            Some(k) => Some(KindId(k as u8)),
            None => None,
        },
        is_promoted: match (promotes_to, demotes_to) {
            (None, Some(d)) => !matches!(d, Kind::Gold),
            _ => false,
        },
        is_royal: matches!(letter, 'K'),
        droppable: promotes_to.is_some() || matches!(letter, 'G'),
        forced_promotion_ranks,
    }
}

/// The rule record of every kind, indexed by `Kind as usize` (RULES.md §1.2).
pub static PIECES: [PieceRules; 14] = [
    piece(
        "pawn",
        'P',
        &[step(1, 0)],
        Some(Kind::ProPawn),
        Some(Kind::Pawn),
        1,
    ),
    piece(
        "lance",
        'L',
        &[slide(1, 0)],
        Some(Kind::ProLance),
        Some(Kind::Lance),
        1,
    ),
    piece(
        "knight",
        'N',
        &KNIGHT_LEAPS,
        Some(Kind::ProKnight),
        Some(Kind::Knight),
        2,
    ),
    piece(
        "silver",
        'S',
        &SILVER_STEPS,
        Some(Kind::ProSilver),
        Some(Kind::Silver),
        0,
    ),
    piece(
        "bishop",
        'B',
        &BISHOP_SLIDES,
        Some(Kind::Horse),
        Some(Kind::Bishop),
        0,
    ),
    piece(
        "rook",
        'R',
        &ROOK_SLIDES,
        Some(Kind::Dragon),
        Some(Kind::Rook),
        0,
    ),
    piece("gold", 'G', &GOLD_STEPS, None, Some(Kind::Gold), 0),
    piece("king", 'K', &KING_STEPS, None, None, 0),
    piece("tokin", 'P', &GOLD_STEPS, None, Some(Kind::Pawn), 0),
    piece(
        "promoted lance",
        'L',
        &GOLD_STEPS,
        None,
        Some(Kind::Lance),
        0,
    ),
    piece(
        "promoted knight",
        'N',
        &GOLD_STEPS,
        None,
        Some(Kind::Knight),
        0,
    ),
    piece(
        "promoted silver",
        'S',
        &GOLD_STEPS,
        None,
        Some(Kind::Silver),
        0,
    ),
    piece("horse", 'B', &HORSE, None, Some(Kind::Bishop), 0),
    piece("dragon", 'R', &DRAGON, None, Some(Kind::Rook), 0),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_table_is_consistent() {
        for kind in Kind::ALL {
            let rules = kind.rules();
            assert_eq!(rules.promotes_to.is_some(), kind.can_promote(), "{kind:?}");
            if kind.can_promote() {
                assert_eq!(rules.promotes_to, Some(kind.promoted().id()));
                assert_eq!(kind.promoted().in_hand(), Some(kind));
                assert!(kind.promoted().rules().is_promoted);
            }
            assert_eq!(rules.demotes_to, kind.in_hand().map(Kind::id));
            assert_eq!(rules.is_royal, kind == Kind::King);
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

    #[test]
    fn pieces_pack_into_one_byte() {
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
        for color in Color::BOTH {
            for kind in Kind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!((p.color(), p.kind()), (color, kind));
            }
        }
    }
}
