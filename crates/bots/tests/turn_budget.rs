//! Issue 41, item 13: a level's playouts are per turn. A turn of several actions by one seat
//! (BeSiege's pie stones, a drop and a move, a choice of White and the turn after it) shares the
//! level's playouts, as the server shares a turn's time, so low levels answer at once; and
//! (issue 45) level 1 never searches.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::{sync::Arc, time::Duration};

use gobeyond_bots::{Bot, Computer, Level, Searcher, Strategy};
use gobeyond_rules::{
    Game, RuleSystem,
    way_of_go::{BesiegeGame, BesiegeRules, WayOfGoGame, WayOfGoRules},
};

/// Level 3's playouts per turn.
const LEVEL_3: u64 = 200;

/// Plays `game` between two level-3 bots for `actions` actions. A turn is what the server
/// times as one: the actions one seat takes in a row. Returns each turn's playouts and how
/// many of its actions searched.
fn turns_played<G: Computer>(mut game: G, actions: usize) -> Vec<(u64, usize)> {
    let level = Strategy::Search(Level::new(3).unwrap());
    let mut bots: Vec<Bot<G>> = (0..2).map(|s| Bot::new(level, s, 1, None)).collect();
    let mut turns: Vec<(u64, usize)> = Vec::new();
    let mut last_seat = None;
    for _ in 0..actions {
        let Some(seat) = game.to_move() else { break };
        if last_seat != Some(seat) {
            turns.push((0, 0));
            last_seat = Some(seat);
        }
        let bot = &mut bots[seat.index()];
        let before = bot.playouts();
        let input = bot.decide(&game, seat).expect("a bot always answers");
        game.submit(seat, &input).unwrap();
        let spent = bot.playouts() - before;
        let turn = turns.last_mut().unwrap();
        *turn = (turn.0 + spent, turn.1 + usize::from(spent > 0));
    }
    turns
}

fn map(spec: &str) -> Arc<gobeyond_maps::Map> {
    Arc::new(gobeyond_maps::generate(spec).unwrap())
}

/// Every BeSiege turn costs at most the level's playouts, however many actions it took: the
/// pie's three stones, a drop and a move. (Before, each action searched the level's whole
/// budget: a two-action turn cost twice as much, the pie three times.)
#[test]
fn a_besiege_turn_of_several_actions_spends_at_most_the_levels_playouts() {
    let rules = BesiegeRules { max_turns: Some(12), ..BesiegeRules::default() };
    let turns = turns_played(BesiegeGame::new(map("square:9"), rules).unwrap(), 200);
    assert!(turns.len() >= 12, "{turns:?}");
    for (i, &(playouts, _)) in turns.iter().enumerate() {
        assert!(playouts <= LEVEL_3, "turn {i}: {playouts} playouts of {LEVEL_3}: {turns:?}");
    }
    // The pie is one seat's three searched stones; later turns search two actions each.
    assert_eq!(turns[0].1, 3, "{turns:?}");
    assert!(turns.iter().filter(|t| t.1 >= 2).count() >= 6, "{turns:?}");
    // And the budget is used, not skipped: a turn of two searched actions spends nearly all.
    assert!(turns.iter().any(|&(p, n)| n == 2 && p == LEVEL_3), "{turns:?}");
}

/// The Way of Go's turns are made the same way and share the same way.
#[test]
fn a_way_of_go_turn_spends_at_most_the_levels_playouts() {
    let turns = turns_played(WayOfGoGame::new(map("square:9"), WayOfGoRules::default()).unwrap(), 60);
    assert!(turns.len() >= 10, "{turns:?}");
    assert!(turns.iter().all(|t| t.0 <= LEVEL_3), "{turns:?}");
    assert!(turns.iter().filter(|t| t.1 >= 2).count() >= 3, "{turns:?}");
}

/// A search whose time is already up still answers, with one simulation (the root's
/// expansion, so the priors' favourite), and no more: the deadline is read before every
/// simulation after the first. No wall clock is asserted: the deadline is zero.
#[test]
fn a_search_out_of_time_answers_after_one_simulation() {
    let game = BesiegeGame::new(map("square:13"), BesiegeRules::default()).unwrap();
    let mut searcher = Searcher::new(gobeyond_bots::SearchConfig::default());
    let analysis = searcher.search_within(&game, 10_000, Some(std::time::Instant::now()));
    assert_eq!(analysis.playouts, 1);
    assert!(analysis.best.is_some_and(|a| game.check_action(a).is_ok()), "{analysis:?}");
    // A bot whose time is zero sends a legal input too.
    let level = Strategy::Search(Level::new(5).unwrap());
    let input = Bot::new(level, 1, 1, Some(Duration::ZERO)).decide(&game, game.to_move().unwrap());
    assert!(input.is_some_and(|m| game.clone().submit(game.to_move().unwrap(), &m).is_ok()));
}

/// Issue 45: level 1 plays at random and answers at once — a whole BeSiege game of level-1
/// decisions (`Bot::decide`, as the server's seats decide) runs no search and no playout, and
/// every answer is legal. (Work is counted, not time.)
#[test]
fn level_1_besiege_decisions_do_no_search() {
    let rules = BesiegeRules { max_turns: Some(40), ..BesiegeRules::default() };
    let mut game = BesiegeGame::new(map("square:13"), rules).unwrap();
    let level = Strategy::Search(Level::new(1).unwrap());
    let mut bots: Vec<Bot<BesiegeGame>> = (0..2).map(|s| Bot::new(level, s, 1, None)).collect();
    assert!(bots.iter().all(|b| !b.searches()));
    let mut actions = 0;
    while let Some(seat) = game.to_move() {
        let input = bots[seat.index()].decide(&game, seat).expect("a bot always answers");
        game.submit(seat, &input).unwrap();
        actions += 1;
    }
    assert!(actions >= 40, "{actions} actions");
    assert!(bots.iter().all(|b| b.playouts() == 0), "level 1 searched");
}

/// Not a test: the strength series of benchmarks.md (BeSiege `square:13`, 60 turns, seats
/// alternating), `PAIRS=3v4,2v3 GAMES=30 cargo test -p gobeyond-bots --test turn_budget --
/// --ignored --nocapture`.
#[test]
#[ignore]
fn besiege_level_series() {
    let games: u64 = std::env::var("GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    let pairs = std::env::var("PAIRS").unwrap_or_else(|_| "3v4".into());
    let map = map("square:13");
    for pair in pairs.split(',') {
        let (a, b) = pair.split_once('v').expect("pairs like 3v4");
        let levels = [a, b].map(|l| Strategy::Search(Level::new(l.parse().unwrap()).unwrap()));
        let (mut record, mut captures) = ([0; 3], Vec::new());
        for g in 0..games {
            // The first level plays seat 0 in even games, seat 1 in odd ones.
            let first = (g % 2) as usize;
            let rules = BesiegeRules { max_turns: Some(60), ..BesiegeRules::default() };
            let mut game = BesiegeGame::new(map.clone(), rules).unwrap();
            let mut bots: Vec<Bot<BesiegeGame>> = (0..2)
                .map(|s| Bot::new(levels[usize::from(s != first)], 100 * g + s as u64, 1, None))
                .collect();
            while let Some(seat) = game.to_move() {
                let input = bots[seat.index()].decide(&game, seat).unwrap();
                game.submit(seat, &input).unwrap();
            }
            let places = game.outcome().unwrap().places.clone();
            let seat = |i: usize| gobeyond_rules::Player(i as u8);
            captures.push(format!("{}-{}", game.captures(seat(first)), game.captures(seat(1 - first))));
            record[match (places[first] == 1, places[1 - first] == 1) {
                (true, false) => 0,
                (false, true) => 2,
                _ => 1,
            }] += 1;
        }
        println!(
            "level {a} against level {b}: {record:?} (wins, draws, losses); captures {}",
            captures.join(" ")
        );
    }
}
