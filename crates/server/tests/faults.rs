//! Faults inside one server: work cancelled half-way must leave nothing behind.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::{sync::Arc, time::Duration};

use common::sqlite_url;
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
