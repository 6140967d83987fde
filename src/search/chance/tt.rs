//! The chance search's transposition table: a lower and an upper bound per node, for decision
//! and chance nodes alike (docs/ARCHITECTURE.md, "The chance search").
//!
//! Entries are the lock-free slots of `table_slot` (keyed by the full 64-bit key; an entry
//! torn by two writers reads as a miss), four to a 64-byte cache line (a bucket). The best
//! move is stored as its index in the node's `legal_actions` list (which must be a function
//! of the state), so any action encoding fits in 13 bits. Bounds are stored as given; the
//! searcher converts win scores to and from node-relative form and chooses the point of view.

use crate::search::table_memory::{self, Slots};
use crate::search::table_slot::{SlotLine, LINE_BYTES, SLOTS_PER_LINE};
use std::sync::atomic::{AtomicU64, Ordering};

/// One stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableEntry {
    /// The true value is at least this.
    pub lower: i32,
    /// The true value is at most this.
    pub upper: i32,
    /// The remaining depth the bounds were searched with.
    pub depth: u32,
    /// The best action's index in the node's `legal_actions` list (decision nodes).
    pub best_index: Option<usize>,
}

const VALUE_OFFSET: i32 = 1 << 15;
const INDEX_SHIFT: u32 = 32;
const INDEX_BITS: u32 = 13;
const DEPTH_SHIFT: u32 = INDEX_SHIFT + INDEX_BITS;
const DEPTH_BITS: u32 = 8;
const GEN_SHIFT: u32 = DEPTH_SHIFT + DEPTH_BITS;
const GEN_BITS: u32 = 6;
const CHANCE_BIT: u64 = 1 << (GEN_SHIFT + GEN_BITS);
const PRESENT_BIT: u64 = CHANCE_BIT << 1;
const _: () = assert!(GEN_SHIFT + GEN_BITS + 2 <= 64);
const _: () = assert!(crate::rules::moves::MAX_MOVES < (1 << INDEX_BITS));

fn field(data: u64, shift: u32, bits: u32) -> u64 {
    (data >> shift) & ((1 << bits) - 1)
}

/// A fixed-size table shared by reference (all methods take `&self` except resizing).
pub struct ChanceTable {
    buckets: Slots<SlotLine>,
    generation: AtomicU64,
}

impl ChanceTable {
    /// A table of at most `mib` MiB (one bucket when `mib` is 0), a power of two of buckets;
    /// smaller when the machine cannot give that much (see [`Self::is_reduced`]).
    pub fn new(mib: usize) -> ChanceTable {
        let wanted = table_memory::slots_in_mib(mib, LINE_BYTES);
        let count = if wanted == 0 {
            1
        } else {
            1usize << (usize::BITS - 1 - wanted.leading_zeros())
        };
        ChanceTable {
            buckets: table_memory::allocate(count),
            generation: AtomicU64::new(0),
        }
    }

    /// Whether the table is smaller than asked for because memory ran short.
    pub fn is_reduced(&self) -> bool {
        self.buckets.is_reduced()
    }

    /// Whether the table's fill was interrupted (it then has one bucket).
    pub fn is_interrupted(&self) -> bool {
        self.buckets.is_interrupted()
    }

    /// Bytes held by the buckets.
    pub fn allocated_bytes(&self) -> usize {
        self.buckets.allocated_bytes()
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        self.buckets.clear();
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn current_generation(&self) -> u64 {
        self.generation.load(Ordering::Relaxed) & ((1 << GEN_BITS) - 1)
    }

    #[inline]
    fn bucket(&self, key: u64) -> &SlotLine {
        // High bits pick the bucket; the full key is checked.
        let index = ((key >> 32) as usize) & (self.buckets.slots.len() - 1);
        &self.buckets.slots[index]
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TableEntry> {
        for slot in &self.bucket(key).slots {
            let (data, check) = slot.read();
            if data & PRESENT_BIT != 0 && check ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores bounds `lower <= v <= upper` for `key` searched to `depth`. Bounds of an entry
    /// with the same key and depth are intersected with the new ones (a probe's lower bound
    /// and a later upper bound make one entry); otherwise the new result replaces the old,
    /// keeping the old best move when the new result has none.
    pub fn store(
        &self,
        key: u64,
        depth: u32,
        lower: i32,
        upper: i32,
        best_index: Option<usize>,
        chance: bool,
    ) {
        debug_assert!(lower <= upper);
        let generation = self.current_generation();
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_priority = i64::MAX;
        for (i, slot) in bucket.slots.iter().enumerate() {
            let (data, check) = slot.read();
            if data & PRESENT_BIT == 0 {
                if victim_priority > i64::MIN {
                    victim = i;
                    victim_priority = i64::MIN;
                }
                continue;
            }
            if check ^ data == key {
                let old = unpack(data);
                let (mut lower, mut upper) = (lower, upper);
                if old.depth == depth.min(field_max(DEPTH_BITS) as u32) {
                    let (merged_lower, merged_upper) = (lower.max(old.lower), upper.min(old.upper));
                    if merged_lower <= merged_upper {
                        lower = merged_lower;
                        upper = merged_upper;
                    }
                }
                let best = best_index.or(old.best_index);
                slot.write(key, pack(lower, upper, depth, best, generation, chance));
                return;
            }
            let age = (generation + (1 << GEN_BITS) - field(data, GEN_SHIFT, GEN_BITS))
                & ((1 << GEN_BITS) - 1);
            let priority = field(data, DEPTH_SHIFT, DEPTH_BITS) as i64
                + if data & CHANCE_BIT != 0 { 2 } else { 0 }
                - 4 * age as i64;
            if priority < victim_priority {
                victim = i;
                victim_priority = priority;
            }
        }
        bucket.slots[victim].write(
            key,
            pack(lower, upper, depth, best_index, generation, chance),
        );
    }

    /// Per-mille fill of the first thousand buckets' entries of this search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.current_generation();
        let sample = self.buckets.slots.len().min(250);
        let used: usize = self.buckets.slots[..sample]
            .iter()
            .flat_map(|b| b.slots.iter())
            .filter(|s| {
                let data = s.data();
                data & PRESENT_BIT != 0 && field(data, GEN_SHIFT, GEN_BITS) == generation
            })
            .count();
        (used * 1000 / (sample * SLOTS_PER_LINE)) as u32
    }
}

fn field_max(bits: u32) -> u64 {
    (1 << bits) - 1
}

fn pack(
    lower: i32,
    upper: i32,
    depth: u32,
    best_index: Option<usize>,
    generation: u64,
    chance: bool,
) -> u64 {
    debug_assert!((-VALUE_OFFSET..VALUE_OFFSET).contains(&lower));
    debug_assert!((-VALUE_OFFSET..VALUE_OFFSET).contains(&upper));
    let index = best_index.map_or(0, |i| i as u64 + 1);
    ((lower + VALUE_OFFSET) as u64)
        | ((upper + VALUE_OFFSET) as u64) << 16
        | index << INDEX_SHIFT
        | (depth as u64).min(field_max(DEPTH_BITS)) << DEPTH_SHIFT
        | generation << GEN_SHIFT
        | if chance { CHANCE_BIT } else { 0 }
        | PRESENT_BIT
}

fn unpack(data: u64) -> TableEntry {
    let index = field(data, INDEX_SHIFT, INDEX_BITS);
    TableEntry {
        lower: field(data, 0, 16) as i32 - VALUE_OFFSET,
        upper: field(data, 16, 16) as i32 - VALUE_OFFSET,
        depth: field(data, DEPTH_SHIFT, DEPTH_BITS) as u32,
        best_index: (index != 0).then(|| index as usize - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_merges_bounds() {
        let table = ChanceTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(table.probe(key), None);
        table.store(key, 3, 120, 10_000, Some(7), false);
        let entry = table.probe(key).expect("stored");
        assert_eq!((entry.lower, entry.upper, entry.depth), (120, 10_000, 3));
        assert_eq!(entry.best_index, Some(7));
        // An upper bound at the same depth narrows the same entry and keeps the move.
        table.store(key, 3, -10_000, 400, None, false);
        let entry = table.probe(key).expect("stored");
        assert_eq!((entry.lower, entry.upper), (120, 400));
        assert_eq!(entry.best_index, Some(7));
        // A deeper result replaces the bounds.
        table.store(key, 4, -10_000, -50, Some(0), false);
        let entry = table.probe(key).expect("stored");
        assert_eq!((entry.lower, entry.upper, entry.depth), (-10_000, -50, 4));
        assert_eq!(entry.best_index, Some(0));
        // Another key in the same bucket is a miss.
        assert_eq!(table.probe(key ^ 1), None);
    }

    #[test]
    fn a_full_bucket_keeps_deep_entries() {
        let table = ChanceTable::new(0);
        for i in 0..4u64 {
            table.store(i + 1, 10 + i as u32, 0, 0, None, false);
        }
        table.store(100, 1, 5, 5, None, false);
        // The shallowest entry (depth 10) made way.
        assert_eq!(table.probe(1), None);
        assert!(table.probe(4).is_some());
        assert_eq!(table.probe(100).map(|e| e.lower), Some(5));
    }
}
