//! Chu Shogi (RULES.md §2): its 39 piece kinds as data, the coloured piece, and the choice of
//! rule set where the sources disagree ([`ChuRules`]).
//!
//! Every piece's single-leg movement is a [`PieceRules`] record of [`MoveAtom`]s, compiled into
//! attack tables by `tables`. The Lion family's double moves (Lion and promoted Kirin in every
//! direction, Horned Falcon forward, Soaring Eagle on its forward diagonals) and the Lion
//! capture rules are code in `movegen`, because no atom expresses them. The submodules own one
//! question each: `tables` the precomputed geometry and keys, `position` the state with
//! make/unmake and the hash, `movegen` legal moves under each rule set, `notation` SFEN and
//! USI move text, `game` the `Game` trait and the game end (royal capture, bare king,
//! repetition).

mod game;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod tables;

pub use position::Position;

use crate::rules::geometry::{Board12x12, Color};
use crate::rules::piece::{KindId, MoveAtom, PieceRules};
use std::num::NonZeroU8;

/// The board of Chu Shogi.
pub type Geo = Board12x12;

/// Which reading of the disputed rules a position follows (RULES.md §6 rows 2–7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ChuRules {
    /// lishogi / shogiops (the default): lion-trading as JCSA rules 1–4, unconditional
    /// counter-strike on non-Lion capturers with the same-square promoted-Kirin exception,
    /// stateless promotion (Pawn and Lance may promote on reaching the last rank), lishogi's
    /// bare king, repetition R1.
    #[default]
    Lishogi,
    /// The CHU.RUL text (ShogiVar): lion-trading as JCSA rules 1–4 (+Kirin is a Lion, a doomed
    /// Pawn or Go-Between still defends), unconditional counter-strike on non-Lion capturers
    /// without exceptions, promotion on any move touching the zone with one-turn deferral
    /// after declining on entry, Pawn and Lance forced to promote on the last rank, CHU.RUL's
    /// bare king; repetition R1 (the text is silent).
    Churul,
    /// The JCSA rules: lion-trading rules 1–4, Okazaki counter-strike (the remaining Lion may
    /// not be taken by any piece if protected, bridge captures excepted), stateless promotion
    /// (only a Pawn may promote on reaching the last rank without capturing), JCSA bare king,
    /// repetition R0 (the starter of a repetition loses on the 4th occurrence).
    Jcsa,
}

impl ChuRules {
    pub const ALL: [ChuRules; 3] = [ChuRules::Lishogi, ChuRules::Churul, ChuRules::Jcsa];

    /// The option value naming this rule set (`lishogi`, `churul`, `jcsa`).
    pub fn name(self) -> &'static str {
        match self {
            ChuRules::Lishogi => "lishogi",
            ChuRules::Churul => "churul",
            ChuRules::Jcsa => "jcsa",
        }
    }

    /// Reads an option value; `chu.rul` is accepted for `churul`.
    pub fn from_name(name: &str) -> Option<ChuRules> {
        match name.to_ascii_lowercase().as_str() {
            "lishogi" => Some(ChuRules::Lishogi),
            "churul" | "chu.rul" => Some(ChuRules::Churul),
            "jcsa" => Some(ChuRules::Jcsa),
            _ => None,
        }
    }
}

/// The 39 piece kinds: the 18 promotable kinds first, then King, Free King and Lion, then the
/// promoted kinds (a promoted kind is its base kind plus [`Kind::PROMOTION_OFFSET`]). lishogi
/// keeps promoted kinds apart from look-alikes (`+f` moves like a Bishop but is not one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    Pawn = 0,
    GoBetween,
    Copper,
    Silver,
    Gold,
    Leopard,
    BlindTiger,
    DrunkElephant,
    Lance,
    ReverseChariot,
    SideMover,
    VerticalMover,
    Bishop,
    Rook,
    DragonHorse,
    DragonKing,
    Kirin,
    Phoenix,
    King,
    FreeKing,
    Lion,
    Tokin,
    PromotedGoBetween,
    PromotedCopper,
    PromotedSilver,
    PromotedGold,
    PromotedLeopard,
    FlyingStag,
    CrownPrince,
    WhiteHorse,
    Whale,
    FreeBoar,
    FlyingOx,
    PromotedBishop,
    PromotedRook,
    HornedFalcon,
    SoaringEagle,
    PromotedKirin,
    PromotedPhoenix,
}

impl Kind {
    pub const COUNT: usize = 39;
    pub const PROMOTION_OFFSET: u8 = 21;
    const PROMOTABLE: u8 = 18;
    pub const ALL: [Kind; 39] = [
        Kind::Pawn,
        Kind::GoBetween,
        Kind::Copper,
        Kind::Silver,
        Kind::Gold,
        Kind::Leopard,
        Kind::BlindTiger,
        Kind::DrunkElephant,
        Kind::Lance,
        Kind::ReverseChariot,
        Kind::SideMover,
        Kind::VerticalMover,
        Kind::Bishop,
        Kind::Rook,
        Kind::DragonHorse,
        Kind::DragonKing,
        Kind::Kirin,
        Kind::Phoenix,
        Kind::King,
        Kind::FreeKing,
        Kind::Lion,
        Kind::Tokin,
        Kind::PromotedGoBetween,
        Kind::PromotedCopper,
        Kind::PromotedSilver,
        Kind::PromotedGold,
        Kind::PromotedLeopard,
        Kind::FlyingStag,
        Kind::CrownPrince,
        Kind::WhiteHorse,
        Kind::Whale,
        Kind::FreeBoar,
        Kind::FlyingOx,
        Kind::PromotedBishop,
        Kind::PromotedRook,
        Kind::HornedFalcon,
        Kind::SoaringEagle,
        Kind::PromotedKirin,
        Kind::PromotedPhoenix,
    ];

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
        (self as u8) < Kind::PROMOTABLE
    }

    /// The promoted form; only meaningful when [`Kind::can_promote`].
    #[inline]
    pub fn promoted(self) -> Kind {
        debug_assert!(self.can_promote());
        Kind::ALL[self.index() + Kind::PROMOTION_OFFSET as usize]
    }

    /// The King and the Crown Prince.
    #[inline]
    pub fn is_royal(self) -> bool {
        matches!(self, Kind::King | Kind::CrownPrince)
    }

    /// A Lion for every Lion rule: the Lion and the promoted Kirin (RULES.md §2.5).
    #[inline]
    pub fn is_lion(self) -> bool {
        matches!(self, Kind::Lion | Kind::PromotedKirin)
    }

    /// Has lion power in some direction (double moves, igui, jitto).
    #[inline]
    pub fn has_lion_power(self) -> bool {
        matches!(
            self,
            Kind::Lion | Kind::PromotedKirin | Kind::HornedFalcon | Kind::SoaringEagle
        )
    }

    /// Anything but an unpromoted Pawn or Go-Between: capturing it first makes a bridge
    /// capture of a protected Lion legal (RULES.md §2.5).
    #[inline]
    pub fn is_valuable(self) -> bool {
        !matches!(self, Kind::Pawn | Kind::GoBetween)
    }
}

/// A coloured piece, stored in one non-zero byte so `Option<Piece>` is one byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(NonZeroU8);

impl Piece {
    #[inline]
    pub fn new(color: Color, kind: Kind) -> Piece {
        Piece(NonZeroU8::new(1 + kind as u8 + 64 * color as u8).expect("never zero"))
    }

    #[inline]
    pub fn kind(self) -> Kind {
        Kind::ALL[((self.0.get() - 1) & 63) as usize]
    }

    #[inline]
    pub fn color(self) -> Color {
        if self.0.get() > 64 {
            Color::Gote
        } else {
            Color::Sente
        }
    }

    /// A dense index 0..78 for tables indexed by coloured piece.
    #[inline]
    pub fn index(self) -> usize {
        self.color().index() * Kind::COUNT + self.kind().index()
    }
}

impl std::fmt::Debug for Piece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} {:?}", self.color(), self.kind())
    }
}

const fn step(forward: i8, left: i8) -> MoveAtom {
    MoveAtom::Step { forward, left }
}
const fn leap(forward: i8, left: i8) -> MoveAtom {
    MoveAtom::Leap { forward, left }
}
const fn slide(forward: i8, left: i8) -> MoveAtom {
    MoveAtom::Slide { forward, left }
}

const FWD: MoveAtom = step(1, 0);
const BACK: MoveAtom = step(-1, 0);
const LEFT: MoveAtom = step(0, 1);
const RIGHT: MoveAtom = step(0, -1);
const FWD_L: MoveAtom = step(1, 1);
const FWD_R: MoveAtom = step(1, -1);
const BACK_L: MoveAtom = step(-1, 1);
const BACK_R: MoveAtom = step(-1, -1);

const KING: [MoveAtom; 8] = [FWD, BACK, LEFT, RIGHT, FWD_L, FWD_R, BACK_L, BACK_R];
const ELEPHANT: [MoveAtom; 7] = [FWD, LEFT, RIGHT, FWD_L, FWD_R, BACK_L, BACK_R];
const GOLD: [MoveAtom; 6] = [FWD, BACK, LEFT, RIGHT, FWD_L, FWD_R];
const SILVER: [MoveAtom; 5] = [FWD, FWD_L, FWD_R, BACK_L, BACK_R];
const COPPER: [MoveAtom; 4] = [FWD, BACK, FWD_L, FWD_R];
const LEOPARD: [MoveAtom; 6] = [FWD, BACK, FWD_L, FWD_R, BACK_L, BACK_R];
const TIGER: [MoveAtom; 7] = [BACK, LEFT, RIGHT, FWD_L, FWD_R, BACK_L, BACK_R];
const GO_BETWEEN: [MoveAtom; 2] = [FWD, BACK];
const PAWN: [MoveAtom; 1] = [FWD];
const LANCE: [MoveAtom; 1] = [slide(1, 0)];
const CHARIOT: [MoveAtom; 2] = [slide(1, 0), slide(-1, 0)];
const SIDE_MOVER: [MoveAtom; 4] = [slide(0, 1), slide(0, -1), FWD, BACK];
const VERTICAL_MOVER: [MoveAtom; 4] = [slide(1, 0), slide(-1, 0), LEFT, RIGHT];
const BISHOP: [MoveAtom; 4] = [slide(1, 1), slide(1, -1), slide(-1, 1), slide(-1, -1)];
const ROOK: [MoveAtom; 4] = [slide(1, 0), slide(-1, 0), slide(0, 1), slide(0, -1)];
const QUEEN: [MoveAtom; 8] = [
    slide(1, 0),
    slide(-1, 0),
    slide(0, 1),
    slide(0, -1),
    slide(1, 1),
    slide(1, -1),
    slide(-1, 1),
    slide(-1, -1),
];
const HORSE: [MoveAtom; 8] = [
    slide(1, 1),
    slide(1, -1),
    slide(-1, 1),
    slide(-1, -1),
    FWD,
    BACK,
    LEFT,
    RIGHT,
];
const DRAGON: [MoveAtom; 8] = [
    slide(1, 0),
    slide(-1, 0),
    slide(0, 1),
    slide(0, -1),
    FWD_L,
    FWD_R,
    BACK_L,
    BACK_R,
];
const KIRIN: [MoveAtom; 8] = [
    FWD_L,
    FWD_R,
    BACK_L,
    BACK_R,
    leap(2, 0),
    leap(-2, 0),
    leap(0, 2),
    leap(0, -2),
];
const PHOENIX: [MoveAtom; 8] = [
    FWD,
    BACK,
    LEFT,
    RIGHT,
    leap(2, 2),
    leap(2, -2),
    leap(-2, 2),
    leap(-2, -2),
];
/// The Lion's single-leg moves: the 8 adjacent squares and the 16 at distance 2.
const LION: [MoveAtom; 24] = [
    FWD,
    BACK,
    LEFT,
    RIGHT,
    FWD_L,
    FWD_R,
    BACK_L,
    BACK_R,
    leap(2, -2),
    leap(2, -1),
    leap(2, 0),
    leap(2, 1),
    leap(2, 2),
    leap(1, 2),
    leap(0, 2),
    leap(-1, 2),
    leap(-2, 2),
    leap(-2, 1),
    leap(-2, 0),
    leap(-2, -1),
    leap(-2, -2),
    leap(-1, -2),
    leap(0, -2),
    leap(1, -2),
];
const STAG: [MoveAtom; 8] = [
    slide(1, 0),
    slide(-1, 0),
    LEFT,
    RIGHT,
    FWD_L,
    FWD_R,
    BACK_L,
    BACK_R,
];
const WHITE_HORSE: [MoveAtom; 4] = [slide(1, 0), slide(-1, 0), slide(1, 1), slide(1, -1)];
const WHALE: [MoveAtom; 4] = [slide(1, 0), slide(-1, 0), slide(-1, 1), slide(-1, -1)];
const BOAR: [MoveAtom; 6] = [
    slide(0, 1),
    slide(0, -1),
    slide(1, 1),
    slide(1, -1),
    slide(-1, 1),
    slide(-1, -1),
];
const OX: [MoveAtom; 6] = [
    slide(1, 0),
    slide(-1, 0),
    slide(1, 1),
    slide(1, -1),
    slide(-1, 1),
    slide(-1, -1),
];
/// Single legs of the Horned Falcon; its forward double moves are code (`movegen`).
const FALCON: [MoveAtom; 9] = [
    slide(-1, 0),
    slide(0, 1),
    slide(0, -1),
    slide(1, 1),
    slide(1, -1),
    slide(-1, 1),
    slide(-1, -1),
    FWD,
    leap(2, 0),
];
/// Single legs of the Soaring Eagle; its forward-diagonal double moves are code.
const EAGLE: [MoveAtom; 10] = [
    slide(1, 0),
    slide(-1, 0),
    slide(0, 1),
    slide(0, -1),
    slide(-1, 1),
    slide(-1, -1),
    FWD_L,
    FWD_R,
    leap(2, 2),
    leap(2, -2),
];

const fn piece(
    name: &'static str,
    letter: char,
    atoms: &'static [MoveAtom],
    promotes_to: Option<Kind>,
    is_promoted: bool,
    is_royal: bool,
) -> PieceRules {
    PieceRules {
        name,
        letter,
        atoms,
        promotes_to: match promotes_to {
            Some(k) => Some(KindId(k as u8)),
            None => None,
        },
        demotes_to: None,
        is_promoted,
        is_royal,
        // Chu Shogi has no drops.
        droppable: false,
        forced_promotion_ranks: 0,
    }
}

const fn base(
    name: &'static str,
    letter: char,
    atoms: &'static [MoveAtom],
    to: Kind,
) -> PieceRules {
    piece(name, letter, atoms, Some(to), false, false)
}

const fn promoted(name: &'static str, letter: char, atoms: &'static [MoveAtom]) -> PieceRules {
    piece(name, letter, atoms, None, true, false)
}

/// The rule record of every kind, indexed by `Kind as usize` (RULES.md §2.2). Promotion
/// is never forced by the data; the CHU.RUL rule set forces it in code.
pub static PIECES: [PieceRules; 39] = [
    base("pawn", 'P', &PAWN, Kind::Tokin),
    base("go-between", 'I', &GO_BETWEEN, Kind::PromotedGoBetween),
    base("copper", 'C', &COPPER, Kind::PromotedCopper),
    base("silver", 'S', &SILVER, Kind::PromotedSilver),
    base("gold", 'G', &GOLD, Kind::PromotedGold),
    base("ferocious leopard", 'F', &LEOPARD, Kind::PromotedLeopard),
    base("blind tiger", 'T', &TIGER, Kind::FlyingStag),
    base("drunk elephant", 'E', &ELEPHANT, Kind::CrownPrince),
    base("lance", 'L', &LANCE, Kind::WhiteHorse),
    base("reverse chariot", 'A', &CHARIOT, Kind::Whale),
    base("side mover", 'M', &SIDE_MOVER, Kind::FreeBoar),
    base("vertical mover", 'V', &VERTICAL_MOVER, Kind::FlyingOx),
    base("bishop", 'B', &BISHOP, Kind::PromotedBishop),
    base("rook", 'R', &ROOK, Kind::PromotedRook),
    base("dragon horse", 'H', &HORSE, Kind::HornedFalcon),
    base("dragon king", 'D', &DRAGON, Kind::SoaringEagle),
    base("kirin", 'O', &KIRIN, Kind::PromotedKirin),
    base("phoenix", 'X', &PHOENIX, Kind::PromotedPhoenix),
    piece("king", 'K', &KING, None, false, true),
    piece("free king", 'Q', &QUEEN, None, false, false),
    piece("lion", 'N', &LION, None, false, false),
    promoted("tokin", 'P', &GOLD),
    promoted("promoted go-between", 'I', &ELEPHANT),
    promoted("promoted copper", 'C', &SIDE_MOVER),
    promoted("promoted silver", 'S', &VERTICAL_MOVER),
    promoted("promoted gold", 'G', &ROOK),
    promoted("promoted leopard", 'F', &BISHOP),
    promoted("flying stag", 'T', &STAG),
    piece("crown prince", 'E', &KING, None, true, true),
    promoted("white horse", 'L', &WHITE_HORSE),
    promoted("whale", 'A', &WHALE),
    promoted("free boar", 'M', &BOAR),
    promoted("flying ox", 'V', &OX),
    promoted("promoted bishop", 'B', &HORSE),
    promoted("promoted rook", 'R', &DRAGON),
    promoted("horned falcon", 'H', &FALCON),
    promoted("soaring eagle", 'D', &EAGLE),
    promoted("promoted kirin", 'O', &LION),
    promoted("promoted phoenix", 'X', &QUEEN),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_table_is_consistent() {
        assert_eq!(Kind::ALL.len(), Kind::COUNT);
        for (i, kind) in Kind::ALL.iter().enumerate() {
            assert_eq!(kind.index(), i);
            let rules = kind.rules();
            assert_eq!(rules.promotes_to.is_some(), kind.can_promote(), "{kind:?}");
            if kind.can_promote() {
                let up = kind.promoted();
                assert_eq!(rules.promotes_to, Some(up.id()));
                assert!(up.rules().is_promoted && !up.can_promote());
                assert_eq!(up.rules().letter, rules.letter);
            }
            assert_eq!(rules.is_royal, kind.is_royal(), "{kind:?}");
        }
        // 21 unpromoted letters, all distinct.
        let mut letters: Vec<char> = PIECES
            .iter()
            .filter(|r| !r.is_promoted)
            .map(|r| r.letter)
            .collect();
        letters.sort_unstable();
        letters.dedup();
        assert_eq!(letters.len(), 21);
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

    #[test]
    fn rule_set_names_round_trip() {
        for rules in ChuRules::ALL {
            assert_eq!(ChuRules::from_name(rules.name()), Some(rules));
        }
        assert_eq!(ChuRules::default(), ChuRules::Lishogi);
        assert_eq!(ChuRules::from_name("chu.rul"), Some(ChuRules::Churul));
        assert_eq!(ChuRules::from_name("okazaki"), None);
    }
}
