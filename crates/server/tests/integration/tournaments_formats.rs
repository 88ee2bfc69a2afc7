//! Tournament formats the director runs beyond round after round (issue 44, docs/tournaments.md):
//! a double knockout to its one winner, an arena over its window with a late entry, forfeits by
//! absence and requested byes in a Swiss with live clocks, and the crosstable's links to games.

use std::collections::HashMap;

use crate::common::tournament::{create, drive, finished, with};
use crate::common::{Client, TestServer, postgres_url, sqlite_url};
use serde_json::{Value, json};

on_both!(
    formats_refuse_what_they_cannot_run,
    a_double_knockout_of_bots_is_run_to_its_winner,
    an_arena_plays_over_its_window_with_a_late_entry,
    absent_players_forfeit_and_requested_byes_score,
);

const LIVE: &str = r#"{"kind": "fischer", "main_seconds": 600, "increment_seconds": 0}"#;

fn body(name: &str, format: &str) -> Value {
    json!({
        "name": name, "system": "tromp-taylor", "map": "square:5", "players_per_game": 2,
        "format": format, "rounds": 0, "max_entrants": 6, "min_entrants": 2, "entry": "open",
    })
}

fn live() -> Value {
    serde_json::from_str(LIVE).unwrap()
}

fn tables(view: &Value) -> impl Iterator<Item = &Value> {
    view["rounds"].as_array().unwrap().iter().flat_map(|r| r["tables"].as_array().unwrap())
}

/// Games each entrant sat at (made or finished).
fn games_of(view: &Value) -> HashMap<i64, usize> {
    let mut n = HashMap::new();
    for table in tables(view) {
        for seat in table["seats"].as_array().unwrap() {
            *n.entry(seat.as_i64().unwrap()).or_default() += 1;
        }
    }
    n
}

fn row_of(view: &Value, entrant: i64) -> &Value {
    view["standings"]["rows"].as_array().unwrap().iter().find(|r| r["entrant"] == entrant).unwrap()
}

fn entrant_of(view: &Value, who: &Client) -> i64 {
    view["entrants"].as_array().unwrap().iter().find(|e| e["user_id"] == who.id()).unwrap()["id"]
        .as_i64()
        .unwrap()
}

async fn formats_refuse_what_they_cannot_run(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let arena = with(body("arena", "arena"), "time_control", live());
    let cases = [
        (with(body("de", "double_elimination"), "players_per_game", json!(3)), "double knockout"),
        (with(body("s", "swiss"), "arena_minutes", json!(10)), "arena_minutes"),
        (arena.clone(), "arena_minutes"),
        (with(arena.clone(), "arena_minutes", json!(4)), "arena_minutes: 5 to 1440"),
        (with(arena.clone(), "arena_minutes", json!(1441)), "arena_minutes: 5 to 1440"),
        (with(with(arena.clone(), "arena_minutes", json!(10)), "time_control", json!("none")), "live clock"),
    ];
    for (bad, why) in cases {
        let (status, v) = a.post("/api/tournaments", bad.clone()).await;
        assert_eq!(status, 400, "{bad} → {v}");
        assert!(v["error"].as_str().unwrap().contains(why), "{bad} → {v}");
    }
    let ok = with(arena, "arena_minutes", json!(5));
    assert_eq!(a.post("/api/tournaments", ok).await.0, 201);
    server.stop().await;
}

/// Losses from decisive games only (a shared place is a loss only for the lower seed, which the
/// test does not know): never more than the director counts.
fn decisive_losses(view: &Value, before_round: i64) -> HashMap<i64, u32> {
    let mut losses = HashMap::new();
    for round in
        view["rounds"].as_array().unwrap().iter().filter(|r| r["number"].as_i64().unwrap() < before_round)
    {
        for table in round["tables"].as_array().unwrap() {
            let places = table["places"].as_array().unwrap();
            let best = places.iter().filter_map(Value::as_u64).min().unwrap();
            let winners = places.iter().filter(|p| p.as_u64() == Some(best)).count();
            for (seat, place) in table["seats"].as_array().unwrap().iter().zip(places) {
                if winners == 1 && place.as_u64() != Some(best) {
                    *losses.entry(seat.as_i64().unwrap()).or_default() += 1;
                }
            }
        }
        for id in round["absent"].as_array().unwrap() {
            *losses.entry(id.as_i64().unwrap()).or_default() += 1;
        }
    }
    losses
}

async fn a_double_knockout_of_bots_is_run_to_its_winner(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let id = create(&a, body("double", "double_elimination"), &[1, 1, 1, 1]).await;
    assert_eq!(a.post(&format!("/api/tournaments/{id}/start"), json!({})).await.0, 200);
    let view = drive(&[&a], id, finished).await;
    let rounds = view["rounds"].as_array().unwrap();
    // Four entrants: at least three rounds (two of the winners' bracket, the final).
    assert!(rounds.len() >= 3, "{view}");
    for round in rounds {
        let number = round["number"].as_i64().unwrap();
        let losses = decisive_losses(&view, number);
        for table in round["tables"].as_array().unwrap() {
            assert!(!table["places"].is_null(), "every game finished: {view}");
            for seat in table["seats"].as_array().unwrap() {
                let lost = losses.get(&seat.as_i64().unwrap()).copied().unwrap_or(0);
                assert!(lost < 2, "entrant {seat} lost twice yet plays round {number}: {view}");
            }
        }
    }
    let rows = view["standings"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["eliminated"], false, "{view}");
    assert_eq!(rows[0]["place"], 1, "{view}");
    assert!(rows[1..].iter().all(|r| r["eliminated"] == true), "{view}");
    let winner = rows[0]["entrant"].as_i64().unwrap();
    assert!(decisive_losses(&view, i64::MAX).get(&winner).copied().unwrap_or(0) < 2, "{view}");
    server.stop().await;
}

async fn an_arena_plays_over_its_window_with_a_late_entry(db: &str) {
    let server = TestServer::start_with_test_hooks(db).await;
    let a = Client::guest(&server).await;
    // An hour: the window closes when the test moves the clock, never by itself mid-test.
    let arena = with(with(body("arena", "arena"), "time_control", live()), "arena_minutes", json!(60));
    let id = create(&a, arena, &[1, 1, 1, 1]).await;
    assert_eq!(a.post(&format!("/api/tournaments/{id}/start"), json!({})).await.0, 200);
    // Tables form as entrants come free: each bot plays several games while the window is open.
    let view = drive(&[&a], id, |v| games_of(v).len() == 4 && games_of(v).values().all(|&n| n >= 2)).await;
    assert_eq!(view["summary"]["state"], "running", "{view}");
    assert!(view["arena"]["ends_in_ms"].as_i64().unwrap() > 0, "{view}");
    // A late entry: a player with the page open joins the running arena and is paired.
    let late = Client::guest(&server).await;
    let (_, seen) = late.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(seen["may_join"], true, "{seen}");
    let (status, joined) = late.post(&format!("/api/tournaments/{id}/join"), json!({})).await;
    assert_eq!(status, 200, "{joined}");
    let me = joined["entrant"].as_i64().unwrap();
    let view = drive(&[&late], id, |v| games_of(v).get(&me).is_some_and(|&n| n >= 1)).await;
    assert_eq!(view["summary"]["state"], "running", "{view}");
    // The window closes: games in play finish and count, no table forms, the arena finishes.
    let (status, _) = a.post("/api/test/advance", json!({"seconds": 3601})).await;
    assert_eq!(status, 200);
    let view = drive(&[&late, &a], id, finished).await;
    assert_eq!(view["arena"]["ends_in_ms"], 0, "{view}");
    assert!(tables(&view).all(|t| !t["places"].is_null()), "every game counted: {view}");
    let rows = view["standings"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5, "{view}");
    let games = games_of(&view);
    for row in rows {
        let entrant = row["entrant"].as_i64().unwrap();
        assert_eq!(row["games"].as_u64().unwrap() as usize, games[&entrant], "{view}");
    }
    assert!(games[&me] >= 1);
    let points: f64 = rows.iter().map(|r| r["points"].as_f64().unwrap()).sum();
    assert!(
        (points - tables(&view).count() as f64).abs() < 1e-9
            || tables(&view).any(|t| t["places"][0] == t["places"][1])
    );
    server.stop().await;
}

async fn absent_players_forfeit_and_requested_byes_score(db: &str) {
    let server = TestServer::start_with_test_hooks(db).await;
    let present = Client::guest(&server).await;
    let absent = Client::guest(&server).await;
    let resting = Client::guest(&server).await;
    let swiss = with(
        with(with(body("absences", "swiss"), "rounds", json!(2)), "time_control", live()),
        "points",
        json!([2, 0]),
    );
    // Room for a late entry, and not full (a full tournament without a start time starts at once).
    let swiss = with(swiss, "max_entrants", json!(8));
    let id = create(&present, swiss, &[1, 1, 1]).await;
    for p in [&present, &absent, &resting] {
        assert_eq!(p.post(&format!("/api/tournaments/{id}/join"), json!({})).await.0, 200);
    }
    let (status, byes) = resting.post(&format!("/api/tournaments/{id}/bye"), json!({"round": 1})).await;
    assert_eq!(status, 200, "{byes}");
    let (status, refused) = resting.post(&format!("/api/tournaments/{id}/bye"), json!({"round": 0})).await;
    assert_eq!(status, 400, "{refused}");
    // The absent player was last seen a quarter of an hour ago; the others read the page now.
    let name = absent.user["name"].as_str().unwrap();
    let (status, v) = present.post("/api/test/seen", json!({"user": name, "seconds_ago": 900})).await;
    assert_eq!(status, 200, "{v}");
    present.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(present.post(&format!("/api/tournaments/{id}/start"), json!({})).await.0, 200);
    let view = drive(&[&present], id, |v| v["rounds"][0]["tables"][0]["game_id"].is_i64()).await;
    let (gone, rest, here) =
        (entrant_of(&view, &absent), entrant_of(&view, &resting), entrant_of(&view, &present));
    let first = &view["rounds"][0];
    assert_eq!(first["absent"], json!([gone]), "{view}");
    assert!(first["byes"].as_array().unwrap().contains(&json!(rest)), "{view}");
    let seated: Vec<i64> = first["tables"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["seats"].as_array().unwrap().iter().filter_map(Value::as_i64))
        .collect();
    assert!(seated.contains(&here) && !seated.contains(&gone) && !seated.contains(&rest), "{view}");
    // A late entry to the running Swiss plays from the next round.
    let late = Client::guest(&server).await;
    late.get(&format!("/api/tournaments/{id}")).await;
    let (status, joined) = late.post(&format!("/api/tournaments/{id}/join"), json!({})).await;
    assert_eq!(status, 200, "{joined}");
    let newcomer = joined["entrant"].as_i64().unwrap();
    let view = drive(&[&present, &late], id, finished).await;
    let second = &view["rounds"][1];
    let in_second = second["tables"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["seats"].as_array().unwrap().contains(&json!(newcomer)))
        || second["byes"].as_array().unwrap().contains(&json!(newcomer));
    assert!(in_second, "{view}");
    assert!(!view["rounds"][0]["tables"].to_string().contains(&format!("[{newcomer},")), "{view}");
    // The forfeit scores as last place (0), the bye as the mean of the places' points (1).
    assert_eq!(row_of(&view, gone)["points"], 0.0, "{view}");
    assert_eq!(row_of(&view, gone)["games"], 0, "{view}");
    assert_eq!(row_of(&view, rest)["byes"], 1, "{view}");
    assert!(row_of(&view, rest)["points"].as_f64().unwrap() >= 1.0, "{view}");
    let csv = reqwest::get(server.url(&format!("/api/tournaments/{id}/export.csv"))).await.unwrap();
    let csv = csv.text().await.unwrap();
    assert!(csv.lines().any(|l| l.starts_with("forfeit,") && l.contains(name)), "{csv}");
    let rest_name = resting.user["name"].as_str().unwrap();
    assert!(csv.lines().any(|l| l.starts_with("bye,") && l.contains(rest_name)), "{csv}");
    // The crosstable links each result to its game.
    let cells: Vec<&Value> = view["crosstable"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap())
        .filter(|c| !c.is_null())
        .collect();
    assert!(!cells.is_empty(), "{view}");
    for cell in cells {
        let games = cell["games"].as_array().unwrap();
        assert_eq!(games.len(), cell["text"].as_str().unwrap().chars().count(), "{cell}");
        assert!(games.iter().all(|g| g["game_id"].is_i64()), "{cell}");
    }
    server.stop().await;
}
