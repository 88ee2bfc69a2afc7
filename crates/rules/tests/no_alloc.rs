//! Playouts and position copies must not allocate: a counting allocator proves it.
#![allow(clippy::unwrap_used)]
// tests may panic on setup failures
// The counting allocator below (and its like in `crates/server/tests/memory/main.rs`) is the only
// unsafe code in the project.
#![allow(unsafe_code)]

use std::{
    alloc::{GlobalAlloc, Layout, System},
    sync::Arc,
};

use gobeyond_rules::{
    Board, Player, Rng,
    playout::{PlayoutTables, light_playout},
};

struct Counting;

thread_local! {
    /// Allocations made by this thread: the test harness's own (reporting another test's
    /// result) must not count.
    static ALLOCATIONS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn allocations() -> usize {
    ALLOCATIONS.with(|a| a.get())
}

// SAFETY: every method forwards to the system allocator unchanged; it only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
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
        let before = allocations();
        let mut moves = 0;
        for _ in 0..200 {
            board.copy_from(&empty);
            moves += light_playout(&mut board, &tables, Player(0), players, &mut rng, cap).moves;
        }
        let after = allocations();
        assert!(moves > 200 * map.len() as u32 / 2, "{spec}: playouts ran ({moves} moves)");
        assert_eq!(after - before, 0, "{spec}: allocations inside 200 playouts");
    }
}

/// Gengo's board and game: random games after a warm-up, copies by `clone_from`, no allocation
/// in play — only the outcome at each game's end (its scores, ranking and places).
#[test]
fn gengo_games_and_copies_do_not_allocate() {
    use gobeyond_rules::{
        Game,
        gengo::{Action, GengoGame, GengoRules},
    };
    for spec in ["square:19", "hex:5", "torus:9"] {
        let map = Arc::new(gobeyond_maps::generate(spec).unwrap());
        let mut empty = GengoGame::new(map.clone(), GengoRules::default(), &[], Player(0)).unwrap();
        empty.set_recording(false);
        let mut game = empty.clone();
        let mut rng = Rng::new(5);
        let n = map.len() as u32;
        let play_out = |game: &mut GengoGame, rng: &mut Rng| {
            let mut plays = 0;
            while game.outcome().is_none() {
                // A few tries for an open space, then a pass.
                let mut placed = false;
                for _ in 0..8 {
                    let p = rng.below(n);
                    if game.board().open_for(p, game.next_player()) && game.play(Action::Place(p)).is_ok() {
                        placed = true;
                        plays += 1;
                        break;
                    }
                }
                if !placed {
                    game.play(Action::Pass).unwrap();
                }
            }
            plays
        };
        for _ in 0..10 {
            game.clone_from(&empty);
            play_out(&mut game, &mut rng);
        }
        let before = allocations();
        let mut plays = 0;
        for _ in 0..100 {
            game.clone_from(&empty);
            plays += play_out(&mut game, &mut rng);
        }
        let after = allocations();
        assert!(plays > 100 * n / 20, "{spec}: games ran ({plays} plays)");
        // Three per game for the outcome, and a few while the input list grows to a game longer
        // than the warm-up's.
        assert!(after - before <= 3 * 100 + 10, "{spec}: {} allocations inside 100 games", after - before);
    }
}
