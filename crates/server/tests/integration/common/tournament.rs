//! Tournament helpers shared by the tournament suites (docs/api.md "Tournaments"): a small
//! Swiss body, creating with bots, and driving a tournament to a state (people resign).

use std::time::Duration;

use serde_json::{Value, json};

use super::Client;

/// A small Swiss of square:5 Tromp-Taylor games without clocks.
pub fn swiss(name: &str) -> Value {
    json!({
        "name": name, "system": "tromp-taylor", "map": "square:5", "players_per_game": 2,
        "format": "swiss", "rounds": 2, "max_entrants": 4, "min_entrants": 2, "entry": "open",
    })
}

pub fn with(mut body: Value, key: &str, value: Value) -> Value {
    body[key] = value;
    body
}

/// Creates a tournament from `body` with bots at `levels` and returns its id.
pub async fn create(creator: &Client, body: Value, levels: &[u8]) -> i64 {
    let (status, v) = creator.post("/api/tournaments", with(body, "bots", json!(levels))).await;
    assert_eq!(status, 201, "{v}");
    v["id"].as_i64().unwrap()
}

/// Reads the tournament until `done` holds of it; people in `players` resign each game of theirs
/// still playing (so that games with people end at once). Bounded by attempts, not by time.
pub async fn drive(players: &[&Client], id: i64, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..6000 {
        let (status, view) = players[0].get(&format!("/api/tournaments/{id}")).await;
        assert_eq!(status, 200, "{view}");
        if done(&view) {
            return view;
        }
        for round in view["rounds"].as_array().unwrap() {
            for table in round["tables"].as_array().unwrap() {
                let Some(game) = table["game_id"].as_i64() else { continue };
                if !table["places"].is_null() {
                    continue;
                }
                for p in players {
                    let mine = view["entrants"].as_array().unwrap().iter().find(|e| e["user_id"] == p.id());
                    let Some(me) = mine else { continue };
                    if !table["seats"].as_array().unwrap().contains(&me["id"]) {
                        continue;
                    }
                    let (_, info) = p.get(&format!("/api/games/{game}")).await;
                    if info["status"] == "finished" {
                        continue;
                    }
                    let mut socket = p.socket().await;
                    socket.watch(game, None).await;
                    // Refused when the game ended meanwhile: the next look sees it.
                    let _ = socket.act(game, json!({"type": "resign"})).await;
                    socket.close().await;
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("tournament {id} did not get there");
}

pub fn finished(view: &Value) -> bool {
    view["summary"]["state"] == "finished"
}

/// Every round's tables have places, and the points given sum to the standings' points.
pub fn check_results(view: &Value, per_place: &[f64]) {
    let mut given = 0.0;
    for round in view["rounds"].as_array().unwrap() {
        for table in round["tables"].as_array().unwrap() {
            let places = table["places"].as_array().expect("every table done");
            let n = places.len();
            for p in places {
                let p = p.as_u64().unwrap() as usize;
                // Shared places share points: summed over a table they add up the same.
                given += per_place.get(p - 1).copied().unwrap_or(0.0);
                assert!((1..=n).contains(&p));
            }
        }
    }
    let rows = view["standings"]["rows"].as_array().unwrap();
    let points: f64 = rows.iter().map(|r| r["points"].as_f64().unwrap()).sum();
    let byes = rows.iter().map(|r| r["byes"].as_u64().unwrap()).sum::<u64>();
    assert!(points >= given - 1e-9 || byes > 0, "standings {points} vs games {given}: {view}");
}
