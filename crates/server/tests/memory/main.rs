//! The server's memory, measured: the estimates it budgets games by against what games really
//! allocate (`estimates.rs`), and how much the whole process grows under requests that once made
//! it hold too much (`growth.rs`). A binary of their own, one test at a time: resident memory is
//! the process's, and a test running beside (a bot's search, another test's games) would grow it.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// A counting allocator, as in `crates/rules/tests/no_alloc.rs`: the only unsafe code besides.
#![allow(unsafe_code)]

use std::{
    alloc::{GlobalAlloc, Layout, System},
    cell::Cell,
};

#[path = "../integration/common/mod.rs"]
mod common;

mod estimates;
mod growth;

/// Held for the whole of each test: the growth a test measures is its own.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

struct Counting;

thread_local! {
    /// Bytes this thread holds: the harness's own threads do not count.
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

fn count(bytes: isize) {
    // `try_with`: the allocator runs while thread-locals are torn down too.
    let _ = LIVE.try_with(|l| l.set(l.get() + bytes));
}

// SAFETY: every method forwards to the system allocator unchanged; it only counts bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Bytes the calling thread holds now.
pub fn live() -> i64 {
    LIVE.with(Cell::get) as i64
}
