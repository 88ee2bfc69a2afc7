//! The formats the pairing library added for issue 44 as the server runs them
//! (docs/tournaments.md "Elimination with N players", "McMahon"): a knockout of three-player
//! tables with `advance`, a McMahon whose entrants start from their rank bands, and their
//! settings refused with reasons.

use std::time::Duration;

use crate::common::{Client, TestServer, postgres_url, sqlite_url};
use serde_json::{Value, json};

on_both!(
    a_knockout_of_three_player_tables_runs_to_one_winner,
    mcmahon_entrants_start_from_their_rank_bands,
    format_settings_are_refused_with_reasons,
);

fn body(format: &str, players: u8) -> Value {
    json!({
        "name": format, "system": "tromp-taylor", "map": "square:5", "players_per_game": players,
        "format": format, "rounds": 1, "max_entrants": 8, "min_entrants": 2, "entry": "open",
    })
}

async fn create(creator: &Client, mut body: Value, levels: &[u8]) -> i64 {
    body["bots"] = json!(levels);
    let (status, v) = creator.post("/api/tournaments", body).await;
    assert_eq!(status, 201, "{v}");
    v["id"].as_i64().unwrap()
}

/// Starts the tournament and reads it until it is finished (bots only: nobody to move).
/// Bounded by attempts, not by time.
async fn run_to_end(c: &Client, id: i64) -> Value {
    let (code, started) = c.post(&format!("/api/tournaments/{id}/start"), json!({})).await;
    assert_eq!(code, 200, "{started}");
    for _ in 0..3000 {
        let (status, view) = c.get(&format!("/api/tournaments/{id}")).await;
        assert_eq!(status, 200, "{view}");
        if view["summary"]["state"] == "finished" {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("tournament {id} did not finish");
}

/// Five bots, three at a table, the best one of each table goes on: round 1 is one table and
/// two byes, and since one from the table would leave only three… exactly three are left (the
/// cut keeps the final table full: the table's best one plus the two byes); round 2 is the final.
async fn a_knockout_of_three_player_tables_runs_to_one_winner(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let mut knockout = body("single_elimination", 3);
    knockout["rounds"] = json!(0);
    knockout["advance"] = json!(1);
    let id = create(&a, knockout, &[1, 1, 1, 1, 1]).await;
    let view = run_to_end(&a, id).await;
    let rounds = view["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 2, "{view}");
    assert_eq!(rounds[0]["tables"].as_array().unwrap().len(), 1, "{view}");
    assert_eq!(rounds[0]["byes"].as_array().unwrap().len(), 2, "{view}");
    let final_table = &rounds[1]["tables"][0];
    assert_eq!(final_table["seats"].as_array().unwrap().len(), 3, "{view}");
    assert!(rounds[1]["byes"].as_array().unwrap().is_empty(), "{view}");
    let rows = view["standings"]["rows"].as_array().unwrap();
    assert_eq!(rows.iter().filter(|r| r["eliminated"] == false).count(), 1, "{view}");
    assert_eq!(rows[0]["eliminated"], false, "the winner heads the standings: {view}");
    let rules = view["rules_text"].to_string();
    assert!(rules.contains("best 1 of each table"), "{rules}");
    server.stop().await;
}

/// A level-9 bot (rating 1900: 6 kyu) above the 8k bar starts at the bar's score, 2 over the
/// 10k floor; level-1 bots (14 kyu) start at the floor's 0. The McMahon score is start + points.
async fn mcmahon_entrants_start_from_their_rank_bands(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let mut mcmahon = body("mcmahon", 2);
    mcmahon["mcmahon_bar"] = json!("8k");
    mcmahon["mcmahon_floor"] = json!("10k");
    let id = create(&a, mcmahon, &[9, 1, 1, 1]).await;
    let view = run_to_end(&a, id).await;
    assert_eq!(view["spec"]["mcmahon_bar"], 2, "{view}");
    let strong =
        view["entrants"].as_array().unwrap().iter().find(|e| e["bot_level"] == 9).unwrap()["id"].clone();
    // Round 1 pairs by the starting score: the level-9 bot is alone at the top, and plays the
    // best-rated of the rest (all start at 0).
    for row in view["standings"]["rows"].as_array().unwrap() {
        let start = if row["entrant"] == strong { 2.0 } else { 0.0 };
        let mcmahon_score = row["tie_breaks"][0].as_f64().unwrap();
        assert_eq!(mcmahon_score, start + row["points"].as_f64().unwrap(), "{row}");
    }
    let rules = view["rules_text"].to_string();
    assert!(rules.contains("above 10k") && rules.contains("up to 8k"), "{rules}");
    server.stop().await;
}

async fn format_settings_are_refused_with_reasons(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let with = |mut b: Value, key: &str, v: Value| {
        b[key] = v;
        b
    };
    let knockout = with(body("single_elimination", 3), "rounds", json!(0));
    let mcmahon = body("mcmahon", 2);
    let cases = [
        (with(knockout.clone(), "advance", json!(3)), "advance"),
        (with(knockout.clone(), "advance", json!(0)), "advance"),
        (with(body("single_elimination", 2), "advance", json!(2)), "advance"),
        (with(mcmahon.clone(), "mcmahon_bar", json!("12x")), "mcmahon_bar"),
        (with(mcmahon.clone(), "mcmahon_floor", json!("40k")), "mcmahon_floor"),
        (with(with(mcmahon.clone(), "mcmahon_bar", json!("10k")), "mcmahon_floor", json!("5k")), "below"),
        (with(body("swiss", 2), "mcmahon_bar", json!("1d")), "only a McMahon"),
        (with(with(mcmahon.clone(), "system", json!("gobeyond")), "map", json!("hex:3")), "kyu/dan"),
    ];
    for (bad, why) in cases {
        let (status, v) = a.post("/api/tournaments", bad.clone()).await;
        assert_eq!(status, 400, "{bad}: {v}");
        assert!(v["error"].as_str().unwrap().contains(why), "{bad}: {v}");
    }
    server.stop().await;
}
