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

use crate::rules::geometry::Board12x12;
use crate::rules::moves::Move;
use crate::rules::piece::atoms::{
    joined, leap, slide, step, Reach, BISHOP, DIAGONAL, DRAGON, GOLD, HORSE, KING, ORTHOGONAL,
    ROOK, SILVER,
};
use crate::rules::piece::{one_byte_piece, piece_kinds, MoveAtom, PieceRules};

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

piece_kinds! {
    /// The 39 piece kinds: the 18 promotable kinds first, then King, Free King and Lion, then the
    /// promoted kinds (a promoted kind is its base kind plus [`Kind::PROMOTION_OFFSET`]). lishogi
    /// keeps promoted kinds apart from look-alikes (`+f` moves like a Bishop but is not one).
    pub enum Kind {
        Pawn,
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
    promotion: below 18, offset 21;
}

impl Kind {
    #[inline]
    pub fn rules(self) -> &'static PieceRules {
        &PIECES[self.index()]
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

one_byte_piece! {
    /// A coloured piece, stored in one non-zero byte so `Option<Piece>` is one byte.
    pub struct Piece(Kind), stride: 64
}

impl Piece {
    /// The piece this one leaves on the destination of its legal move `mv` (promoted if
    /// `mv` promotes).
    #[inline]
    pub fn landing(self, mv: Move) -> Piece {
        if mv.is_promotion() {
            Piece::new(self.color(), self.kind().promoted())
        } else {
            self
        }
    }
}

const FWD: MoveAtom = step(1, 0);
const BACK: MoveAtom = step(-1, 0);
const LEFT: MoveAtom = step(0, 1);
const RIGHT: MoveAtom = step(0, -1);
const FWD_L: MoveAtom = step(1, 1);
const FWD_R: MoveAtom = step(1, -1);
const BACK_L: MoveAtom = step(-1, 1);
const BACK_R: MoveAtom = step(-1, -1);

const ELEPHANT: [MoveAtom; 7] = [FWD, LEFT, RIGHT, FWD_L, FWD_R, BACK_L, BACK_R];
const COPPER: [MoveAtom; 4] = [FWD, BACK, FWD_L, FWD_R];
const LEOPARD: [MoveAtom; 6] = [FWD, BACK, FWD_L, FWD_R, BACK_L, BACK_R];
const TIGER: [MoveAtom; 7] = [BACK, LEFT, RIGHT, FWD_L, FWD_R, BACK_L, BACK_R];
const GO_BETWEEN: [MoveAtom; 2] = [FWD, BACK];
const PAWN: [MoveAtom; 1] = [FWD];
const VERTICALLY: [(i8, i8); 2] = [(1, 0), (-1, 0)];
const SIDEWAYS: [(i8, i8); 2] = [(0, 1), (0, -1)];
const LANCE: [MoveAtom; 1] = [slide(1, 0)];
const CHARIOT: [MoveAtom; 2] = Reach::Slide.each(VERTICALLY);
const SIDE_MOVER: [MoveAtom; 4] = joined(Reach::Slide.each(SIDEWAYS), [FWD, BACK]);
const VERTICAL_MOVER: [MoveAtom; 4] = joined(CHARIOT, [LEFT, RIGHT]);
const QUEEN: [MoveAtom; 8] = joined(ROOK, BISHOP);
const KIRIN: [MoveAtom; 8] = joined(
    Reach::Step.each(DIAGONAL),
    Reach::Leap.each([(2, 0), (-2, 0), (0, 2), (0, -2)]),
);
const PHOENIX: [MoveAtom; 8] = joined(
    Reach::Step.each(ORTHOGONAL),
    Reach::Leap.each([(2, 2), (2, -2), (-2, 2), (-2, -2)]),
);
/// The Lion's single-leg moves: the 8 adjacent squares and the 16 at distance 2.
const LION: [MoveAtom; 24] = joined(
    KING,
    Reach::Leap.each([
        (2, -2),
        (2, -1),
        (2, 0),
        (2, 1),
        (2, 2),
        (1, 2),
        (0, 2),
        (-1, 2),
        (-2, 2),
        (-2, 1),
        (-2, 0),
        (-2, -1),
        (-2, -2),
        (-1, -2),
        (0, -2),
        (1, -2),
    ]),
);
const STAG: [MoveAtom; 8] = joined(CHARIOT, [LEFT, RIGHT, FWD_L, FWD_R, BACK_L, BACK_R]);
const WHITE_HORSE: [MoveAtom; 4] = joined(CHARIOT, [BISHOP[0], BISHOP[1]]);
const WHALE: [MoveAtom; 4] = joined(CHARIOT, [BISHOP[2], BISHOP[3]]);
const BOAR: [MoveAtom; 6] = joined(Reach::Slide.each(SIDEWAYS), BISHOP);
const OX: [MoveAtom; 6] = joined(CHARIOT, BISHOP);
/// Single legs of the Horned Falcon; its forward double moves are code (`movegen`).
const FALCON: [MoveAtom; 9] = joined(
    Reach::Slide.each([(-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]),
    [FWD, leap(2, 0)],
);
/// Single legs of the Soaring Eagle; its forward-diagonal double moves are code.
const EAGLE: [MoveAtom; 10] = joined(
    Reach::Slide.each([(1, 0), (-1, 0), (0, 1), (0, -1), (-1, 1), (-1, -1)]),
    [FWD_L, FWD_R, leap(2, 2), leap(2, -2)],
);

/// The rule record of an unpromoted kind that promotes to `to`. Chu Shogi has no drops:
/// nothing is held in hand.
const fn base(
    name: &'static str,
    letter: char,
    atoms: &'static [MoveAtom],
    to: Kind,
) -> PieceRules {
    PieceRules::new(name, letter, atoms).promoting_to(to.id())
}

/// The rule record of a promoted kind.
const fn promoted(name: &'static str, letter: char, atoms: &'static [MoveAtom]) -> PieceRules {
    PieceRules::new(name, letter, atoms).promoted()
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
    PieceRules::new("king", 'K', &KING).royal(),
    PieceRules::new("free king", 'Q', &QUEEN),
    PieceRules::new("lion", 'N', &LION),
    promoted("tokin", 'P', &GOLD),
    promoted("promoted go-between", 'I', &ELEPHANT),
    promoted("promoted copper", 'C', &SIDE_MOVER),
    promoted("promoted silver", 'S', &VERTICAL_MOVER),
    promoted("promoted gold", 'G', &ROOK),
    promoted("promoted leopard", 'F', &BISHOP),
    promoted("flying stag", 'T', &STAG),
    promoted("crown prince", 'E', &KING).royal(),
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
        for kind in Kind::ALL {
            assert_eq!(kind.rules().is_royal, kind.is_royal(), "{kind:?}");
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
    fn rule_set_names_round_trip() {
        for rules in ChuRules::ALL {
            assert_eq!(ChuRules::from_name(rules.name()), Some(rules));
        }
        assert_eq!(ChuRules::default(), ChuRules::Lishogi);
        assert_eq!(ChuRules::from_name("chu.rul"), Some(ChuRules::Churul));
        assert_eq!(ChuRules::from_name("okazaki"), None);
    }
}
