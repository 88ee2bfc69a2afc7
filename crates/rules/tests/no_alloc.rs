//! Playouts and position copies must not allocate: a counting allocator proves it.
#![allow(clippy::unwrap_used)] // tests may panic on setup failures
// The counting allocator below is the only unsafe code in the project.
#![allow(unsafe_code)]

use std::{
    alloc::{GlobalAlloc, Layout, System},
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
};

use gobeyond_rules::{
    Board, Player, Rng,
    playout::{PlayoutTables, light_playout},
};

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every method forwards to the system allocator unchanged; it only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn playouts_and_copies_do_not_allocate() {
    for (spec, players) in [("square:19", 2u8), ("goldberg:4,0", 3), ("torus:9", 4), ("hex:5", 2)] {
        let map = Arc::new(gobeyond_maps::generate(spec).unwrap());
        let tables = PlayoutTables::new(&map);
        let empty = Board::new(map.clone());
        let mut board = empty.clone();
        let mut rng = Rng::new(3);
        let cap = 3 * map.len() as u32 + 100;
        // One warm-up playout may grow scratch buffers to their working size.
        light_playout(&mut board, &tables, Player(0), players, &mut rng, cap);
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        let mut moves = 0;
        for _ in 0..200 {
            board.copy_from(&empty);
            moves += light_playout(&mut board, &tables, Player(0), players, &mut rng, cap).moves;
        }
        let after = ALLOCATIONS.load(Ordering::Relaxed);
        assert!(moves > 200 * map.len() as u32 / 2, "{spec}: playouts ran ({moves} moves)");
        assert_eq!(after - before, 0, "{spec}: allocations inside 200 playouts");
    }
}
