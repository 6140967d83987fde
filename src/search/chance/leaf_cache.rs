//! The chance search's cache of leaf evaluations: a node reached with no depth left is
//! valued by the game's evaluation, and Star2's probing and the re-searches of the chance
//! search reach many of those leaves again within one search (a quarter of the Madness's
//! leaves, two fifths of Shogammon's, in their benches). A direct-mapped table keyed by the
//! position's hash and the point of view keeps the last value of each slot, so a repeated
//! leaf skips the evaluation (the net's layers, Shogammon's king odds). It holds values,
//! never bounds, so the search's values and trees are what they were without it. Cleared at
//! every search's start, so that a value never outlives the evaluators or the game it came
//! from.

use crate::rules::geometry::Color;

/// Slots of the cache (a power of two): 1 MiB a searcher.
const LEAF_CACHE_SLOTS: usize = 1 << 16;

/// Mixed into the key of values from Gote's point of view (an evaluation need not be
/// antisymmetric: the side to move's tempo).
const GOTE_KEY: u64 = 0x9E37_79B9_7F4A_7C15;

#[derive(Clone, Copy, Default)]
struct LeafSlot {
    /// The position's hash mixed with the point of view; 0 for an empty slot.
    key: u64,
    value: i32,
}

/// Leaf values of the current search (see the module header).
pub struct LeafCache {
    slots: Box<[LeafSlot]>,
}

impl Default for LeafCache {
    fn default() -> Self {
        LeafCache {
            slots: vec![LeafSlot::default(); LEAF_CACHE_SLOTS].into_boxed_slice(),
        }
    }
}

impl LeafCache {
    /// Forgets every value.
    pub fn clear(&mut self) {
        self.slots.fill(LeafSlot::default());
    }

    /// The value of the position with hash `hash` from `pov`'s point of view: the one kept,
    /// else `evaluate()`'s, kept from now on.
    #[inline]
    pub fn value(&mut self, hash: u64, pov: Color, evaluate: impl FnOnce() -> i32) -> i32 {
        let key = match pov {
            Color::Sente => hash,
            Color::Gote => hash ^ GOTE_KEY,
        };
        let slot = &mut self.slots[key as usize & (LEAF_CACHE_SLOTS - 1)];
        if slot.key == key && key != 0 {
            debug_assert_eq!(slot.value, evaluate(), "a kept leaf value went stale");
            return slot.value;
        }
        let value = evaluate();
        *slot = LeafSlot { key, value };
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_value_is_returned_per_point_of_view_until_cleared() {
        let mut cache = LeafCache::default();
        let mut calls = 0;
        let mut value = |cache: &mut LeafCache, hash, pov, v| {
            cache.value(hash, pov, || {
                calls += 1;
                v
            })
        };
        assert_eq!(value(&mut cache, 77, Color::Sente, 5), 5);
        assert_eq!(value(&mut cache, 77, Color::Gote, -3), -3);
        // Kept: the evaluation runs again only in debug builds, to check the value.
        assert_eq!(value(&mut cache, 77, Color::Sente, 5), 5);
        assert_eq!(value(&mut cache, 77, Color::Gote, -3), -3);
        // Another position in the same slot replaces it.
        let other = 77 + LEAF_CACHE_SLOTS as u64;
        assert_eq!(value(&mut cache, other, Color::Sente, 9), 9);
        assert_eq!(value(&mut cache, 77, Color::Sente, 5), 5);
        cache.clear();
        assert_eq!(value(&mut cache, 77, Color::Sente, 6), 6);
        // Five evaluations for five misses; in debug builds one more for each of two hits.
        let evaluations = if cfg!(debug_assertions) { 7 } else { 5 };
        assert_eq!(calls, evaluations);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "stale")]
    fn a_stale_value_is_caught_in_debug_builds() {
        let mut cache = LeafCache::default();
        cache.value(12, Color::Sente, || 1);
        cache.value(12, Color::Sente, || 2);
    }
}
