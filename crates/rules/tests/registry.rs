//! The registry's interface, as the server and the terminal use it: games of any system driven
//! through JSON inputs, turns, time-outs, refusals with codes, records.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use gobeyond_rules::{
    AnyGame, Player, SystemInfo, Viewer,
    record::{MapSource, PlayerInfo, Record},
    registry::Object,
    system::Start,
};
use serde_json::{Value, json};

fn input(v: Value) -> Object {
    match v {
        Value::Object(o) => o,
        _ => panic!("not an object"),
    }
}

fn start(system: &str, spec: &str, players: usize, settings: Value) -> AnyGame {
    let info = SystemInfo::get(system).unwrap();
    let mut s = info.default_settings();
    if let Value::Object(o) = settings {
        s.extend(o);
    }
    let map = Arc::new(gobeyond_maps::generate(spec).unwrap());
    info.start(map, players, &s, &Start::default()).unwrap()
}

#[test]
fn classic_through_the_registry() {
    let mut g = start("classic", "square:5", 2, json!({}));
    let turn = g.turn();
    assert_eq!((turn.seats.clone(), turn.phase, turn.simultaneous), (vec![Player(0)], "playing", false));
    g.submit(Player(0), &input(json!({"type": "place", "at": "C3"}))).unwrap();
    // Logged in the written form: number and label, however it was sent.
    assert_eq!(Value::Object(g.input(0).unwrap().1), json!({"type": "place", "node": 12, "at": "C3"}));
    let r = g.submit(Player(1), &input(json!({"type": "place", "at": "C3"}))).unwrap_err();
    assert_eq!(r.code, "occupied");
    assert!(r.message.contains("C3 is occupied"), "{}", r.message);
    let r = g.submit(Player(1), &input(json!({"type": "skip"}))).unwrap_err();
    assert_eq!(r.code, "bad_action");
    let r = g.submit(Player(0), &input(json!({"type": "pass"}))).unwrap_err();
    assert_eq!(r.code, "not_your_turn");
    assert!(!g.seat_may_send(&input(json!({"type": "timeout"}))));
    assert!(g.seat_may_send(&input(json!({"type": "pass"}))));
    assert_eq!(Value::Object(g.fallback_input(Player(1))), json!({"type": "pass"}));
    // The clock's input: White loses on time.
    let timeout = g.timeout_input(Player(1));
    g.submit(Player(1), &timeout).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(o.ranking[0], Player(0));
    assert!(g.clock().is_none(), "classic games are timed by their time control");
    assert!(g.turn().seats.is_empty());
    let events = g.events();
    assert_eq!(events.first().unwrap()["event"], "placed");
    assert_eq!(events.last().unwrap()["event"], "game_over");
}

#[test]
fn gobeyond_clean_up_is_a_simultaneous_decision() {
    let mut g = start("gobeyond", "square:5", 2, json!({"turn_seconds": 30, "cleanup_seconds": 90}));
    let clock = g.clock().unwrap();
    assert_eq!((clock.turn_ms, clock.decision_ms), (30_000, 90_000));
    g.submit(Player(0), &input(json!({"type": "occupy", "at": "B2"}))).unwrap();
    for seat in [1, 0, 1] {
        g.submit(Player(seat), &input(json!({"type": "pass"}))).unwrap();
    }
    let turn = g.turn();
    assert_eq!((turn.phase, turn.simultaneous), ("clean_up", true));
    assert_eq!(turn.seats, [Player(0), Player(1)]);
    assert_eq!(Value::Object(g.timeout_input(Player(0))), json!({"type": "cleanup_timeout"}));
    assert_eq!(g.fallback_input(Player(0))["type"], "surrender");
    let r = g.submit(Player(1), &input(json!({"type": "surrender", "at": ["B2"]}))).unwrap_err();
    assert_eq!(r.code, "not_your_stone");
    g.submit(Player(1), &input(json!({"type": "surrender"}))).unwrap();
    assert_eq!(g.turn().seats, [Player(0)], "one decision left");
    let timeout = g.timeout_input(Player(0));
    g.submit(Player(0), &timeout).unwrap();
    assert_eq!(g.turn().phase, "finished");
    let o = g.outcome().unwrap();
    assert_eq!(o.places.len(), 2);
    assert!(!o.is_draw(), "the tie-break komi separates equal PlayPoints");
    // The state with and without the event history.
    let full: Value = serde_json::from_str(g.view(Viewer::Spectator, &[], true).get()).unwrap();
    let bare: Value = serde_json::from_str(g.view(Viewer::Seat(Player(0)), &[], false).get()).unwrap();
    assert!(!full["events"].as_array().unwrap().is_empty());
    assert!(bare["events"].as_array().unwrap().is_empty());
    assert!(!g.hidden_information());
    // The record of it replays to the same events.
    let record = Record::of_any(&g, MapSource::Spec("square:5".into()), vec![PlayerInfo::default(); 2]);
    let back = Record::from_json(&record.to_json()).unwrap().replay().unwrap();
    assert_eq!(back.events(), g.events());
}

#[test]
fn rules_and_settings_refuse_with_the_setting_named() {
    let info = SystemInfo::get("classic").unwrap();
    let mut s = info.default_settings();
    s.insert("komi".into(), json!(1e9));
    assert_eq!(info.validate(&s, 2).unwrap_err().setting, "komi");
    let map = Arc::new(gobeyond_maps::generate("square:5").unwrap());
    let e = info.start(map.clone(), 9, &info.default_settings(), &Start::default()).unwrap_err();
    assert!(e.to_string().contains("players"), "{e}");
    let gob = SystemInfo::get("GoBeyond").unwrap();
    let first = Start { stones: Vec::new(), first: Some(Player(1)) };
    let e = gob.start(map, 2, &gob.default_settings(), &first).unwrap_err();
    assert!(e.to_string().contains("seat 0 moves first"), "{e}");
}

/// Settings are bounded, the error naming the setting: i64::MAX costs once wrapped PlayPoints.
#[test]
fn settings_have_bounds() {
    let gob = SystemInfo::get("gobeyond").unwrap();
    for (name, value) in [
        ("occupy_cost", json!(i64::MAX)),
        ("capture_award", json!(2_000_000_000i64)),
        ("starting_points", json!(1_000_000_001i64)),
        ("turn_seconds", json!(2_592_001)),
        ("handicap", json!([0, i64::MAX])),
    ] {
        let mut s = gob.default_settings();
        s.insert(name.into(), value);
        let e = gob.validate(&s, 2).unwrap_err();
        assert_eq!(e.setting, name, "{e}");
        assert!(e.message.contains("at most"), "{e}");
    }
    // A turn of up to 30 days (games across days), as GoBeyond's own clock.
    let mut s = gob.default_settings();
    s.insert("turn_seconds".into(), json!(2_592_000));
    assert!(gob.validate(&s, 2).is_ok());
    let classic = SystemInfo::get("classic").unwrap();
    let mut s = classic.default_settings();
    s.insert("komi".into(), json!(1e308));
    assert_eq!(classic.validate(&s, 2).unwrap_err().setting, "komi");
}
