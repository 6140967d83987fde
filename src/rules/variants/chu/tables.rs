//! Precomputed tables for Chu Shogi: per-piece step and leap attacks and slide directions
//! compiled from the piece atoms, slider rays, the 4-rank promotion zones, the neighbour
//! sets the Lion's double moves use, and the zobrist keys.
//!
//! Built once on first use and shared read-only by every position (positions hold a
//! `&'static Tables`).

use super::{Geo, Kind, Piece, PIECES};
use crate::rules::bitboard::{Bb192, Bitboard};
use crate::rules::board_tables::{all_squares, by_distance_from_far_edge, shared_tables, zones};
use crate::rules::compiled_atoms::CompiledAtoms;
use crate::rules::geometry::{Color, Offset, Square};
use crate::rules::piece::MoveAtom;
use crate::rules::rays::Rays;
use crate::rules::zobrist::KeyStream;
use arrayvec::ArrayVec;

type Bb = Bb192;
pub(super) const SQUARES: usize = 144;

/// Every table the Chu rules consult.
pub struct Tables {
    /// Steps, leaps and slide directions per colour and kind (the step table on the heap:
    /// 39 kinds of 144 squares would crowd the stack while the tables are built).
    atoms: CompiledAtoms<Geo, Box<[[Bb; SQUARES]]>, { Kind::COUNT }, SQUARES>,
    /// The same directions as a bit set (bit `d` = direction index `d`).
    slide_mask: [[u8; Kind::COUNT]; 2],
    /// Kinds that have steps or leaps (the ones `attackers_to` looks up by table).
    pub(super) step_kinds: ArrayVec<Kind, { Kind::COUNT }>,
    pub rays: Rays<Geo>,
    /// The promotion zone of each colour (its 4 farthest ranks).
    pub zone: [Bb; 2],
    /// Each colour's last rank.
    pub last_rank: [Bb; 2],
    /// The square one step forward for each colour, per square.
    forward: [[Option<Square>; SQUARES]; 2],
    pub board_keys: Vec<[u64; SQUARES]>,
    pub side_key: u64,
    /// Keyed by the square recorded in SFEN field 3 (a Lion just taken by a non-Lion).
    pub lion_capture_keys: [u64; SQUARES],
    /// CHU.RUL's one-turn promotion deferral, per colour and square.
    pub declined_keys: [[u64; SQUARES]; 2],
    /// All 144 squares.
    pub all: Bb,
}

shared_tables!();

impl Tables {
    fn build() -> Tables {
        let empty_steps = || vec![[Bb::EMPTY; SQUARES]; Kind::COUNT].into_boxed_slice();
        let atoms = CompiledAtoms::build([empty_steps(), empty_steps()], |kind| PIECES[kind].atoms);
        let slide_mask = Color::BOTH.map(|color| {
            std::array::from_fn(|kind| {
                atoms
                    .slides(color, kind)
                    .iter()
                    .fold(0u8, |mask, dir| mask | 1 << dir.0)
            })
        });
        let mut step_kinds = ArrayVec::new();
        for kind in Kind::ALL {
            if PIECES[kind.index()]
                .atoms
                .iter()
                .any(|a| matches!(a, MoveAtom::Step { .. } | MoveAtom::Leap { .. }))
            {
                step_kinds.push(kind);
            }
        }
        let forward = Color::BOTH.map(|color| {
            std::array::from_fn(|i| Square(i as u8).offset::<Geo>(Offset::for_owner(1, 0, color)))
        });
        let mut keys = KeyStream::new(0x4348_5553_484F_4749);
        let mut board_keys = vec![[0; SQUARES]; 2 * Kind::COUNT];
        keys.fill(board_keys.as_flattened_mut());
        let side_key = keys.next_key();
        let lion_capture_keys = std::array::from_fn(|_| keys.next_key());
        let declined_keys = [
            std::array::from_fn(|_| keys.next_key()),
            std::array::from_fn(|_| keys.next_key()),
        ];
        Tables {
            atoms,
            slide_mask,
            step_kinds,
            rays: Rays::new(),
            zone: zones::<Geo>(),
            last_rank: Color::BOTH.map(|color| by_distance_from_far_edge::<Geo>(color, |d| d == 0)),
            forward,
            board_keys,
            side_key,
            lion_capture_keys,
            declined_keys,
            all: all_squares::<Geo>(),
        }
    }

    /// Steps and leaps of a piece of `color` and `kind` from `sq`.
    #[inline]
    pub fn step_attacks(&self, color: Color, kind: Kind, sq: Square) -> Bb {
        self.atoms.step_attacks(color, kind.index(), sq)
    }

    /// The eight squares around `sq`.
    #[inline]
    pub fn neighbours(&self, sq: Square) -> Bb {
        self.step_attacks(Color::Sente, Kind::King, sq)
    }

    /// Whether `kind` of `color` slides in board direction `dir`.
    #[inline]
    pub fn slides_in(&self, color: Color, kind: Kind, dir: usize) -> bool {
        self.slide_mask[color.index()][kind.index()] & (1 << dir) != 0
    }

    /// The square one step forward of `sq` for `color`.
    #[inline]
    pub fn forward(&self, color: Color, sq: Square) -> Option<Square> {
        self.forward[color.index()][sq.index()]
    }

    /// Everything a piece attacks from `sq` in one leg, given the occupancy.
    #[inline]
    pub fn attacks(&self, piece: Piece, sq: Square, occupied: Bb) -> Bb {
        let (color, kind) = (piece.color(), piece.kind().index());
        self.atoms.attacks(&self.rays, color, kind, sq, occupied)
    }

    /// The zobrist key of `piece` on `sq`.
    #[inline]
    pub fn key(&self, piece: Piece, sq: Square) -> u64 {
        self.board_keys[piece.index()][sq.index()]
    }
}

/// Chebyshev distance between two squares (1 = adjacent).
#[inline]
pub fn distance(a: Square, b: Square) -> u8 {
    let (fa, ra) = (a.file::<Geo>().0 as i8, a.rank::<Geo>().0 as i8);
    let (fb, rb) = (b.file::<Geo>().0 as i8, b.rank::<Geo>().0 as i8);
    (fa - fb).unsigned_abs().max((ra - rb).unsigned_abs())
}
