//! Chu Kagamigi (RULES.md §3): its 46 piece kinds as data built from the Betza strings of
//! §3.2 (with the §3.5 (a) correction), and the rule choices players could disagree on
//! ([`KagamigiRules`]).
//!
//! It is a member of the drop-shogi family (`rules::dropshogi`), whose position,
//! make/unmake, hash, notation, shared move generation and game end it uses. The submodules
//! own what is Chu Kagamigi's own: `tables` the attack geometry compiled from the atoms,
//! `position` the family member (`Kagamigi`: storage, tables, rule choices, attack detection
//! along lines and by leapers), `movegen` its checkers and pins (leapers too), `notation` the
//! reconstructed start position.

pub mod movegen;
pub mod notation;
pub mod position;
pub mod tables;

pub use position::{Kagamigi, Position};

use crate::rules::betza;
use crate::rules::dropshogi::{drop_kind_from_inherent, drop_piece_from_inherent};
use crate::rules::geometry::Board12x12;
use crate::rules::piece::{one_byte_piece, piece_kinds, MoveAtom, PieceRules};
use std::sync::OnceLock;

/// The board of Chu Kagamigi.
pub type Geo = Board12x12;

/// When a piece may promote (RULES.md §3.3, ambiguity #10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PromotionRule {
    /// As in shogi: a move that starts or ends in the zone may promote (the default).
    #[default]
    StartOrEnd,
    /// The source text read literally: only a move that ends in the zone.
    EndOnly,
}

/// The rule choices of a Chu Kagamigi game (RULES.md §3.3, ruling #10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KagamigiRules {
    pub promotion: PromotionRule,
}

piece_kinds! {
    /// The 46 piece kinds. The 24 kinds that can be held in hand come first (their index is
    /// the hand slot); the first 21 of them promote, to the kind [`Kind::PROMOTION_OFFSET`]
    /// further on. Then the King, then the promoted kinds.
    pub enum Kind {
        Pawn,
        Lance,
        Knight,
        Silver,
        Gold,
        FlyingHorse,
        Yaksha,
        Deva,
        DarkSpirit,
        Bishop,
        Rook,
        Phoenix,
        Kirin,
        BlueGecko,
        PurpleFinch,
        LeftGeneral,
        RightGeneral,
        LeftDog,
        RightDog,
        LeftQuail,
        RightQuail,
        LeftChariot,
        RightChariot,
        BurningChariot,
        King,
        Tokin,
        PloddingOx,
        HeavenlyFortress,
        SilverPashtun,
        GoldPashtun,
        MountainWitch,
        SideBoar,
        SideWolf,
        SideOx,
        DragonHorse,
        DragonKing,
        GreatDove,
        CenterStandard,
        DivineTurtle,
        DivineSparrow,
        LeftArmy,
        RightArmy,
        LeftDragon,
        RightDragon,
        LeftTiger,
        RightTiger,
    }
    promotion: below 21, offset 25;
    in_hand_except: King;
}

/// Name, SFEN letter and Betza string of each kind, in `Kind` order (RULES.md §3.2; the
/// Divine Sparrow is the Turtle's mirror, §3.5 (a)).
const DEFINITIONS: [(&str, char, &str); Kind::COUNT] = [
    ("pawn", 'P', "fW"),
    ("lance", 'L', "fR"),
    ("knight", 'N', "ffN"),
    ("silver", 'S', "FfW"),
    ("gold", 'G', "WfF"),
    ("flying horse", 'F', "WfF2"),
    ("yaksha", 'Y', "sW4 bW fF"),
    ("deva", 'E', "lWfFbrF"),
    ("dark spirit", 'I', "rWfFblF"),
    ("bishop", 'B', "B"),
    ("rook", 'R', "R"),
    ("phoenix", 'X', "WA"),
    ("kirin", 'O', "FD"),
    ("blue gecko", 'U', "frB4 lW2 bW2 flF brF fW"),
    ("purple finch", 'V', "flB4 rW2 bW2 frF blF fW"),
    ("left general", 'M', "FvrW"),
    ("right general", 'W', "FvlW"),
    ("left dog", 'H', "fRbrBbW"),
    ("right dog", 'J', "fRblBbW"),
    ("left quail", 'Q', "fRbrBblF"),
    ("right quail", 'T', "fRblBbrF"),
    ("left chariot", 'C', "fRflBbrBbW"),
    ("right chariot", 'D', "fRfrBblBbW"),
    ("burning chariot", 'A', "vRfBsW"),
    ("king", 'K', "K"),
    ("tokin", 'P', "WfF"),
    ("plodding ox", 'L', "vRF"),
    ("heavenly fortress", 'N', "BsR"),
    ("silver pashtun", 'S', "FfW A fD"),
    ("gold pashtun", 'G', "WfF D fA"),
    ("mountain witch", 'F', "BbRfW"),
    ("side boar", 'Y', "sRK"),
    ("side wolf", 'E', "sRflFbrF"),
    ("side ox", 'I', "sRfrFblF"),
    ("dragon horse", 'B', "BW"),
    ("dragon king", 'R', "RF"),
    ("great dove", 'X', "BW3"),
    ("center standard", 'O', "RF3"),
    ("divine turtle", 'U', "K frB brB blB"),
    ("divine sparrow", 'V', "K flB blB brB"),
    ("left army", 'M', "K rR frB brB"),
    ("right army", 'W', "K lR flB blB"),
    ("left dragon", 'H', "rR frB brB lW2"),
    ("right dragon", 'J', "lR flB blB rW2"),
    ("left tiger", 'Q', "rR frB brB lF"),
    ("right tiger", 'T', "lR flB blB rF"),
];

impl Kind {
    /// Kinds that can be held in hand (all but the King and the promoted kinds).
    pub const HAND_COUNT: usize = 24;

    /// How many pieces of each hand kind exist in a full set (both sides, RULES.md §3.4).
    pub const SET_COUNT: [u8; Kind::HAND_COUNT] = [
        24, 4, 4, 4, 4, 4, 4, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    ];

    /// The kinds that can be held in hand, in hand-slot order.
    pub fn hand_kinds() -> impl Iterator<Item = Kind> {
        Kind::ALL[..Kind::HAND_COUNT].iter().copied()
    }

    #[inline]
    pub fn rules(self) -> &'static PieceRules {
        &pieces()[self.index()]
    }

    /// The Betza string this kind's movement is built from.
    pub fn betza(self) -> &'static str {
        DEFINITIONS[self.index()].2
    }
}

drop_kind_from_inherent!(
    Kind,
    hand: Kind::ALL.split_at(Kind::HAND_COUNT).0,
    // From the last hand kind to the first (chariots first, pawns last).
    print: &{
        let mut order = [Kind::Pawn; Kind::HAND_COUNT];
        let mut i = 0;
        while i < Kind::HAND_COUNT {
            order[i] = Kind::ALL[Kind::HAND_COUNT - 1 - i];
            i += 1;
        }
        order
    }
);

/// Every kind's rule record, built once from [`DEFINITIONS`] by the Betza parser.
pub fn pieces() -> &'static [PieceRules; Kind::COUNT] {
    static PIECES: OnceLock<[PieceRules; Kind::COUNT]> = OnceLock::new();
    PIECES.get_or_init(|| {
        std::array::from_fn(|i| {
            let kind = Kind::ALL[i];
            let (name, letter, text) = DEFINITIONS[i];
            let atoms: &'static [MoveAtom] = betza::parse(text)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
                .leak();
            PieceRules {
                name,
                letter,
                atoms,
                promotes_to: kind.can_promote().then(|| kind.promoted().id()),
                demotes_to: kind.in_hand().map(Kind::id),
                is_promoted: kind.is_promoted(),
                is_royal: kind == Kind::King,
                droppable: kind.index() < Kind::HAND_COUNT,
                forced_promotion_ranks: match kind {
                    Kind::Pawn | Kind::Lance => 1,
                    Kind::Knight => 2,
                    _ => 0,
                },
            }
        })
    })
}

one_byte_piece! {
    /// A coloured piece in one non-zero byte (`1 + kind + 64 * colour`).
    pub struct Piece(Kind), stride: 64
}

drop_piece_from_inherent!(Piece, Kind);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_table_is_consistent() {
        for kind in Kind::ALL.iter() {
            let rules = kind.rules();
            assert!(!rules.atoms.is_empty(), "{kind:?}");
            assert_eq!(rules.is_royal, *kind == Kind::King);
            assert_eq!(rules.droppable, kind.in_hand() == Some(*kind));
        }
        // Every base kind has its own letter, Z is unused (RULES.md §3.2).
        let mut letters: Vec<char> = Kind::ALL[..25].iter().map(|k| k.rules().letter).collect();
        letters.sort();
        letters.dedup();
        assert_eq!(letters.len(), 25);
        assert!(!letters.contains(&'Z'));
        // 21 kinds promote; the King and the three chariots do not.
        assert_eq!(Kind::ALL.iter().filter(|k| k.can_promote()).count(), 21);
        for k in [
            Kind::King,
            Kind::LeftChariot,
            Kind::RightChariot,
            Kind::BurningChariot,
        ] {
            assert!(!k.can_promote());
        }
    }

    #[test]
    fn sparrow_mirrors_turtle_and_lefts_mirror_rights() {
        // A kind's atoms as (forward, left, steps), sorted; `left` times `side`.
        let atoms = |k: Kind, side: i8| {
            let mut v: Vec<(i8, i8, u8)> = k
                .rules()
                .atoms
                .iter()
                .map(|a| {
                    let (f, l) = a.relative();
                    (f, side * l, a.max_steps())
                })
                .collect();
            v.sort();
            v
        };
        for (left, right) in [
            (Kind::DivineTurtle, Kind::DivineSparrow),
            (Kind::BlueGecko, Kind::PurpleFinch),
            (Kind::Deva, Kind::DarkSpirit),
            (Kind::SideWolf, Kind::SideOx),
            (Kind::LeftChariot, Kind::RightChariot),
            (Kind::LeftGeneral, Kind::RightGeneral),
            (Kind::LeftArmy, Kind::RightArmy),
            (Kind::LeftDog, Kind::RightDog),
            (Kind::LeftDragon, Kind::RightDragon),
            (Kind::LeftQuail, Kind::RightQuail),
            (Kind::LeftTiger, Kind::RightTiger),
        ] {
            assert_eq!(atoms(left, -1), atoms(right, 1), "{left:?} / {right:?}");
        }
    }
}
