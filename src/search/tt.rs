//! The transposition table: a fixed-size, lock-free hash of search results shared by all
//! search threads.
//!
//! Entries are the tagged lock-free slots of `table_slot` (torn writes read as misses), four
//! to a 64-byte cache line (a cluster); the table holds as many clusters as fit in the
//! requested MiB, never more.
//!
//! An entry is 16 bytes: the data word holds the best move whole (all 32 bits of its
//! [`Move`], so a Chu Shogi Lion's two-step move keeps its middle square; 0 for none), the
//! score and the static evaluation (16 bits each; `i16::MIN` for none); the check word's tag
//! holds the depth (7 bits: no search goes deeper than 127 plies), whether the node was on a
//! principal variation (1 bit), the bound (2 bits, never 0, so a written entry's tag is never
//! 0) and the search generation (4 bits). The check word verifies the key's low 50 bits;
//! from 1 MiB (2^14 clusters) on, the cluster an entry sits in fixes the top 14, so a hit is
//! a match of the whole 64-bit key, as before the tag took 14 of the check word's bits.

use super::memory_hints;
use super::table_memory::{self, Slots};
use super::table_slot::{SlotLine, LINE_BYTES, SLOTS_PER_LINE, TAG_BITS};
use crate::rules::moves::Move;
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
    /// The position's static evaluation as the evaluator gives it (a function of the
    /// position the key stands for, so any search's entry gives the same number); `None` for
    /// a node in check, or an evaluation outside 16 bits.
    pub eval: Option<i32>,
    pub depth: i32,
    pub bound: TtBound,
    /// The node was searched as a PV node, or inherited the mark from an entry that was
    /// (YaneuraOu's and Stockfish's `ttPv`): `search::params` may spare it some pruning.
    pub pv: bool,
}

const SCORE_SHIFT: u32 = 32;
const EVAL_SHIFT: u32 = 48;
const BOUND_SHIFT: u32 = 8;
const GENERATION_SHIFT: u32 = 10;
const GENERATIONS: u64 = 16;
const _: () = assert!(GENERATION_SHIFT + GENERATIONS.trailing_zeros() <= TAG_BITS);
/// The largest depth a tag records (7 bits); the PV mark is the bit above.
const MAX_TAG_DEPTH: i32 = 127;
const PV_SHIFT: u32 = 7;
const _: () = assert!(MAX_TAG_DEPTH < 1 << PV_SHIFT && PV_SHIFT < BOUND_SHIFT);

/// The 16 bits of an entry's evaluation that stand for "none".
const NO_EVAL: i16 = i16::MIN;

fn pack_eval(eval: Option<i32>) -> u64 {
    let bits = eval
        .and_then(|e| i16::try_from(e).ok())
        .filter(|&e| e != NO_EVAL)
        .unwrap_or(NO_EVAL);
    bits as u16 as u64
}

fn unpack_eval(bits: u64) -> Option<i32> {
    let e = bits as u16 as i16;
    (e != NO_EVAL).then_some(i32::from(e))
}

fn pack_move(mv: Option<Move>) -> u64 {
    mv.map_or(0, |m| m.bits() as u64)
}

fn unpack_move(bits: u64) -> Option<Move> {
    Move::from_raw(bits as u32)
}

/// The search generation an entry's tag was written in.
fn tag_generation(tag: u64) -> u64 {
    tag >> GENERATION_SHIFT
}

/// The depth an entry's tag records.
fn tag_depth(tag: u64) -> i32 {
    (tag & MAX_TAG_DEPTH as u64) as i32
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

    /// Whether a hit is a match of the whole 64-bit key: with at least 2^`TAG_BITS` clusters
    /// (1 MiB) the cluster fixes the top bits the check word leaves out (module header).
    pub fn verifies_whole_key(&self) -> bool {
        self.clusters.slots.len() >= 1 << TAG_BITS
    }

    /// Whether the table is smaller than asked for because memory ran short.
    pub fn is_reduced(&self) -> bool {
        self.clusters.is_reduced()
    }

    /// Whether the table's fill was interrupted (it then has one cluster; see
    /// `table_memory::interruptible`).
    pub fn is_interrupted(&self) -> bool {
        self.clusters.is_interrupted()
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
        self.generation
            .store((g + 1) % GENERATIONS as u8, Ordering::Relaxed);
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
        self.cluster(key)
            .slots
            .iter()
            .find_map(|e| e.read_tagged(key))
            .map(|(data, tag)| unpack(data, tag))
    }

    /// Stores a result of a node not marked PV ([`TranspositionTable::store_entry`]).
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: Option<i32>,
        depth: i32,
        bound: TtBound,
    ) {
        let entry = TtHit {
            mv,
            score,
            eval,
            depth,
            bound,
            pv: false,
        };
        self.store_entry(key, entry);
    }

    /// Stores a result; keeps the old move when the entry has none and the key is the same.
    #[inline]
    pub fn store_entry(&self, key: u64, entry: TtHit) {
        let TtHit {
            mv, depth, bound, ..
        } = entry;
        let generation = self.generation.load(Ordering::Relaxed) as u64;
        let cluster = self.cluster(key);
        let mut victim = &cluster.slots[0];
        let mut victim_worth = i32::MAX;
        for e in &cluster.slots {
            if let Some((data, tag)) = e.read_tagged(key) {
                let old = unpack(data, tag);
                // Keep a deeper result of the same position from this search.
                if bound != TtBound::Exact
                    && depth + 2 < old.depth
                    && tag_generation(tag) == generation
                {
                    return;
                }
                let mv = mv.or(old.mv);
                let (data, tag) = pack(TtHit { mv, ..entry }, generation);
                e.write_tagged(key, data, tag);
                return;
            }
            let tag = e.tag();
            if tag == 0 {
                let (data, tag) = pack(entry, generation);
                e.write_tagged(key, data, tag);
                return;
            }
            let age = ((generation + GENERATIONS - tag_generation(tag)) % GENERATIONS) as i32;
            let worth = tag_depth(tag) - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let (data, tag) = pack(entry, generation);
        victim.write_tagged(key, data, tag);
    }

    /// Per mille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) as u64;
        let sample = self.clusters.slots.len().min(250);
        let mut used = 0;
        for cluster in &self.clusters.slots[..sample] {
            for e in &cluster.slots {
                let tag = e.tag();
                if tag != 0 && tag_generation(tag) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * SLOTS_PER_LINE)) as u32
    }
}

/// An entry packed for the table as its data word and tag (the inverse of [`unpack`],
/// depth clamped to 0..=127), written in search `generation`.
#[inline]
fn pack(entry: TtHit, generation: u64) -> (u64, u64) {
    let data = pack_move(entry.mv)
        | ((entry.score as i16 as u16 as u64) << SCORE_SHIFT)
        | (pack_eval(entry.eval) << EVAL_SHIFT);
    let tag = entry.depth.clamp(0, MAX_TAG_DEPTH) as u64
        | ((entry.bound as u64) << BOUND_SHIFT)
        | (generation << GENERATION_SHIFT)
        | (u64::from(entry.pv) << PV_SHIFT);
    (data, tag)
}

#[inline]
fn unpack(data: u64, tag: u64) -> TtHit {
    TtHit {
        mv: unpack_move(data),
        score: ((data >> SCORE_SHIFT) as u16 as i16) as i32,
        eval: unpack_eval(data >> EVAL_SHIFT),
        depth: tag_depth(tag),
        bound: match (tag >> BOUND_SHIFT) & 3 {
            1 => TtBound::Lower,
            2 => TtBound::Upper,
            _ => TtBound::Exact,
        },
        pv: (tag >> PV_SHIFT) & 1 == 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Square;
    use crate::rules::piece::KindId;

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
    fn every_kind_of_move_comes_back_whole() {
        // A Chu Shogi Lion's double move, its igui (capture on the middle square and back),
        // a drop and a promotion, each with every other field at a limit.
        let moves = [
            Move::multi(Square(77), Square(66), Square(55)),
            Move::multi(Square(143), Square(130), Square(143)),
            Move::drop(KindId(23), Square(141)),
            Move::normal(Square(130), Square(140), true),
        ];
        let tt = TranspositionTable::new(1);
        for (i, &mv) in moves.iter().enumerate() {
            let key = 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(i as u64 + 1);
            let (score, eval) = if i % 2 == 0 {
                (-32000, Some(32000))
            } else {
                (31999, Some(-32000))
            };
            tt.store(key, Some(mv), score, eval, 127 - i as i32, TtBound::Upper);
            let hit = tt.probe(key).expect("stored");
            assert_eq!(hit.mv, Some(mv), "{mv:?}");
            assert_eq!(
                (hit.score, hit.eval, hit.depth, hit.bound),
                (score, eval, 127 - i as i32, TtBound::Upper)
            );
            // A later result without a move keeps the whole move too.
            tt.store(key, None, 0, None, 1, TtBound::Exact);
            assert_eq!(tt.probe(key).expect("stored").mv, Some(mv), "{mv:?}");
        }
        for (i, &mv) in moves.iter().enumerate() {
            let key = 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(i as u64 + 1);
            assert_eq!(tt.probe(key).map(|hit| hit.mv), Some(Some(mv)));
        }
    }

    #[test]
    fn an_evaluation_comes_back_exactly_or_not_at_all() {
        let tt = TranspositionTable::new(1);
        let evals = [
            Some(0),
            Some(-1),
            Some(32767),
            Some(-32767),
            None,
            // Outside 16 bits, or the bits that mean none: not stored, never misread.
            Some(32768),
            Some(-32768),
            Some(-40000),
        ];
        for (i, &eval) in evals.iter().enumerate() {
            let key = 0x5851_f42d_4c95_7f2du64.wrapping_mul(i as u64 + 3);
            tt.store(key, None, 17, eval, 4, TtBound::Lower);
            let back = tt.probe(key).expect("stored").eval;
            let fits = eval.filter(|e| (-32767..=32767).contains(e));
            assert_eq!(back, fits, "{eval:?}");
        }
    }

    #[test]
    fn the_pv_mark_comes_back_beside_every_generation_and_bound() {
        let tt = TranspositionTable::new(1);
        for round in 0..2 * GENERATIONS {
            for (i, bound) in [TtBound::Lower, TtBound::Upper, TtBound::Exact]
                .into_iter()
                .enumerate()
            {
                let pv = (round + i as u64).is_multiple_of(2);
                let key = 0x2545_f491_4f6c_dd1du64.wrapping_mul(round * 3 + i as u64 + 1);
                let entry = TtHit {
                    mv: None,
                    score: -5,
                    eval: Some(9),
                    depth: 127,
                    bound,
                    pv,
                };
                tt.store_entry(key, entry);
                assert_eq!(tt.probe(key), Some(entry), "round {round}");
                tt.store(key, None, -5, Some(9), 127, bound);
                let plain = tt.probe(key).expect("stored");
                assert!(!plain.pv, "a plain store clears the mark");
            }
            tt.new_search();
        }
    }

    #[test]
    fn an_entry_is_found_only_under_its_own_key() {
        // From 1 MiB (2^14 clusters) on, the cluster fixes the key's top 14 bits and the
        // check word the other 50: a key differing in any one bit misses.
        let tt = TranspositionTable::new(1);
        let key = 0x0123_4567_89ab_cdef;
        tt.store(key, None, 0, Some(0), 0, TtBound::Lower);
        assert!(tt.probe(key).is_some());
        for bit in 0..64 {
            assert!(tt.probe(key ^ (1 << bit)).is_none(), "bit {bit}");
        }
    }

    #[test]
    fn stores_and_reads_back_with_moves_and_negative_scores() {
        let tt = TranspositionTable::new(1);
        let mv = Move::normal(Square(60), Square(59), true);
        let drop = Move::drop(KindId(4), Square(40));
        tt.store(
            0xdead_beef_1234,
            Some(mv),
            -31000,
            Some(-12),
            7,
            TtBound::Lower,
        );
        tt.store(
            0x1234_5678_9abc,
            Some(drop),
            250,
            Some(30),
            3,
            TtBound::Exact,
        );
        let hit = tt.probe(0xdead_beef_1234).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound),
            (Some(mv), -31000, Some(-12), 7, TtBound::Lower)
        );
        assert_eq!(tt.probe(0x1234_5678_9abc).unwrap().mv, Some(drop));
        assert!(tt.probe(0x1111).is_none());
        // Same key, no move: the old move is kept.
        tt.store(0xdead_beef_1234, None, 5, Some(5), 9, TtBound::Upper);
        let hit = tt.probe(0xdead_beef_1234).unwrap();
        assert_eq!((hit.mv, hit.depth), (Some(mv), 9));
        tt.clear();
        assert!(tt.probe(0xdead_beef_1234).is_none());
    }
}
