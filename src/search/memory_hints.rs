//! The hints the search gives the memory system about its big tables: back them with huge
//! pages, and start loading the cache line a lookup is about to read. Hints only: neither
//! changes what any table holds, so the search is the same with or without them, only
//! faster. This is the crate's one module with `unsafe` code, each use with its argument.

use std::mem::size_of;

/// The huge-page size the kernel uses for transparent huge pages on x86-64 and most arm64.
const HUGE_PAGE_BYTES: usize = 2 << 20;

/// Asks the kernel to back the whole huge pages inside `slots`' buffer (its capacity, not
/// just its length) with transparent huge pages. Call it before the buffer is first
/// written, so the pages are huge from the start. A table lookup then walks one page-table
/// level fewer and misses the TLB far less often. Refusal (a kernel without transparent
/// huge pages, or with them turned off) is harmless and only logged.
pub fn advise_huge_pages<T>(slots: &Vec<T>) {
    let start = slots.as_ptr() as usize;
    let end = start + slots.capacity() * size_of::<T>();
    let first = start.next_multiple_of(HUGE_PAGE_BYTES);
    let last = end / HUGE_PAGE_BYTES * HUGE_PAGE_BYTES;
    if last > first {
        advise(first, last - first);
    }
}

#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise(start: usize, len: usize) {
    // SAFETY: the range [start, start + len) lies inside one live allocation owned by the
    // caller's Vec (its capacity), and MADV_HUGEPAGE only tells the kernel how to back those
    // pages; it never unmaps them or changes their contents, so no Rust reference into the
    // buffer is invalidated.
    let rc = unsafe { libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE) };
    if rc != 0 {
        log::debug!(
            "huge pages not available for a {len}-byte table: {}",
            std::io::Error::last_os_error()
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_start: usize, _len: usize) {}

/// Starts loading the cache line holding `*line` into every cache level, so that a read a
/// little later does not wait on memory.
#[inline]
pub fn prefetch<T>(line: &T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: a prefetch is a hint that never faults and never changes memory; the pointer
    // comes from a live reference in any case.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((line as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = line;
}
