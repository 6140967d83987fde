//! Tables for a new member of the family, compiled from nothing but its piece table: the
//! steps and leaps of each kind per colour and square, its slides (walked square by square),
//! the promotion zones, the squares where each hand kind may stand, file masks and zobrist
//! keys. [`AtomTables`] is what a member uses before it needs speed; standard shogi and Chu
//! Kagamigi have their own faster tables (slider rays, attack detection from the target),
//! which keep the rest, the same for both, in a [`BoardTables`].

use super::{Bb, DropKind, DropPiece, DropTables, DropVariant};
use crate::rules::bitboard::Bitboard;
use crate::rules::board_tables::{self, add_step, all_squares, file_squares, zone_flags, zones};
use crate::rules::geometry::{Color, Geometry, Offset, Square};
use crate::rules::piece::MoveAtom;
use crate::rules::zobrist::KeyStream;

/// Most pieces of one hand kind a hand can hold, plus one (the zobrist table's width).
const HAND_KEYS: usize = 64;

/// What a member's own fast tables hold beside its attacks: the promotion zones, as
/// bitboards and as one flag per square; the squares where each hand kind may be dropped or
/// stand unpromoted (not on its dead ranks); each file's squares; every square; and the
/// zobrist keys of a piece on a square (`board_keys`, one row per coloured piece, stored as
/// the member chooses: an array, or a vector when it is large), of each hand count and of
/// the side to move.
pub struct BoardTables<
    B,
    BoardKeys,
    const SQUARES: usize,
    const FILES: usize,
    const HAND_KINDS: usize,
    const HAND_KEYS: usize,
> {
    /// The promotion zone of each colour.
    pub zone: [B; 2],
    /// The same, as a per-square flag (cheaper than a bitboard test for one square).
    pub in_zone: [[bool; SQUARES]; 2],
    /// Per colour and hand kind, the squares where it may be dropped or stand unpromoted.
    pub alive: [[B; HAND_KINDS]; 2],
    /// Each file's squares.
    pub file: [B; FILES],
    pub board_keys: BoardKeys,
    pub hand_keys: [[[u64; HAND_KEYS]; HAND_KINDS]; 2],
    pub side_key: u64,
    /// Every square.
    pub all: B,
}

impl<
        B: Bitboard,
        BoardKeys: AsMut<[[u64; SQUARES]]>,
        const SQUARES: usize,
        const FILES: usize,
        const HAND_KINDS: usize,
        const HAND_KEYS: usize,
    > BoardTables<B, BoardKeys, SQUARES, FILES, HAND_KINDS, HAND_KEYS>
{
    /// The tables of board `G`, whose hand slot `slot` holds a kind that must promote on its
    /// last `forced_ranks(slot)` ranks. The keys come from `seed`: first `board_keys` (given
    /// zeroed) is filled, then the hand counts (count 0 keeps the key 0), then the side key.
    pub fn build<G: Geometry<Bb = B>>(
        forced_ranks: impl Fn(usize) -> u8,
        seed: u64,
        mut board_keys: BoardKeys,
    ) -> Self {
        let zone = zones::<G>();
        let mut keys = KeyStream::new(seed);
        keys.fill(board_keys.as_mut().as_flattened_mut());
        let mut hand_keys = [[[0; HAND_KEYS]; HAND_KINDS]; 2];
        keys.fill_hand_counts(hand_keys.as_flattened_mut().as_flattened_mut(), HAND_KEYS);
        BoardTables {
            zone,
            in_zone: zone_flags::<G, SQUARES>(&zone),
            alive: Color::BOTH.map(|color| {
                std::array::from_fn(|slot| board_tables::alive::<G>(color, forced_ranks(slot)))
            }),
            file: std::array::from_fn(file_squares::<G>),
            board_keys,
            hand_keys,
            side_key: keys.next_key(),
            all: all_squares::<G>(),
        }
    }
}

/// The tables of drop variant `V`, built from its kinds' move atoms.
pub struct AtomTables<V: DropVariant> {
    /// Steps and leaps per `(colour, kind, square)`.
    steps: Vec<Bb<V>>,
    /// Slides per `(colour, kind)`: direction and how many squares at most.
    slides: Vec<Vec<(Offset, u8)>>,
    zone: [Bb<V>; 2],
    /// Squares where each colour's hand kind may stand unpromoted, per `(colour, kind)`.
    alive: Vec<Bb<V>>,
    files: Vec<Bb<V>>,
    all: Bb<V>,
    board_keys: Vec<u64>,
    hand_keys: Vec<u64>,
    side_key: u64,
}

fn colour_kind<V: DropVariant>(color: Color, kind: V::Kind) -> usize {
    color.index() * V::Kind::KINDS.len() + kind.index()
}

impl<V: DropVariant> AtomTables<V> {
    /// Compiles the tables of `V`; `seed` starts its zobrist keys.
    pub fn build(seed: u64) -> Self {
        let kinds = V::Kind::KINDS.len();
        let squares = <V::Geo as Geometry>::SQUARES;
        let mut steps = vec![Bb::<V>::EMPTY; 2 * kinds * squares];
        let mut slides = vec![Vec::new(); 2 * kinds];
        let mut alive = vec![Bb::<V>::EMPTY; 2 * kinds];
        for color in Color::BOTH {
            for &kind in V::Kind::KINDS {
                let slot = colour_kind::<V>(color, kind);
                for atom in kind.rules().atoms {
                    let offset = atom.offset(color);
                    match atom {
                        MoveAtom::Step { .. } | MoveAtom::Leap { .. } => {
                            add_step::<V::Geo>(&mut steps[slot * squares..][..squares], offset)
                        }
                        _ => slides[slot].push((offset, atom.max_steps())),
                    }
                }
            }
        }
        for color in Color::BOTH {
            for &kind in V::Kind::KINDS {
                alive[colour_kind::<V>(color, kind)] =
                    board_tables::alive::<V::Geo>(color, kind.rules().forced_promotion_ranks);
            }
        }
        let mut keys = KeyStream::new(seed);
        let board_keys = (0..2 * kinds * squares).map(|_| keys.next_key()).collect();
        let mut hand_keys = vec![0; 2 * kinds * HAND_KEYS];
        keys.fill_hand_counts(&mut hand_keys, HAND_KEYS);
        AtomTables {
            steps,
            slides,
            zone: zones::<V::Geo>(),
            alive,
            files: (0..<V::Geo as Geometry>::FILES as usize)
                .map(file_squares::<V::Geo>)
                .collect(),
            all: all_squares::<V::Geo>(),
            board_keys,
            hand_keys,
            side_key: keys.next_key(),
        }
    }
}

impl<V: DropVariant> DropTables<V> for AtomTables<V> {
    fn all(&self) -> Bb<V> {
        self.all
    }
    fn zone(&self, color: Color) -> Bb<V> {
        self.zone[color.index()]
    }
    fn in_zone(&self, color: Color, sq: Square) -> bool {
        self.zone[color.index()].contains(sq)
    }
    fn alive(&self, color: Color, kind: V::Kind) -> Bb<V> {
        self.alive[colour_kind::<V>(color, kind)]
    }
    fn file(&self, file: usize) -> Bb<V> {
        self.files[file]
    }
    fn step_attacks(&self, color: Color, kind: V::Kind, sq: Square) -> Bb<V> {
        self.steps[colour_kind::<V>(color, kind) * <V::Geo as Geometry>::SQUARES + sq.index()]
    }
    fn attacks(&self, piece: V::Piece, sq: Square, occupied: Bb<V>) -> Bb<V> {
        let slot = colour_kind::<V>(piece.color(), piece.kind());
        let mut bb = self.steps[slot * <V::Geo as Geometry>::SQUARES + sq.index()];
        for &(offset, max) in &self.slides[slot] {
            let mut at = sq;
            for _ in 0..max {
                let Some(next) = at.offset::<V::Geo>(offset) else {
                    break;
                };
                bb |= Bb::<V>::from_square(next);
                if occupied.contains(next) {
                    break;
                }
                at = next;
            }
        }
        bb
    }
    fn square_ahead(&self, color: Color, sq: Square) -> Option<Square> {
        sq.offset::<V::Geo>(Offset::for_owner(1, 0, color))
    }
    fn board_key(&self, piece: V::Piece, sq: Square) -> u64 {
        self.board_keys[piece.index() * <V::Geo as Geometry>::SQUARES + sq.index()]
    }
    fn hand_key(&self, color: Color, kind: V::Kind, count: usize) -> u64 {
        self.hand_keys[colour_kind::<V>(color, kind) * HAND_KEYS + count]
    }
    fn side_key(&self) -> u64 {
        self.side_key
    }
}

/// Checks member `V`'s compiled attacks (its tables' [`DropTables::attacks`]) against
/// walking the atoms of each of its kinds, for each occupancy pattern.
#[cfg(test)]
pub fn assert_member_attacks_follow_atoms<V: DropVariant>(patterns: &[(u8, u8, u8)]) {
    let t = V::tables();
    board_tables::assert_attacks_follow_atoms::<V::Geo, V::Kind>(
        V::Kind::KINDS,
        |kind| kind.rules().atoms,
        |color, kind, from, occupied| t.attacks(V::Piece::new(color, kind), from, occupied),
        patterns,
    );
}
