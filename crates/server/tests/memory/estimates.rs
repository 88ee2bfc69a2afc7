//! The memory estimates the server budgets its games by (`table/size.rs`,
//! `shared_maps::map_bytes`) against what games really allocate: for every rule system, on a
//! 19×19 board and on the largest custom map a server allows, after a game's worth of moves. The
//! counting allocator of `main.rs` counts this thread's bytes only.

use gobeyond_rules::{Rng, registry::SYSTEMS};
use gobeyond_server::{
    setup::{GameSetup, NewGame},
    shared_maps,
    table::size::own_bytes,
};
use serde_json::json;

use crate::{ONE_AT_A_TIME, common, live};

fn setup(system: &str, map: serde_json::Value, players: usize) -> Option<GameSetup> {
    let new: NewGame =
        serde_json::from_value(json!({"rules": system, "map": map, "players": players})).ok()?;
    new.validate().ok()
}

#[test]
fn the_estimates_cover_what_games_really_hold() {
    let _alone = ONE_AT_A_TIME.blocking_lock();
    let maps = [json!("square:19"), common::largest_custom_map("largest")];
    let mut checked = 0;
    for system in SYSTEMS {
        for map in &maps {
            let Some((setup, players)) =
                [2, 4, 3].iter().find_map(|&p| Some((setup(system.name, map.clone(), p)?, p)))
            else {
                continue;
            };
            let text = serde_json::to_string(&setup).unwrap();
            drop(setup);
            // The map, as sent and as built, shared by every game of it.
            let before = live();
            let mut setup: GameSetup = serde_json::from_str(&text).unwrap();
            setup.share_map().unwrap();
            let (source, built) = shared_maps::share(setup.map.clone()).unwrap();
            // The map's table of walks, built on a game's first walk along a line, is the map's.
            let _ = built.lines().map(|l| l.walk(0, 0, 1));
            // So are its balls, which a Tribal Go game builds when it starts.
            let _ = built.balls();
            let map_measured = live() - before;
            let map_estimate = shared_maps::map_bytes(&source, &built) as i64;
            // A game's own state after many moves, with its log.
            let before = live();
            let mut game = setup.new_game().unwrap();
            let mut rng = Rng::new(7);
            let (mut log, mut actions) = (Vec::new(), 0);
            for _ in 0..2000 {
                if actions == 300 || game.outcome().is_some() {
                    break;
                }
                // Chance as the server draws it, else a move of the seat to play that does not
                // end the game (timeouts and resignations would end it at once).
                let (seat, input) = match game.draw_chance(&mut rng) {
                    Some(drawn) => drawn,
                    None => {
                        let Some(&seat) = game.waiting_for().first() else { break };
                        (seat, game.sample_input(seat, &mut rng))
                    }
                };
                let mut trial = game.clone();
                if trial.submit(seat, &input).is_err() || (trial.outcome().is_some() && actions < 250) {
                    continue;
                }
                drop(trial);
                game.submit(seat, &input).unwrap();
                log.push(serde_json::to_string(&input).unwrap());
                actions += 1;
            }
            let own_measured = live() - before;
            let log_bytes: usize = log.iter().map(String::len).sum();
            let events_bytes = game.events_json(0).get().len();
            let own_estimate =
                own_bytes(built.len(), system.state_bytes_per_node, log_bytes, actions, events_bytes) as i64;
            let what =
                format!("{} on {} nodes, {players} players, {actions} actions", system.name, built.len());
            println!(
                "{what}, events {events_bytes} B: map {map_measured} / {map_estimate} B, game {own_measured} / {own_estimate} B"
            );
            assert!(
                map_measured <= map_estimate,
                "{what}: the map holds {map_measured} B, estimated {map_estimate}"
            );
            assert!(
                own_measured <= own_estimate,
                "{what}: the game holds {own_measured} B, estimated {own_estimate}"
            );
            // Over, but not so far over that the budget would hold far fewer games than it could.
            let (measured, estimate) = (map_measured + own_measured, map_estimate + own_estimate);
            assert!(
                estimate <= 3 * measured.max(128 * 1024),
                "{what}: {estimate} B estimated, {measured} B held"
            );
            drop((game, setup, source, built, log));
            checked += 1;
        }
    }
    assert!(checked >= 2 * SYSTEMS.len() - 2, "every system measured on both maps: {checked}");
}
