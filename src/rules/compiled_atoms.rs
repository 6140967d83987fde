//! A board's piece movements compiled from their move atoms, as standard shogi and Chu Shogi
//! keep them: the steps and leaps of each colour and kind from every square, and the
//! directions each slides in; and a piece's attacks from a square given the occupancy, read
//! from them and the slider rays. Each game chooses how the step table is stored (inline, or
//! on the heap where it is large).

use crate::rules::board_tables::add_step;
use crate::rules::geometry::{Color, DirectionIndex, Geometry, Square};
use crate::rules::piece::MoveAtom;
use crate::rules::rays::Rays;
use arrayvec::ArrayVec;
use std::marker::PhantomData;

/// The compiled atoms of `KINDS` kinds on board `G` of `SQUARES` squares. `Steps` holds one
/// colour's step table, a per-square row per kind: `[[Bb; SQUARES]; KINDS]` inline, or a
/// boxed slice of rows.
pub struct CompiledAtoms<G: Geometry, Steps, const KINDS: usize, const SQUARES: usize> {
    /// Steps and leaps per colour, kind and square.
    step: [Steps; 2],
    /// Slide directions per colour and kind.
    slides: [[ArrayVec<DirectionIndex, 8>; KINDS]; 2],
    geometry: PhantomData<G>,
}

impl<G, Steps, const KINDS: usize, const SQUARES: usize> CompiledAtoms<G, Steps, KINDS, SQUARES>
where
    G: Geometry,
    Steps: AsRef<[[G::Bb; SQUARES]]> + AsMut<[[G::Bb; SQUARES]]>,
{
    /// Compiles the atoms of each kind (`atoms(kind index)`) into `step` (given empty, one
    /// table per colour). Every slide must be unlimited.
    pub fn build(mut step: [Steps; 2], atoms: impl Fn(usize) -> &'static [MoveAtom]) -> Self {
        for rows in &step {
            assert_eq!(rows.as_ref().len(), KINDS, "one step row per kind");
        }
        let mut slides: [[ArrayVec<DirectionIndex, 8>; KINDS]; 2] =
            std::array::from_fn(|_| std::array::from_fn(|_| ArrayVec::new()));
        for color in Color::BOTH {
            let rows = step[color.index()].as_mut().iter_mut();
            let kinds = rows.zip(&mut slides[color.index()]).enumerate();
            for (kind, (per_square, directions)) in kinds {
                for atom in atoms(kind) {
                    let offset = atom.offset(color);
                    match atom {
                        MoveAtom::Step { .. } | MoveAtom::Leap { .. } => {
                            add_step::<G>(per_square, offset)
                        }
                        MoveAtom::Slide { .. } => {
                            directions.push(DirectionIndex::of(offset).expect("unit slide"))
                        }
                        MoveAtom::RangeSlide { .. } => {
                            unreachable!("range-limited slides are not compiled here")
                        }
                    }
                }
            }
        }
        CompiledAtoms {
            step,
            slides,
            geometry: PhantomData,
        }
    }

    /// Steps and leaps of a piece of `color` and kind index `kind` from `sq`.
    #[inline(always)]
    pub fn step_attacks(&self, color: Color, kind: usize, sq: Square) -> G::Bb {
        self.step[color.index()].as_ref()[kind][sq.index()]
    }

    /// The directions a piece of `color` and kind index `kind` slides in.
    #[inline(always)]
    pub fn slides(&self, color: Color, kind: usize) -> &[DirectionIndex] {
        &self.slides[color.index()][kind]
    }

    /// Everything a piece of `color` and kind index `kind` attacks from `sq` given the
    /// occupancy, its slides following `rays`.
    #[inline(always)]
    pub fn attacks(
        &self,
        rays: &Rays<G>,
        color: Color,
        kind: usize,
        sq: Square,
        occupied: G::Bb,
    ) -> G::Bb {
        self.step_attacks(color, kind, sq) | rays.slides(self.slides(color, kind), sq, occupied)
    }
}
