//! One entry of the lock-free search tables (the alpha-beta table and the chance table):
//! two `AtomicU64`, the packed data and a check word. Entries come four to a 64-byte cache
//! line ([`SlotLine`]), the unit a key is mapped to.
//!
//! Two layouts share the slot. The plain one (the chance table) stores 64 bits of data and
//! `key ^ data` as the check: a reader accepts the data only if `check ^ data == key`, so an
//! entry torn by two threads writing at once reads as a miss rather than as wrong data. The
//! tagged one (the alpha-beta table) carries 64 + [`TAG_BITS`] bits: the check word's low
//! [`TAG_BITS`] bits are a tag of data, and its high bits hold the low `64 - TAG_BITS` bits
//! of the key xor a hash of the data and the tag. The key is then checked on its low
//! `64 - TAG_BITS` bits (the line was chosen by its high bits), and a torn entry reads as a
//! miss unless two writes' data and tag happen to hash alike on those 50 bits (about one
//! chance in 10^15).

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

    /// The data and tag of a tagged entry stored for `key`; `None` for an empty entry
    /// (tag 0), another key's entry or a torn one.
    #[inline]
    pub fn read_tagged(&self, key: u64) -> Option<(u64, u64)> {
        let (data, check) = self.read();
        let tag = check & TAG_MASK;
        (tag != 0 && check & !TAG_MASK == tagged_check(key, data, tag) & !TAG_MASK)
            .then_some((data, tag))
    }

    /// The tag of a tagged entry (0 when empty), for replacement and statistics that need
    /// no key; not checked against tearing.
    #[inline]
    pub fn tag(&self) -> u64 {
        self.check.load(Ordering::Relaxed) & TAG_MASK
    }

    /// Writes a tagged entry of `data` and `tag` (nonzero, below `1 << TAG_BITS`) for `key`.
    #[inline]
    pub fn write_tagged(&self, key: u64, data: u64, tag: u64) {
        debug_assert!(tag != 0 && tag & !TAG_MASK == 0);
        self.data.store(data, Ordering::Relaxed);
        self.check
            .store(tagged_check(key, data, tag), Ordering::Relaxed);
    }

    /// Empties the entry (data 0).
    pub fn clear(&self) {
        self.check.store(0, Ordering::Relaxed);
        self.data.store(0, Ordering::Relaxed);
    }
}

/// The bits of data a tagged entry keeps in its check word.
pub const TAG_BITS: u32 = 14;
const TAG_MASK: u64 = (1 << TAG_BITS) - 1;

/// The check word of a tagged entry: the tag in the low bits, and above it the key's low
/// bits xor a hash of the data and the tag (the high bits of two odd-constant products, each
/// of which depends on every bit of its factor).
#[inline]
fn tagged_check(key: u64, data: u64, tag: u64) -> u64 {
    const DATA_MIX: u64 = 0x9e37_79b9_7f4a_7c15;
    const TAG_MIX: u64 = 0xc2b2_ae3d_27d4_eb4f;
    let hash = (data.wrapping_mul(DATA_MIX) ^ tag.wrapping_mul(TAG_MIX)) >> TAG_BITS;
    ((key ^ hash) << TAG_BITS) | tag
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
