//! Tournaments (issue 44, docs/api.md "Tournaments", docs/tournaments.md): created with every
//! setting checked, entered and left, started, run by the director round after round with
//! people and bots, carried on after a restart and by another instance.

use crate::common::{
    Client, TestServer, postgres_url, sqlite_url,
    tournament::{check_results, create, drive, finished, swiss, with},
};
use serde_json::json;

on_both!(
    bad_tournaments_are_refused_with_reasons,
    entrants_join_leave_and_the_creator_adds_bots_and_starts,
    creators_are_bounded_and_entries_close_when_full,
    exports_list_the_entrants_and_games,
    a_whole_swiss_of_bots_is_run_to_its_standings,
    a_mcmahon_of_bots_is_paired_and_finished,
    a_restarted_server_carries_on_mid_round,
);

async fn bad_tournaments_are_refused_with_reasons(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let cases = [
        (with(swiss("x"), "rounds", json!(0)), "rounds"),
        (with(swiss("x"), "rounds", json!(101)), "rounds"),
        (with(swiss("x"), "max_entrants", json!(1_000_000)), "max_entrants"),
        (with(swiss("x"), "max_entrants", json!(257)), "max_entrants"),
        (with(swiss("x"), "start_ms", json!(1000)), "past"),
        (with(swiss("x"), "players_per_game", json!(9)), "players_per_game"),
        (with(swiss("x"), "players_per_game", json!(1)), "players_per_game"),
        (with(swiss("x"), "system", json!("no-such-rules")), "no-such-rules"),
        (with(swiss("x"), "map", json!("blob:3")), "map"),
        (with(swiss(""), "format", json!("swiss")), "name"),
        (swiss(&"n".repeat(81)), "name"),
        (with(swiss("x"), "format", json!("ladder")), "format"),
        (with(swiss("x"), "entry", json!("friends")), "entry"),
        (with(swiss("x"), "min_entrants", json!(9)), "min_entrants"),
        (with(swiss("x"), "bots", json!([11])), "bots"),
        (with(swiss("x"), "points", json!([1, 2, 3])), "points"),
        (with(swiss("x"), "surprise", json!(1)), "surprise"),
    ];
    for (body, reason) in cases {
        let (status, v) = a.post("/api/tournaments", body.clone()).await;
        assert_eq!(status, 400, "{body}: {v}");
        let error = v["error"].as_str().unwrap_or_default();
        assert!(error.contains(reason), "{body}: {error:?} should name {reason:?}");
    }
    // Not signed in; an unknown tournament; a bad list filter.
    let anon = reqwest::Client::new();
    let r = anon.post(server.url("/api/tournaments")).json(&swiss("x")).send().await.unwrap();
    assert_eq!(r.status(), 401);
    assert_eq!(a.get("/api/tournaments/999999").await.0, 404);
    assert_eq!(a.get("/api/tournaments?state=soon").await.0, 400);
    assert_eq!(a.post("/api/tournaments/999999/join", json!({})).await.0, 404);
    server.stop().await;
}

async fn entrants_join_leave_and_the_creator_adds_bots_and_starts(db: &str) {
    let server = TestServer::start(db).await;
    let creator = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let (status, v) = creator.post("/api/tournaments", swiss("Friday Swiss")).await;
    assert_eq!(status, 201, "{v}");
    let id = v["id"].as_i64().unwrap();
    let (_, list) = creator.get("/api/tournaments?state=open").await;
    let listed = &list["tournaments"][0];
    assert_eq!(listed["id"], id);
    assert_eq!(listed["name"], "Friday Swiss");
    assert_eq!(listed["format"], "swiss");
    assert_eq!(listed["time_control_text"], "no clock");
    assert_eq!(listed["entrants"], 0);

    // Joining, twice refused; leaving; a bot only from the creator; starting only by the creator.
    assert_eq!(b.post(&format!("/api/tournaments/{id}/join"), json!({})).await.0, 200);
    let (status, v) = b.post(&format!("/api/tournaments/{id}/join"), json!({})).await;
    assert_eq!(status, 409, "{v}");
    let (_, view) = b.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(view["entrants"].as_array().unwrap().len(), 1);
    assert_eq!(view["may_leave"], true);
    assert_eq!(view["may_join"], false);
    assert_eq!(view["may_start"], false);
    assert!(!view["rules_text"].as_array().unwrap().is_empty());
    assert_eq!(b.post(&format!("/api/tournaments/{id}/leave"), json!({})).await.0, 200);
    assert_eq!(b.post(&format!("/api/tournaments/{id}/leave"), json!({})).await.0, 409);
    let (status, v) = b.post(&format!("/api/tournaments/{id}/bots"), json!({"level": 1})).await;
    assert_eq!(status, 403, "{v}");
    let (status, v) = creator.post(&format!("/api/tournaments/{id}/bots"), json!({"level": 0})).await;
    assert_eq!((status, v["error"].as_str().unwrap().contains("level")), (400, true), "{v}");
    assert_eq!(creator.post(&format!("/api/tournaments/{id}/bots"), json!({"level": 1})).await.0, 200);
    let (status, v) = creator.post(&format!("/api/tournaments/{id}/start"), json!({})).await;
    assert_eq!(status, 409, "one entrant is too few: {v}");
    assert!(v["error"].as_str().unwrap().contains("at least 2"), "{v}");
    assert_eq!(b.post(&format!("/api/tournaments/{id}/join"), json!({})).await.0, 200);
    assert_eq!(b.post(&format!("/api/tournaments/{id}/start"), json!({})).await.0, 403);
    let (_, view) = creator.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(view["may_start"], true);
    let (status, v) = creator.post(&format!("/api/tournaments/{id}/start"), json!({})).await;
    assert_eq!(status, 200, "{v}");
    let (_, view) = creator.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(view["summary"]["state"], "running");
    // A running Swiss takes late entries (docs/tournaments.md "Late entries"); once over, none.
    let c = Client::guest(&server).await;
    assert_eq!(c.post(&format!("/api/tournaments/{id}/join"), json!({})).await.0, 200);
    server.stop().await;
}

async fn creators_are_bounded_and_entries_close_when_full(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    for n in 0..3 {
        assert_eq!(a.post("/api/tournaments", swiss(&format!("t{n}"))).await.0, 201);
    }
    let (status, v) = a.post("/api/tournaments", swiss("t3")).await;
    assert_eq!(status, 429, "{v}");
    assert!(v["error"].as_str().unwrap().contains("at most 3"), "{v}");
    // An invitation entry needs its token, which only the creator sees.
    let b = Client::guest(&server).await;
    let (_, v) = b.post("/api/tournaments", with(swiss("private"), "entry", json!("invitation"))).await;
    let id = v["id"].as_i64().unwrap();
    let (status, v) = a.post(&format!("/api/tournaments/{id}/join"), json!({})).await;
    assert_eq!(status, 403, "{v}");
    assert!(a.get(&format!("/api/tournaments/{id}")).await.1["settings"]["invite"].is_null());
    let invite = b.get(&format!("/api/tournaments/{id}")).await.1["settings"]["invite"].clone();
    assert!(invite.is_string());
    assert_eq!(a.post(&format!("/api/tournaments/{id}/join"), json!({"invite": invite})).await.0, 200);
    // Full: a fifth entrant of four is refused (bots fill it, and it starts).
    for _ in 0..3 {
        assert_eq!(b.post(&format!("/api/tournaments/{id}/bots"), json!({"level": 1})).await.0, 200);
    }
    let (status, v) = b.post(&format!("/api/tournaments/{id}/bots"), json!({"level": 1})).await;
    assert_eq!(status, 409, "{v}");
    server.stop().await;
}

async fn exports_list_the_entrants_and_games(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let (_, v) = a.post("/api/tournaments", with(swiss("=cmd"), "bots", json!([1, 2]))).await;
    let id = v["id"].as_i64().unwrap();
    let (status, v) = a.get(&format!("/api/tournaments/{id}/export.json")).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["entrants"].as_array().unwrap().len(), 2);
    assert_eq!(v["tournament"]["name"], "=cmd");
    let r = reqwest::get(server.url(&format!("/api/tournaments/{id}/export.csv"))).await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
    let text = r.text().await.unwrap();
    assert!(text.starts_with("section,"), "{text}");
    server.stop().await;
}

async fn a_whole_swiss_of_bots_is_run_to_its_standings(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    // Full at its creation: it starts by itself.
    let id = create(&a, swiss("bots"), &[1, 1, 1, 1]).await;
    let view = drive(&[&a], id, finished).await;
    let rounds = view["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 2, "{view}");
    for round in rounds {
        assert_eq!(round["tables"].as_array().unwrap().len(), 2);
        assert!(round["finished_ms"].is_i64());
    }
    assert_eq!(view["standings"]["rows"].as_array().unwrap().len(), 4);
    assert!(view["standings"]["rows"][0]["name"].is_string());
    assert_eq!(view["crosstable"].as_array().unwrap().len(), 4);
    check_results(&view, &[1.0, 0.0]);
    // Each game knows its tournament: it is a finished game with the tournament's settings.
    let game = rounds[0]["tables"][0]["game_id"].as_i64().unwrap();
    let (_, info) = a.get(&format!("/api/games/{game}")).await;
    assert_eq!(info["status"], "finished", "{info}");
    let (_, json_export) = a.get(&format!("/api/tournaments/{id}/export.json")).await;
    assert_eq!(json_export["rounds"].as_array().unwrap().len(), 2);
    let csv = reqwest::get(server.url(&format!("/api/tournaments/{id}/export.csv"))).await.unwrap();
    let csv = csv.text().await.unwrap();
    assert_eq!(csv.lines().filter(|l| l.starts_with("standings,")).count(), 4, "{csv}");
    assert_eq!(csv.lines().filter(|l| l.starts_with("game,")).count(), 4, "{csv}");
    server.stop().await;
}

/// The format the server and the page call `mcmahon` reaches the pairing library under the
/// same name: the tournament starts, is paired and finishes with the McMahon score first.
async fn a_mcmahon_of_bots_is_paired_and_finished(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let body = with(with(swiss("mcmahon"), "format", json!("mcmahon")), "rounds", json!(1));
    let id = create(&a, body, &[1, 1, 1, 1]).await;
    let view = drive(&[&a], id, finished).await;
    assert_eq!(view["rounds"].as_array().unwrap().len(), 1, "{view}");
    assert_eq!(view["standings"]["tie_breaks"][0], "mcmahon_score", "{view}");
    check_results(&view, &[1.0, 0.0]);
    server.stop().await;
}

async fn a_restarted_server_carries_on_mid_round(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let b = Client::guest(&server).await;
    let id = create(&a, swiss("restart"), &[]).await;
    for p in [&a, &b] {
        assert_eq!(p.post(&format!("/api/tournaments/{id}/join"), json!({})).await.0, 200);
    }
    assert_eq!(a.post(&format!("/api/tournaments/{id}/start"), json!({})).await.0, 200);
    drive(&[&a], id, |v| v["rounds"][0]["tables"][0]["game_id"].is_i64()).await;
    server.stop().await;
    // The same database on a new server: the round in play goes on, and the next is paired.
    // Sessions are in the database: the players' cookies still hold.
    let server = TestServer::start(db).await;
    let base = format!("http://{}", server.addr);
    let a = Client { base: base.clone(), ..a };
    let b = Client { base, ..b };
    let view = drive(&[&a, &b], id, finished).await;
    assert_eq!(view["rounds"].as_array().unwrap().len(), 2, "{view}");
    server.stop().await;
}
