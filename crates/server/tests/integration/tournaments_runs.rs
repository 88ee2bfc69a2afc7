//! Whole tournaments run by the director (issue 44, docs/tournaments.md "Running a tournament
//! on the server", "Restarts and failover"): a Swiss with people and a withdrawal, a round
//! robin of five-player tables, a knockout, the director's writes fenced by the claim's epoch,
//! and another instance finishing a tournament whose director died.

use std::collections::{BTreeMap, HashSet};

use crate::common::{
    Client, TestServer, postgres_url, sqlite_url, test_limits,
    tournament::{check_results, create, drive, finished, swiss, with},
};
use serde_json::{Value, json};

on_both!(
    a_swiss_goes_on_without_the_person_who_withdrew,
    a_round_robin_of_five_player_tables_meets_everyone,
    a_knockout_of_bots_is_played_to_its_winner,
    a_director_write_under_a_stale_epoch_is_refused,
);

/// Entrant ids seated or given a bye in `round`.
fn in_round(round: &Value) -> Vec<i64> {
    let seated =
        round["tables"].as_array().unwrap().iter().flat_map(|t| t["seats"].as_array().unwrap().clone());
    seated.chain(round["byes"].as_array().unwrap().iter().cloned()).map(|v| v.as_i64().unwrap()).collect()
}

/// The standings row of `entrant`.
fn row_of(view: &Value, entrant: i64) -> Value {
    let rows = view["standings"]["rows"].as_array().unwrap();
    rows.iter().find(|r| r["entrant"] == entrant).cloned().unwrap_or_else(|| panic!("no row for {entrant}"))
}

/// Three people and three bots, three rounds; one person withdraws during round 1. Their
/// round-1 game goes on and counts (they resign it here); later rounds pair the five others.
async fn a_swiss_goes_on_without_the_person_who_withdrew(db: &str) {
    let server = TestServer::start(db).await;
    let (a, b, c) =
        (Client::guest(&server).await, Client::guest(&server).await, Client::guest(&server).await);
    let body = with(with(swiss("withdrawal"), "rounds", json!(3)), "max_entrants", json!(6));
    let id = create(&a, body, &[1, 1, 1]).await;
    for p in [&a, &b, &c] {
        let (status, v) = p.post(&format!("/api/tournaments/{id}/join"), json!({})).await;
        assert_eq!(status, 200, "{v}");
    }
    // Full: it starts by itself. Once round 1's games are made, b withdraws.
    let round_one_made = |v: &Value| {
        let tables = v["rounds"][0]["tables"].as_array().cloned().unwrap_or_default();
        !tables.is_empty() && tables.iter().all(|t| t["game_id"].is_i64())
    };
    drive(&[&a], id, round_one_made).await;
    let (status, v) = b.post(&format!("/api/tournaments/{id}/leave"), json!({})).await;
    assert_eq!((status, &v["withdrawn_after"]), (200, &json!(1)), "{v}");
    let (status, v) = b.post(&format!("/api/tournaments/{id}/leave"), json!({})).await;
    assert_eq!(status, 409, "withdrawing twice: {v}");

    let view = drive(&[&a, &b, &c], id, finished).await;
    let entrants = view["entrants"].as_array().unwrap();
    let gone = entrants.iter().find(|e| e["user_id"] == b.id()).unwrap();
    assert_eq!(gone["withdrawn_after"], 1, "{view}");
    let gone = gone["id"].as_i64().unwrap();
    let rounds = view["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 3, "{view}");
    assert!(in_round(&rounds[0]).contains(&gone), "b played round 1: {view}");
    for round in &rounds[1..] {
        assert!(!in_round(round).contains(&gone), "b is in no later table nor bye: {round}");
        assert_eq!(in_round(round).len(), 5, "the five others are paired or given a bye: {round}");
    }
    // The standings are complete, and b keeps round 1's points (1 a win, 0 a loss).
    let rows = view["standings"]["rows"].as_array().unwrap();
    let listed: HashSet<i64> = rows.iter().map(|r| r["entrant"].as_i64().unwrap()).collect();
    let all: HashSet<i64> = entrants.iter().map(|e| e["id"].as_i64().unwrap()).collect();
    assert_eq!(listed, all, "{view}");
    let table = rounds[0]["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["seats"].as_array().unwrap().contains(&json!(gone)));
    let table = table.unwrap();
    let seat = table["seats"].as_array().unwrap().iter().position(|s| s == gone).unwrap();
    let won = if table["places"][seat] == 1 { 1.0 } else { 0.0 };
    let row = row_of(&view, gone);
    assert_eq!((row["points"].as_f64().unwrap(), row["games"].as_u64().unwrap()), (won, 1), "{row}");
    check_results(&view, &[1.0, 0.0]);
    server.stop().await;
}

/// Six bots, tables of five, Capture Go on a 5×5 board (five-player games that end in a few
/// dozen moves). The greedy balanced schedule (docs/tournaments.md "Round robin"): byes differ by
/// at most one, every entrant meets every other, and no pair meets more often than the rounds
/// both played.
async fn a_round_robin_of_five_player_tables_meets_everyone(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let body = json!({
        "name": "five at a table", "system": "capture", "map": "square:5", "players_per_game": 5,
        "format": "round_robin", "rounds": 0, "max_entrants": 6, "min_entrants": 5, "entry": "open",
    });
    let id = create(&a, body, &[1, 1, 1, 1, 1, 1]).await;
    let view = drive(&[&a], id, |v| v["summary"]["state"] != "open").await;
    assert_eq!(view["summary"]["state"], "running", "six of six: it started by itself: {view}");
    let view = drive(&[&a], id, finished).await;
    let rounds = view["rounds"].as_array().unwrap();
    let ids: Vec<i64> =
        view["entrants"].as_array().unwrap().iter().map(|e| e["id"].as_i64().unwrap()).collect();
    let mut met: BTreeMap<(i64, i64), u32> = BTreeMap::new();
    let mut byes: BTreeMap<i64, u32> = ids.iter().map(|&e| (e, 0)).collect();
    for round in rounds {
        for table in round["tables"].as_array().unwrap() {
            let seats: Vec<i64> =
                table["seats"].as_array().unwrap().iter().map(|s| s.as_i64().unwrap()).collect();
            assert_eq!(seats.len(), 5, "{round}");
            for (i, x) in seats.iter().enumerate() {
                for y in &seats[i + 1..] {
                    *met.entry(((*x).min(*y), (*x).max(*y))).or_default() += 1;
                }
            }
        }
        for bye in round["byes"].as_array().unwrap() {
            *byes.get_mut(&bye.as_i64().unwrap()).unwrap() += 1;
        }
        assert_eq!(in_round(round).len(), 6, "everyone is seated or has a bye: {round}");
    }
    let (least, most) = (byes.values().min().unwrap(), byes.values().max().unwrap());
    assert!(most - least <= 1, "byes within one: {byes:?}");
    for (i, x) in ids.iter().enumerate() {
        for y in &ids[i + 1..] {
            let n = met.get(&((*x).min(*y), (*x).max(*y))).copied().unwrap_or(0);
            let both_played = rounds.len() as u32 - byes[x].max(byes[y]);
            assert!(n >= 1 && n <= both_played, "{x} and {y} met {n} times: {met:?} byes {byes:?}");
        }
    }
    check_results(&view, &[4.0, 3.0, 2.0, 1.0, 0.0]);
    server.stop().await;
}

/// Four bots in a knockout: two rounds; the final's winner is first, the three others are
/// marked eliminated, and round 1's losers are not paired again.
async fn a_knockout_of_bots_is_played_to_its_winner(db: &str) {
    let server = TestServer::start(db).await;
    let a = Client::guest(&server).await;
    let body = with(with(swiss("knockout"), "format", json!("single_elimination")), "rounds", json!(0));
    let id = create(&a, body, &[1, 1, 1, 1]).await;
    let view = drive(&[&a], id, finished).await;
    let rounds = view["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 2, "{view}");
    let loser = |table: &Value| {
        let at = table["places"].as_array().unwrap().iter().position(|p| p == 2).expect("a loser");
        table["seats"][at].as_i64().unwrap()
    };
    let out: Vec<i64> = rounds[0]["tables"].as_array().unwrap().iter().map(loser).collect();
    assert_eq!(out.len(), 2, "{view}");
    for e in &out {
        assert!(!in_round(&rounds[1]).contains(e), "{e} lost in round 1 and is not paired again: {view}");
    }
    let last = &rounds[1]["tables"][0];
    let at = last["places"].as_array().unwrap().iter().position(|p| p == 1).unwrap();
    let winner = last["seats"][at].as_i64().unwrap();
    let rows = view["standings"]["rows"].as_array().unwrap();
    assert_eq!(rows[0]["entrant"], winner, "the final's winner is first: {view}");
    assert_eq!(rows[0]["eliminated"], false, "{view}");
    for row in &rows[1..] {
        assert_eq!(row["eliminated"], true, "{row}");
    }
    assert_eq!(row_of(&view, loser(last))["place"], 2, "{view}");
    check_results(&view, &[1.0, 0.0]);
    server.stop().await;
}

/// Fencing (docs/tournaments.md "Restarts and failover"): a claim after the last one expired
/// raises the epoch, and every director write made under the former epoch is refused and
/// writes nothing.
async fn a_director_write_under_a_stale_epoch_is_refused(db: &str) {
    use gobeyond_server::store::{Store, now_ms, tournaments::RoundRow};
    let store = Store::connect(db).await.unwrap();
    let user = store.create_user("director", "guest", None, None).await.unwrap();
    let id = store.create_tournament(user.id, "fenced", "{}", None, 4, 3).await.unwrap();
    assert!(store.start_tournament_now(id).await.unwrap());
    // A claim that has already run out, as an instance's that died.
    let (got, stale) = store.claim_tournament("a", now_ms() - 1, store.now()).await.unwrap().unwrap();
    assert_eq!(got, id);
    let (got, epoch) = store.claim_tournament("b", now_ms() + 60_000, store.now()).await.unwrap().unwrap();
    assert_eq!((got, epoch), (id, stale + 1));
    assert_eq!(
        store.claim_tournament("a", now_ms() + 60_000, store.now()).await.unwrap(),
        None,
        "b holds it"
    );

    let round = RoundRow { number: 1, round: "{}".into(), started_ms: now_ms(), finished_ms: None };
    assert!(!store.put_round(id, stale, &round).await.unwrap());
    assert!(store.tournament_rounds(id).await.unwrap().is_empty(), "nothing written");
    assert!(!store.put_table_game(id, stale, 1, 1, 1, &[]).await.unwrap());
    assert!(store.tournament_games(id).await.unwrap().is_empty(), "nothing written");
    assert!(!store.set_tournament_state(id, stale, "finished").await.unwrap());
    assert_eq!(store.tournament(id).await.unwrap().unwrap().state, "running");
    assert!(!store.renew_tournament_claim(id, stale, now_ms() + 60_000).await.unwrap());
    // The holder's writes go through.
    assert!(store.put_round(id, epoch, &round).await.unwrap());
    assert_eq!(store.tournament_rounds(id).await.unwrap().len(), 1);
    assert!(store.renew_tournament_claim(id, epoch, now_ms() + 60_000).await.unwrap());
    store.close().await;
}

/// The claim's holder and epoch, read from the database.
async fn claim_of(url: &str, id: i64) -> (String, i64) {
    use sqlx::{Connection, Row};
    let mut db = sqlx::PgConnection::connect(url).await.unwrap();
    let row = sqlx::query("SELECT claimed_by, epoch FROM tournaments WHERE id = $1")
        .bind(id)
        .fetch_one(&mut db)
        .await;
    let row = row.unwrap();
    (row.get("claimed_by"), row.get("epoch"))
}

/// Failover on PostgreSQL: the instance directing a Swiss dies mid-round (its director stops
/// without giving up its claim); the other instance, up all along, waits for the claim to expire
/// (10 s), takes the tournament over under a new epoch and finishes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_instance_finishes_a_tournament_whose_director_died() {
    use gobeyond_server::Config;
    let url = postgres_url().await;
    let instance = |name: &str, hooks: bool| Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        database: url.clone(),
        limits: test_limits(),
        instance: Some(name.into()),
        test_hooks: hooks,
        ..Config::default()
    };
    let one = TestServer::start_config(instance("one", true)).await;
    let a = Client::guest(&one).await;
    // Full at its creation: it starts by itself.
    let id = create(&a, swiss("failover"), &[1, 1, 1, 1]).await;
    drive(&[&a], id, |v| v["rounds"][0]["tables"][1]["game_id"].is_i64()).await;
    let two = TestServer::start_config(instance("two", false)).await;
    let (holder, epoch) = claim_of(&url, id).await;

    assert!(gobeyond_server::tournament::director::halt_for_tests(&one.app), "one's director dies");
    let a = Client { base: format!("http://{}", two.addr), ..a };
    let view = drive(&[&a], id, finished).await;
    assert_eq!(view["rounds"].as_array().unwrap().len(), 2, "{view}");
    check_results(&view, &[1.0, 0.0]);
    let (now_holder, now_epoch) = claim_of(&url, id).await;
    assert_ne!(now_holder, holder, "the other instance took it over");
    assert!(now_epoch > epoch, "under a new epoch: {now_epoch} after {epoch}");
    two.stop().await;
    one.stop().await;
}
