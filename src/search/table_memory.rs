//! Memory for the search tables: the number of slots asked for, clamped to what the machine
//! can give and allocated fallibly, so that an impossible `USI_Hash` (or `--hash`) gives a
//! smaller table instead of aborting the process; then filled on every core, in chunks, so
//! that the protocol can interrupt a long fill.
//!
//! Two limits apply. First, no table is planned larger than the memory the kernel reports as
//! available (`MemAvailable` in `/proc/meminfo`, where that file exists) minus a reserve
//! left to the rest of the machine: a quarter of the available memory, and at least
//! 64 MiB ([`planning_limit`]). Linux overcommits, so an allocation far beyond the free
//! memory would succeed and the process would be killed while the table is being filled.
//! Second, the allocation itself is tried with `try_reserve_exact`, halving the slot count
//! after each refusal, and once more after the first success, to leave room for the
//! search's threads. Halving keeps a power-of-two count a power of two, which the chance
//! table relies on.
//!
//! Before the slots are first written, the kernel is asked to back them with huge pages
//! (`memory_hints`). The slots are then written (which makes the kernel supply the pages)
//! on rayon's threads, one chunk of [`FILL_CHUNK_BYTES`] at a time. Between chunks the
//! fill asks the test that [`interruptible`] set on this thread, if any; when it says
//! stop, the table is given up and a one-slot table marked [`Slots::interrupted`] is
//! returned instead, which the searchers replace at their next resize.

use super::memory_hints;
use rayon::prelude::*;
use std::cell::RefCell;
use std::mem::size_of;

/// The slots of a table and whether it is smaller than asked for.
pub struct Slots<T> {
    pub slots: Vec<T>,
    /// The machine could not give the size asked for: the table has fewer slots.
    pub reduced: bool,
    /// The fill was interrupted: the table has one slot, whatever was asked for.
    pub interrupted: bool,
}

impl<T> Slots<T> {
    /// Whether the table is smaller than asked for because memory ran short.
    pub fn is_reduced(&self) -> bool {
        self.reduced
    }

    /// Whether the fill was interrupted (the table then has one slot).
    pub fn is_interrupted(&self) -> bool {
        self.interrupted
    }

    /// Bytes held by the slots (the allocation's capacity, not just its length).
    pub fn allocated_bytes(&self) -> usize {
        self.slots.capacity() * size_of::<T>()
    }
}

/// The least memory left to the rest of the machine when a table is planned.
pub const RESERVE_MIN_BYTES: usize = 64 << 20;

/// The share of the available memory left to the rest of the machine: one part in four.
const RESERVE_SHARE_DIVISOR: usize = 4;

/// Bytes one table may plan for when the kernel reports `available` bytes available: the
/// available memory minus the reserve (a quarter of it, at least [`RESERVE_MIN_BYTES`]).
pub fn planning_limit(available: usize) -> usize {
    available.saturating_sub((available / RESERVE_SHARE_DIVISOR).max(RESERVE_MIN_BYTES))
}

/// Bytes the kernel says can be allocated without swapping, if it says.
fn available_bytes() -> Option<usize> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    mem_available(&meminfo)
}

/// The `MemAvailable` figure of a `/proc/meminfo` text, in bytes.
fn mem_available(meminfo: &str) -> Option<usize> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// Bytes written between two looks at the interruption test (a few milliseconds' work).
pub const FILL_CHUNK_BYTES: usize = 32 << 20;

thread_local! {
    /// The test a fill on this thread asks between chunks (set by [`interruptible`]).
    static INTERRUPTION: RefCell<Option<Box<dyn Fn() -> bool>>> = const { RefCell::new(None) };
}

/// Runs `work` with `stop` as the interruption test of every table fill it makes on this
/// thread: a fill that finds `stop()` true between two chunks gives its table up.
pub fn interruptible<R>(stop: impl Fn() -> bool + 'static, work: impl FnOnce() -> R) -> R {
    let previous = INTERRUPTION.with(|test| test.borrow_mut().replace(Box::new(stop)));
    let result = work();
    INTERRUPTION.with(|test| *test.borrow_mut() = previous);
    result
}

/// Whether the interruption test of this thread (if any) says stop.
fn interruption_requested() -> bool {
    INTERRUPTION.with(|test| test.borrow().as_ref().is_some_and(|stop| stop()))
}

/// Up to `wanted` default slots (at least one), fewer when the machine cannot give them;
/// one slot, marked interrupted, when the fill is interrupted (see [`interruptible`]).
pub fn allocate<T: Default + Send>(wanted: usize) -> Slots<T> {
    let wanted = wanted.max(1);
    let limit = available_bytes().map(|bytes| planning_limit(bytes) / size_of::<T>().max(1));
    // Each trial reservation is given back at once, so the table is allocated only once.
    let count = fit(wanted, limit, |n| {
        Vec::<T>::new().try_reserve_exact(n).is_ok()
    });
    let mut slots = Vec::new();
    slots.reserve_exact(count);
    memory_hints::advise_huge_pages(&slots);
    let chunk = (FILL_CHUNK_BYTES / size_of::<T>().max(1)).max(1);
    while slots.len() < count {
        if interruption_requested() {
            drop(slots);
            log::info!("table fill interrupted: a one-slot table until the next resize");
            return Slots {
                slots: vec![T::default()],
                reduced: true,
                interrupted: true,
            };
        }
        let n = chunk.min(count - slots.len());
        // An indexed parallel iterator writes into the reserved capacity in place.
        slots.par_extend((0..n).into_par_iter().map(|_| T::default()));
    }
    Slots {
        reduced: count < wanted,
        interrupted: false,
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
    fn the_plan_leaves_a_quarter_of_the_available_memory_and_at_least_64_mib() {
        const MIB: usize = 1 << 20;
        const GIB: usize = 1 << 30;
        assert_eq!(planning_limit(24 * GIB), 18 * GIB);
        assert_eq!(planning_limit(2 * GIB), 1536 * MIB);
        assert_eq!(planning_limit(GIB), 768 * MIB);
        assert_eq!(planning_limit(256 * MIB), 192 * MIB);
        assert_eq!(planning_limit(200 * MIB), 136 * MIB);
        assert_eq!(planning_limit(64 * MIB), 0);
        assert_eq!(planning_limit(10 * MIB), 0);
        // USI_Hash 1048576 (1 TiB) of 64-byte lines with 23 464 MiB available (this
        // machine, quiet): 17 598 MiB may be planned, so the halving stops at 16 GiB.
        let meminfo = "MemTotal:       24683520 kB\nMemFree:        23478880 kB\n\
                       MemAvailable:   24027136 kB\n";
        let available = mem_available(meminfo).expect("MemAvailable");
        assert_eq!(available, 23_464 * MIB);
        let lines = planning_limit(available) / 64;
        let count = fit(slots_in_mib(1 << 20, 64), Some(lines), |_| true);
        assert_eq!(count * 64, 16 * GIB);
        // 3 GiB available: 2304 MiB may be planned, a 1 TiB request gets 2 GiB.
        let lines = planning_limit(3 * GIB) / 64;
        let count = fit(slots_in_mib(1 << 20, 64), Some(lines), |_| true);
        assert_eq!(count * 64, 2 * GIB);
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
    }

    #[test]
    fn a_fill_stops_when_interrupted_and_only_then() {
        let wanted = 4 * FILL_CHUNK_BYTES / 8;
        let table = interruptible(|| false, || allocate::<u64>(wanted));
        assert_eq!((table.slots.len(), table.interrupted), (wanted, false));
        let asked = std::rc::Rc::new(std::cell::Cell::new(0));
        let count = asked.clone();
        let table = interruptible(
            move || {
                count.set(count.get() + 1);
                count.get() > 2
            },
            || allocate::<u64>(wanted),
        );
        assert!(table.interrupted && table.reduced);
        assert_eq!(table.slots.len(), 1);
        assert_eq!(asked.get(), 3, "asked between chunks");
        // Outside the scope the test is gone.
        assert!(!allocate::<u64>(wanted).interrupted);
    }

    #[test]
    fn sizes_in_mib_never_overflow() {
        assert_eq!(slots_in_mib(1, 64), 16_384);
        assert_eq!(slots_in_mib(usize::MAX, 64), usize::MAX / 64);
    }
}
