//! The transposition table: a fixed-size, lock-free hash of search results shared by all
//! search threads.
//!
//! Entries are the lock-free slots of `table_slot` (torn writes read as misses), four to a
//! 64-byte cache line (a cluster); the table holds as many clusters as fit in the requested
//! MiB, never more.

use super::memory_hints;
use super::table_memory::{self, Slots};
use super::table_slot::{SlotLine, LINE_BYTES, SLOTS_PER_LINE};
use crate::rules::geometry::Square;
use crate::rules::moves::Move;
use crate::rules::piece::KindId;
use std::sync::atomic::{AtomicU8, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtBound {
    /// The true value is at least the score (fail high).
    Lower = 1,
    /// The true value is at most the score (fail low).
    Upper = 2,
    Exact = 3,
}

/// One entry read back from the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    pub mv: Option<Move>,
    /// Search score, adjusted to the probing node's ply by the caller.
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: TtBound,
}

const MOVE_BITS: u64 = 18;
const MOVE_MASK: u64 = (1 << MOVE_BITS) - 1;

fn pack_move(mv: Option<Move>) -> u64 {
    mv.map_or(0, |m| m.bits() as u64 & MOVE_MASK)
}

fn unpack_move(bits: u64) -> Option<Move> {
    if bits == 0 {
        return None;
    }
    let to = Square((bits & 0xff) as u8);
    let high = ((bits >> 8) & 0xff) as u8;
    if bits & (1 << 17) != 0 {
        Some(Move::drop(KindId(high), to))
    } else {
        Some(Move::normal(Square(high), to, bits & (1 << 16) != 0))
    }
}

/// The shared table.
pub struct TranspositionTable {
    clusters: Slots<SlotLine>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table using at most `mib` MiB (at least one cluster, 64 bytes, when `mib` is 0);
    /// smaller when the machine cannot give that much (see [`Self::is_reduced`]).
    pub fn new(mib: usize) -> TranspositionTable {
        TranspositionTable {
            clusters: table_memory::allocate(Self::cluster_count(mib)),
            generation: AtomicU8::new(0),
        }
    }

    /// How many clusters fit in `mib` MiB.
    pub fn cluster_count(mib: usize) -> usize {
        table_memory::slots_in_mib(mib, LINE_BYTES).max(1)
    }

    /// Whether the table is smaller than asked for because memory ran short.
    pub fn is_reduced(&self) -> bool {
        self.clusters.is_reduced()
    }

    /// Bytes held by the entries (the allocation's capacity, not just its length).
    pub fn allocated_bytes(&self) -> usize {
        self.clusters.allocated_bytes()
    }

    /// Empties every entry.
    pub fn clear(&self) {
        self.clusters.clear();
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 15, Ordering::Relaxed);
    }

    #[inline]
    fn cluster(&self, key: u64) -> &SlotLine {
        let index = ((key as u128 * self.clusters.slots.len() as u128) >> 64) as usize;
        &self.clusters.slots[index]
    }

    /// Starts loading `key`'s cluster into the cache, so that a probe made a little later
    /// (after the work between a move and its node's lookup) does not wait on memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        memory_hints::prefetch(self.cluster(key));
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in &self.cluster(key).slots {
            let (data, check) = e.read();
            if data != 0 && check ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a result; keeps the old move when `mv` is `None` and the key is the same.
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: TtBound,
    ) {
        let generation = self.generation.load(Ordering::Relaxed) as u64;
        let entry = TtHit {
            mv,
            score,
            eval,
            depth,
            bound,
        };
        let cluster = self.cluster(key);
        let mut victim = &cluster.slots[0];
        let mut victim_worth = i32::MAX;
        for e in &cluster.slots {
            let (data, check) = e.read();
            if data == 0 || check ^ data == key {
                if data != 0 {
                    let old = unpack(data);
                    // Keep a deeper result of the same position from this search.
                    if bound != TtBound::Exact && depth + 2 < old.depth && data >> 60 == generation
                    {
                        return;
                    }
                    let mv = mv.or(old.mv);
                    e.write(key, pack(TtHit { mv, ..entry }, generation));
                } else {
                    e.write(key, pack(entry, generation));
                }
                return;
            }
            let age = ((generation + 16 - (data >> 60)) & 15) as i32;
            let worth = unpack(data).depth - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        victim.write(key, pack(entry, generation));
    }

    /// Per mille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) as u64;
        let sample = self.clusters.slots.len().min(250);
        let mut used = 0;
        for cluster in &self.clusters.slots[..sample] {
            for e in &cluster.slots {
                let data = e.data();
                if data != 0 && data >> 60 == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * SLOTS_PER_LINE)) as u32
    }
}

/// An entry packed for the table (the inverse of [`unpack`], depth clamped to 0..=255),
/// written in search `generation`.
#[inline]
fn pack(entry: TtHit, generation: u64) -> u64 {
    pack_move(entry.mv)
        | ((entry.score as i16 as u16 as u64) << 18)
        | ((entry.eval as i16 as u16 as u64) << 34)
        | ((entry.depth.clamp(0, 255) as u64) << 50)
        | ((entry.bound as u64) << 58)
        | (generation << 60)
}

#[inline]
fn unpack(data: u64) -> TtHit {
    TtHit {
        mv: unpack_move(data & MOVE_MASK),
        score: ((data >> 18) as u16 as i16) as i32,
        eval: ((data >> 34) as u16 as i16) as i32,
        depth: ((data >> 50) & 0xff) as i32,
        bound: match (data >> 58) & 3 {
            1 => TtBound::Lower,
            2 => TtBound::Upper,
            _ => TtBound::Exact,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_never_exceeds_the_budget() {
        for mib in [0, 1, 3, 16, 33] {
            let tt = TranspositionTable::new(mib);
            let budget = (mib << 20).max(LINE_BYTES);
            assert!(tt.allocated_bytes() <= budget, "{mib} MiB");
            assert!(tt.allocated_bytes() * 2 > budget, "{mib} MiB wastes space");
        }
        assert_eq!(TranspositionTable::cluster_count(1), 16384);
        assert_eq!(std::mem::size_of::<SlotLine>(), 64);
    }

    #[test]
    fn stores_and_reads_back_with_moves_and_negative_scores() {
        let tt = TranspositionTable::new(1);
        let mv = Move::normal(Square(60), Square(59), true);
        let drop = Move::drop(KindId(4), Square(40));
        tt.store(0xdead_beef_1234, Some(mv), -31000, -12, 7, TtBound::Lower);
        tt.store(0x1234_5678_9abc, Some(drop), 250, 30, 3, TtBound::Exact);
        let hit = tt.probe(0xdead_beef_1234).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound),
            (Some(mv), -31000, -12, 7, TtBound::Lower)
        );
        assert_eq!(tt.probe(0x1234_5678_9abc).unwrap().mv, Some(drop));
        assert!(tt.probe(0x1111).is_none());
        // Same key, no move: the old move is kept.
        tt.store(0xdead_beef_1234, None, 5, 5, 9, TtBound::Upper);
        let hit = tt.probe(0xdead_beef_1234).unwrap();
        assert_eq!((hit.mv, hit.depth), (Some(mv), 9));
        tt.clear();
        assert!(tt.probe(0xdead_beef_1234).is_none());
    }
}
