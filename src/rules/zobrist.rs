//! Deterministic pseudo-random keys for zobrist hashing, the same on every run and machine.
//!
//! Keys come from SplitMix64 with a fixed seed per variant, so hashes (and therefore bench
//! signatures and transposition-table behaviour) are reproducible.

/// A SplitMix64 stream: tiny, fast and well distributed, which is all zobrist keys need.
pub struct KeyStream(u64);

impl KeyStream {
    pub fn new(seed: u64) -> KeyStream {
        KeyStream(seed)
    }

    pub fn next_key(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Fills `keys` with the next keys, in order.
    pub fn fill(&mut self, keys: &mut [u64]) {
        for key in keys {
            *key = self.next_key();
        }
    }

    /// Fills `keys`, a run of hand-count tables `width` wide (indexed by count), with the next
    /// keys in order, leaving count 0 at 0 so an empty hand contributes nothing.
    pub fn fill_hand_counts(&mut self, keys: &mut [u64], width: usize) {
        for per_count in keys.chunks_mut(width) {
            self.fill(&mut per_count[1..]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_reproducible_and_distinct() {
        let a: Vec<u64> = (0..1000)
            .map({
                let mut s = KeyStream::new(7);
                move |_| s.next_key()
            })
            .collect();
        let mut b = KeyStream::new(7);
        assert!(a.iter().all(|k| *k == b.next_key()));
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), a.len());
    }
}
