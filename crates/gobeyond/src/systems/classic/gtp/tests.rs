//! The engine as a controller drives it, command by command.
#![allow(clippy::unwrap_used)]

use std::{
    sync::atomic::{AtomicBool, Ordering},
    time::Duration,
};

use super::*;

fn engine(level: u8, seed: u64) -> GtpEngine {
    let level = gobeyond_bots::Level::new(level).unwrap();
    let search = level.config(seed, 1);
    let timed_playouts = search.as_ref().filter(|_| level < gobeyond_bots::Level::MAX).map(|c| c.playouts);
    let bot = BotOptions { search, timed_playouts, seconds_per_move: None, ponder: false };
    let mut e = GtpEngine::with_overrides(None, None, Some(7.0), seed, bot).unwrap();
    assert_eq!(e.handle("boardsize 9"), Some("=\n\n".into()));
    e
}

fn config(e: &GtpEngine) -> &SearchConfig {
    &e.searcher.as_ref().unwrap().config
}

/// Without a clock the level's playouts bound the search; under the controller's clock the
/// time does (level 10), while a lower level keeps its cap as a strength limit.
#[test]
fn the_controllers_clock_governs_the_search() {
    let mut e = engine(10, 1);
    e.handle("genmove b");
    assert_eq!((config(&e).playouts, config(&e).time), (25_600, None));
    e.handle("time_settings 0 1 1");
    e.handle("time_left w 0.2 1");
    e.handle("genmove w");
    let c = config(&e);
    assert_eq!(c.playouts, u32::MAX);
    let t = c.time.unwrap().as_secs_f64();
    assert!(t > 0.1 && t < 0.2, "{t} s of a 0.2 s period");

    let mut weak = engine(4, 1);
    weak.handle("time_settings 0 1 1");
    weak.handle("genmove b");
    assert_eq!(config(&weak).playouts, 400);
    assert!(config(&weak).time.is_some());
}

/// Pondering follows our own `genmove` only, searches until stopped, and leaves the engine
/// ready for the opponent's move.
#[test]
fn pondering_searches_on_their_time_after_our_move() {
    let mut e = engine(5, 1);
    e.ponder = true;
    assert_eq!(e.ponder_until(&AtomicBool::new(false)), 0, "nothing to ponder before a genmove");
    assert!(e.handle("genmove b").unwrap().starts_with("= "));
    assert_eq!(e.ponder_for, Some(Player(1)));
    let stop = AtomicBool::new(false);
    let playouts = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::SeqCst);
        });
        e.ponder_until(&stop)
    });
    assert!(playouts > 0);
    assert_eq!(e.ponder_for, None);
    assert_eq!(e.handle("play w E5"), Some("=\n\n".into()));
    assert!(e.handle("genmove b").unwrap().starts_with("= "));
    e.handle("showboard");
    assert_eq!(e.ponder_for, None, "only a genmove is pondered on");
}

/// Commands that arrive while the engine ponders are answered, in order, and `quit` ends.
#[test]
fn a_pondering_engine_answers_every_command() {
    let mut e = engine(5, 2);
    e.ponder = true;
    let (reader, mut writer) = std::io::pipe().unwrap();
    let controller = std::thread::spawn(move || {
        for (command, pause) in [("genmove b", 200), ("play w pass", 0), ("genmove b", 0), ("quit", 0)] {
            writeln!(writer, "{command}").unwrap();
            std::thread::sleep(Duration::from_millis(pause));
        }
    });
    let mut out = Vec::new();
    e.run_pondering(std::io::BufReader::new(reader), &mut out).unwrap();
    controller.join().unwrap();
    let text = String::from_utf8(out).unwrap();
    let replies: Vec<&str> = text.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies.len(), 4, "{text}");
    assert!(replies.iter().all(|r| r.starts_with('=')), "{text}");
    assert!(e.quit);
}

/// White's one group with nine eyes fills the board: Black can only pass. The engine
/// resigns at its third hopeless move in a row, not before, and a new game counts anew.
#[test]
fn a_hopeless_game_is_resigned_on_the_third_move_in_a_row() {
    let mut e = engine(10, 1);
    e.playouts = 600;
    let fill = |e: &mut GtpEngine| {
        for (i, c) in "ABCDEFGHJ".chars().enumerate() {
            for r in 1..=9 {
                if i % 3 != 1 || r % 3 != 2 {
                    assert_eq!(e.handle(&format!("play w {c}{r}")), Some("=\n\n".into()));
                }
            }
        }
    };
    fill(&mut e);
    let mut answers = Vec::new();
    for _ in 0..3 {
        answers.push(e.handle("genmove b").unwrap());
        e.handle("play w pass");
    }
    assert_eq!(answers, ["= pass\n\n", "= pass\n\n", "= resign\n\n"]);
    e.handle("clear_board");
    fill(&mut e);
    assert_eq!(e.handle("genmove b").unwrap(), "= pass\n\n");
}

/// Every game draws its own seed; the same --seed gives the same series of seeds.
#[test]
fn each_game_has_its_own_seed() {
    let seeds = |seed: u64| {
        let mut e = engine(10, seed);
        (0..3)
            .map(|_| {
                e.handle("clear_board");
                config(&e).seed
            })
            .collect::<Vec<_>>()
    };
    let a = seeds(5);
    assert!(a[0] != a[1] && a[1] != a[2] && a[0] != a[2], "{a:?}");
    assert_eq!(a, seeds(5));
    assert_ne!(a, seeds(6));
}

#[test]
fn time_commands_are_checked() {
    let mut e = engine(2, 1);
    assert!(e.handle("time_settings 0 1").unwrap().starts_with('?'));
    assert!(e.handle("time_left b -3 0").unwrap().starts_with('?'));
    assert!(e.handle("time_left b 10 x").unwrap().starts_with('?'));
    assert!(e.handle("kgs-time_settings hourglass 5").unwrap().starts_with('?'));
    assert_eq!(e.handle("kgs-time_settings byoyomi 0 1 5"), Some("=\n\n".into()));
}
