//! Memory for the search tables: the number of slots asked for, clamped to what the machine
//! can give and allocated fallibly, so that an impossible `USI_Hash` (or `--hash`) gives a
//! smaller table instead of aborting the process.
//!
//! Two limits apply. First, no table is planned larger than nine tenths of the memory the
//! kernel reports as available (`MemAvailable` in `/proc/meminfo`, where that file exists):
//! Linux overcommits, so an allocation far beyond the free memory would succeed and the
//! process would be killed while the table is being filled. Second, the allocation itself
//! is tried with `try_reserve_exact`, halving the slot count after each refusal, and once
//! more after the first success, to leave room for the search's threads. Halving keeps a
//! power-of-two count a power of two, which the chance table relies on.
//! Before the slots are first written, the kernel is asked to back them with huge pages
//! (`memory_hints`).

use super::memory_hints;
use std::mem::size_of;

/// The slots of a table and whether it is smaller than asked for.
pub struct Slots<T> {
    pub slots: Vec<T>,
    /// The machine could not give the size asked for: the table has fewer slots.
    pub reduced: bool,
}

impl<T> Slots<T> {
    /// Whether the table is smaller than asked for because memory ran short.
    pub fn is_reduced(&self) -> bool {
        self.reduced
    }

    /// Bytes held by the slots (the allocation's capacity, not just its length).
    pub fn allocated_bytes(&self) -> usize {
        self.slots.capacity() * size_of::<T>()
    }
}

/// The share of the available memory one table may plan for: nine tenths.
const AVAILABLE_SHARE: (usize, usize) = (9, 10);

/// Bytes the kernel says can be allocated without swapping, if it says.
fn available_bytes() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// Up to `wanted` default slots (at least one), fewer when the machine cannot give them.
pub fn allocate<T: Default>(wanted: usize) -> Slots<T> {
    let wanted = wanted.max(1);
    let limit = available_bytes().map(|bytes| {
        let (num, den) = AVAILABLE_SHARE;
        (bytes / den).saturating_mul(num) / size_of::<T>().max(1)
    });
    // Each trial reservation is given back at once, so the table is allocated only once.
    let count = fit(wanted, limit, |n| {
        Vec::<T>::new().try_reserve_exact(n).is_ok()
    });
    let mut slots = Vec::new();
    slots.reserve_exact(count);
    memory_hints::advise_huge_pages(&slots);
    slots.resize_with(count, T::default);
    Slots {
        reduced: count < wanted,
        slots,
    }
}

/// The slot count to allocate: `wanted` halved until it is within `limit` (if any) and
/// `reserve` succeeds; after a refused reservation, halved once more, so that the threads and
/// stacks a search needs still fit beside the table. One slot is the least; if even that
/// cannot be reserved, the ordinary allocation failure follows when the slots are filled.
fn fit(wanted: usize, limit: Option<usize>, mut reserve: impl FnMut(usize) -> bool) -> usize {
    let mut count = wanted.max(1);
    while count > 1 && limit.is_some_and(|limit| count > limit) {
        count /= 2;
    }
    let mut refused = false;
    while count > 1 && !reserve(count) {
        refused = true;
        count /= 2;
    }
    if refused && count > 1 {
        count /= 2;
    }
    count
}

/// Slots of `slot_bytes` bytes that fit in `mib` MiB, without overflowing.
pub fn slots_in_mib(mib: usize, slot_bytes: usize) -> usize {
    mib.saturating_mul(1 << 20) / slot_bytes.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_over_the_limit_or_refused_is_halved() {
        let always = |_: usize| true;
        assert_eq!(fit(1 << 40, Some(1000), always), 512);
        assert_eq!(fit(1 << 40, None, |n: usize| n <= 1 << 20), 1 << 19);
        assert_eq!(fit(24, Some(7), |n: usize| n <= 3), 1);
        assert_eq!(fit(24, Some(7), |n: usize| n <= 6), 6);
        assert_eq!(fit(5, None, |_: usize| false), 1);
        assert_eq!(fit(5, None, always), 5);
    }

    #[test]
    fn an_allocation_beyond_the_address_space_is_refused_without_abort() {
        // More bytes than a Vec may hold: the reservation fails at once, and the halving
        // reaches a size that fits (here refused above 1024 slots so the test stays cheap),
        // then halves once more.
        let mut probe: Vec<[u64; 8]> = Vec::new();
        assert!(probe.try_reserve_exact(usize::MAX / 8).is_err());
        let count = fit(usize::MAX / 8, None, |n| {
            n <= 1 << 10 && probe.try_reserve_exact(n).is_ok()
        });
        assert!(count <= 1 << 9 && count > 1 << 8, "{count}");
    }

    #[test]
    fn a_modest_size_is_given_in_full() {
        let table = allocate::<u64>(1000);
        assert!(!table.reduced);
        assert_eq!(table.slots.len(), 1000);
        assert_eq!(allocate::<u64>(0).slots.len(), 1);
    }

    #[test]
    fn sizes_in_mib_never_overflow() {
        assert_eq!(slots_in_mib(1, 64), 16_384);
        assert_eq!(slots_in_mib(usize::MAX, 64), usize::MAX / 64);
    }
}
