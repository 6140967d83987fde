//! Squares, files, ranks and directions for every board size the engine plays on.
//!
//! A board's size is a type (`Board9x9`, `Board12x12`) implementing [`Geometry`], so code that
//! is generic over the geometry is compiled once per size and the 9×9 hot loop never pays for
//! the 12×12 board. Squares are numbered file-major (`index = file * RANKS + rank`), with file 0
//! being USI file 1 (sente's right) and rank 0 being rank `a` (gote's back rank): a vertical
//! line is a contiguous run of bits, which keeps lance and rook rays cheap.

use crate::rules::bitboard::{Bb128, Bb192, Bitboard};
use std::fmt;

/// The two players. Sente moves first and sits at the bottom (ranks towards `i`/`l`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Sente = 0,
    Gote = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Sente, Color::Gote];

    #[inline]
    pub fn flip(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// `sente` or `gote`, as messages name the players.
    pub fn name(self) -> &'static str {
        match self {
            Color::Sente => "sente",
            Color::Gote => "gote",
        }
    }

    /// The SFEN side-to-move letter.
    pub fn sfen_char(self) -> char {
        match self {
            Color::Sente => 'b',
            Color::Gote => 'w',
        }
    }
}

/// A board size: its dimensions and the bitboard type wide enough to hold it.
pub trait Geometry: Copy + Clone + fmt::Debug + Send + Sync + 'static {
    const FILES: u8;
    const RANKS: u8;
    const SQUARES: usize = Self::FILES as usize * Self::RANKS as usize;
    /// Ranks counted from each side's far edge that form its promotion zone.
    const ZONE_DEPTH: u8;
    type Bb: Bitboard;
}

/// Declares a square board type: its side, promotion-zone depth and bitboard type.
macro_rules! square_board {
    ($(#[$doc:meta])* $name:ident, side $side:literal, zone $zone:literal, $bb:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $name;

        impl Geometry for $name {
            const FILES: u8 = $side;
            const RANKS: u8 = $side;
            const ZONE_DEPTH: u8 = $zone;
            type Bb = $bb;
        }
    };
}

square_board!(
    /// The 9×9 board of standard shogi, Shogammon and the Central Madness.
    Board9x9, side 9, zone 3, Bb128
);
square_board!(
    /// The 12×12 board of Chu Shogi and Chu Kagamigi.
    Board12x12, side 12, zone 4, Bb192
);

/// A file, 0-based: `File(0)` is USI file 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(pub u8);

/// A rank, 0-based: `Rank(0)` is USI rank `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(pub u8);

impl Rank {
    /// How many ranks this rank is from `color`'s far edge (0 = the last rank for that side).
    #[inline]
    pub fn distance_from_far_edge<G: Geometry>(self, color: Color) -> u8 {
        match color {
            Color::Sente => self.0,
            Color::Gote => G::RANKS - 1 - self.0,
        }
    }
}

/// A square index on a board of geometry `G` (file-major, see the module header).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    #[inline]
    pub fn new<G: Geometry>(file: File, rank: Rank) -> Square {
        debug_assert!(file.0 < G::FILES && rank.0 < G::RANKS);
        Square(file.0 * G::RANKS + rank.0)
    }

    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub fn file<G: Geometry>(self) -> File {
        File(self.0 / G::RANKS)
    }

    #[inline]
    pub fn rank<G: Geometry>(self) -> Rank {
        Rank(self.0 % G::RANKS)
    }

    /// The square displaced by a board-absolute offset, if it is on the board.
    #[inline]
    pub fn offset<G: Geometry>(self, delta: Offset) -> Option<Square> {
        let file = self.file::<G>().0 as i8 + delta.files;
        let rank = self.rank::<G>().0 as i8 + delta.ranks;
        if (0..G::FILES as i8).contains(&file) && (0..G::RANKS as i8).contains(&rank) {
            Some(Square::new::<G>(File(file as u8), Rank(rank as u8)))
        } else {
            None
        }
    }

    /// All squares of the board, in index order.
    pub fn all<G: Geometry>() -> impl Iterator<Item = Square> {
        (0..G::SQUARES as u8).map(Square)
    }

    /// The USI spelling: decimal file then rank letter (`7g`, `12a`).
    pub fn to_usi<G: Geometry>(self) -> String {
        let file = self.file::<G>().0 + 1;
        let rank = (b'a' + self.rank::<G>().0) as char;
        format!("{file}{rank}")
    }

    /// Parses the USI spelling; `None` if malformed or off the board.
    pub fn from_usi<G: Geometry>(text: &str) -> Option<Square> {
        let split = text.find(|c: char| !c.is_ascii_digit())?;
        let (digits, letter) = text.split_at(split);
        if digits.is_empty() || letter.len() != 1 || digits.starts_with('0') {
            return None;
        }
        let file: u8 = digits.parse().ok()?;
        let rank = letter.as_bytes()[0].checked_sub(b'a')?;
        if file == 0 || file > G::FILES || rank >= G::RANKS {
            return None;
        }
        Some(Square::new::<G>(File(file - 1), Rank(rank)))
    }
}

/// A board-absolute displacement: `files` +1 is towards higher USI file numbers (sente's
/// left), `ranks` +1 is towards the bottom (sente's side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Offset {
    pub files: i8,
    pub ranks: i8,
}

impl Offset {
    pub const fn new(files: i8, ranks: i8) -> Offset {
        Offset { files, ranks }
    }

    /// Turns an owner-relative displacement (`ranks` +1 = forward, `files` +1 = owner's left)
    /// into a board-absolute one.
    #[inline]
    pub const fn for_owner(forward: i8, left: i8, owner: Color) -> Offset {
        match owner {
            Color::Sente => Offset::new(left, -forward),
            Color::Gote => Offset::new(-left, forward),
        }
    }

    /// The change of square index this displacement causes (valid when it stays on board).
    #[inline]
    pub fn index_delta<G: Geometry>(self) -> i16 {
        self.files as i16 * G::RANKS as i16 + self.ranks as i16
    }
}

/// The eight board-absolute unit directions, in a fixed order used to index ray tables.
/// Opposite directions are neighbours: the opposite of index `d` is `d ^ 1`.
pub const DIRECTIONS: [Offset; 8] = [
    Offset::new(0, -1),
    Offset::new(0, 1),
    Offset::new(1, 0),
    Offset::new(-1, 0),
    Offset::new(1, -1),
    Offset::new(-1, 1),
    Offset::new(1, 1),
    Offset::new(-1, -1),
];

/// Index of a unit direction in [`DIRECTIONS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DirectionIndex(pub u8);

impl DirectionIndex {
    pub fn of(offset: Offset) -> Option<DirectionIndex> {
        DIRECTIONS
            .iter()
            .position(|d| *d == offset)
            .map(|i| DirectionIndex(i as u8))
    }

    #[inline]
    pub fn offset(self) -> Offset {
        DIRECTIONS[self.0 as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_squares_round_trip_on_both_boards() {
        for sq in Square::all::<Board9x9>() {
            assert_eq!(
                Square::from_usi::<Board9x9>(&sq.to_usi::<Board9x9>()),
                Some(sq)
            );
        }
        for sq in Square::all::<Board12x12>() {
            assert_eq!(
                Square::from_usi::<Board12x12>(&sq.to_usi::<Board12x12>()),
                Some(sq)
            );
        }
        assert_eq!(Square::from_usi::<Board9x9>("10a"), None);
        assert_eq!(Square::from_usi::<Board9x9>("5j"), None);
        assert_eq!(Square::from_usi::<Board9x9>("0a"), None);
        assert_eq!(
            Square::from_usi::<Board12x12>("12l").map(|s| s.0),
            Some(143)
        );
    }

    #[test]
    fn opposite_directions_pair_up() {
        for (d, offset) in DIRECTIONS.iter().enumerate() {
            let opposite = DIRECTIONS[d ^ 1];
            assert_eq!(
                (opposite.files, opposite.ranks),
                (-offset.files, -offset.ranks)
            );
        }
    }

    #[test]
    fn owner_relative_offsets_mirror_for_gote() {
        let sq = Square::from_usi::<Board9x9>("5e").unwrap();
        let fwd_sente = sq.offset::<Board9x9>(Offset::for_owner(1, 0, Color::Sente));
        let fwd_gote = sq.offset::<Board9x9>(Offset::for_owner(1, 0, Color::Gote));
        assert_eq!(fwd_sente.unwrap().to_usi::<Board9x9>(), "5d");
        assert_eq!(fwd_gote.unwrap().to_usi::<Board9x9>(), "5f");
        let left_sente = sq.offset::<Board9x9>(Offset::for_owner(0, 1, Color::Sente));
        assert_eq!(left_sente.unwrap().to_usi::<Board9x9>(), "6e");
    }
}
