//! Faults inside one server: work cancelled half-way must leave nothing behind.

use std::{sync::Arc, time::Duration};

use crate::common::{Client, TestServer, sqlite_url};
use gobeyond_server::{
    limit::Limits,
    setup::NewGame,
    store::{NewSeat, Quota, Store},
    table::Hub,
};
use serde_json::json;

/// A load cancelled mid-way (its request gone) once left a busy slot in the hub's map: every
/// later request for the game woke, found it busy again and spun for ever, using the cores.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_load_leaves_no_slot_behind() {
    let store = Store::connect(&sqlite_url()).await.unwrap();
    let user = store.create_user("ada", "guest", None, None).await.unwrap();
    let new: NewGame =
        serde_json::from_value(json!({"rules": "classic", "map": "square:9", "players": 2})).unwrap();
    let setup = serde_json::to_string(&new.validate().unwrap()).unwrap();
    let quota = Quota {
        user: user.id,
        per_user: 10,
        address: None,
        per_address: 0,
        bots_only: false,
        per_user_bots_only: 0,
        casual: false,
    };
    let seats = [
        NewSeat { user_id: Some(user.id), bot_level: None, invite_only: false },
        NewSeat { user_id: None, bot_level: None, invite_only: false },
    ];
    let game = store.create_game(&quota, &setup, true, None, &seats).await.unwrap();
    let hub = Arc::new(Hub::new(store, Limits::default(), None));
    // Loads cut short at every point they can be: each stops at its first wait.
    for micros in [0, 1, 10, 100, 1000, 3000] {
        let _ = tokio::time::timeout(Duration::from_micros(micros), hub.table(game)).await;
    }
    let found = tokio::time::timeout(Duration::from_secs(10), hub.table(game)).await;
    assert!(found.expect("the game is found again within 10 s").is_ok());
    assert_eq!(hub.loaded(), 1);
}

/// An action carries the position it was meant for: a late one (sent before a move made
/// elsewhere) or a resend of one already applied is refused as stale, never played later.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_meant_for_an_earlier_position_is_refused() {
    let server = TestServer::start(&sqlite_url()).await;
    let (a, b) = (Client::guest(&server).await, Client::guest(&server).await);
    let game = a.create(json!({"rules": "classic", "map": "square:9", "players": 2})).await;
    assert_eq!(b.post(&format!("/api/games/{game}/join"), json!({})).await.0, 200);
    let (mut sa, mut sb) = (a.socket().await, b.socket().await);
    assert_eq!(sa.act_after(game, json!({"type": "place", "at": "C3"}), 0).await["seq"], 1);
    // The same action again (a resend after an answer that never came): not played twice.
    let again = sa.act_after(game, json!({"type": "place", "at": "C3"}), 0).await;
    assert_eq!((again["type"].as_str(), again["code"].as_str()), (Some("error"), Some("stale")), "{again}");
    assert_eq!(sb.act_after(game, json!({"type": "place", "at": "G7"}), 1).await["seq"], 2);
    // a's move sent before b's arrives late: refused, not played in the later position.
    let late = sa.act_after(game, json!({"type": "place", "at": "D4"}), 1).await;
    assert_eq!(late["code"], "stale", "{late}");
    assert_eq!(sa.act_after(game, json!({"type": "place", "at": "D4"}), 2).await["seq"], 3);
    // Clients that do not say (older ones) act on the position as it is.
    assert_eq!(sb.act(game, json!({"type": "place", "at": "G3"})).await["seq"], 4);
    server.stop().await;
}
