//! One entry of the lock-free search tables (the alpha-beta table and the chance table):
//! two `AtomicU64`, the packed data and the key xor the data. A reader accepts the data only
//! if `check ^ data == key`, so an entry torn by two threads writing at once reads as a miss
//! rather than as wrong data. Entries come four to a 64-byte cache line ([`SlotLine`]), the
//! unit a key is mapped to.

use super::table_memory::Slots;
use std::sync::atomic::{AtomicU64, Ordering};

/// One table entry: the packed data and its check word.
#[derive(Default)]
pub struct TableSlot {
    check: AtomicU64,
    data: AtomicU64,
}

impl TableSlot {
    /// The packed data and the check word as last written (by any thread).
    #[inline]
    pub fn read(&self) -> (u64, u64) {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        (data, check)
    }

    /// The packed data alone (for statistics that need no key).
    #[inline]
    pub fn data(&self) -> u64 {
        self.data.load(Ordering::Relaxed)
    }

    /// Writes `data` for `key`.
    #[inline]
    pub fn write(&self, key: u64, data: u64) {
        self.data.store(data, Ordering::Relaxed);
        self.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Empties the entry (data 0).
    pub fn clear(&self) {
        self.check.store(0, Ordering::Relaxed);
        self.data.store(0, Ordering::Relaxed);
    }
}

/// Entries per cache line.
pub const SLOTS_PER_LINE: usize = 4;

/// One 64-byte cache line of entries.
#[derive(Default)]
#[repr(C, align(64))]
pub struct SlotLine {
    pub slots: [TableSlot; SLOTS_PER_LINE],
}

/// The bytes of one line.
pub const LINE_BYTES: usize = std::mem::size_of::<SlotLine>();
const _: () = assert!(LINE_BYTES == 64);

impl Slots<SlotLine> {
    /// Empties every entry of a table's lines.
    pub fn clear(&self) {
        for line in &self.slots {
            for slot in &line.slots {
                slot.clear();
            }
        }
    }
}
