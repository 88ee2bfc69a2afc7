//! Classic Go's count and result (issue 41): territory per point, live while dead stones are
//! marked and at the end; the breakdown each scoring rule counts; the result as Go players
//! write it. Through the registry and the wire form, as the server and records use them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod helpers;

use helpers::{obj, players};

use gobeyond_rules::{
    AnyGame, Player,
    record::{MapSource, Record},
    registry::{RulesSpec, rules_by_name},
};
use serde_json::{Value, json};

const B: Player = Player(0);
const W: Player = Player(1);

fn rules(preset: &str, extra: Value) -> RulesSpec {
    let mut r = rules_by_name(preset).unwrap();
    r.settings.extend(obj(extra));
    r
}

fn game(map: &str, rules: RulesSpec) -> AnyGame {
    Record::new(MapSource::Spec(map.into()), rules, players()).replay().unwrap()
}

fn send(g: &mut AnyGame, p: Player, v: Value) {
    g.submit(p, &obj(v.clone())).unwrap_or_else(|e| panic!("{v}: {}", e.message));
}

fn state(g: &AnyGame) -> Value {
    serde_json::from_str(&g.state_json(&players())).unwrap()
}

/// The 5×5 example: Black walls column B (and C3), White column D; White's A3 is inside
/// Black's side. Both pass: the dead-stone phase.
fn walls(g: &mut AnyGame) {
    for (b, w) in [("B1", "D1"), ("B2", "D2"), ("B3", "D3"), ("B4", "D4"), ("B5", "D5"), ("C3", "A3")] {
        send(g, B, json!({"type": "place", "at": b}));
        send(g, W, json!({"type": "place", "at": w}));
    }
    send(g, B, json!({"type": "pass"}));
    send(g, W, json!({"type": "pass"}));
}

/// The labels of the points `state.territory` gives to `player`.
fn territory_of(s: &Value, player: u64) -> Vec<String> {
    let labels: Vec<String> =
        (0..25).map(|i| format!("{}{}", (b'A' + (i % 5) as u8) as char, 5 - i / 5)).collect();
    let t = s["territory"].as_array().unwrap();
    let mut out: Vec<String> = t
        .iter()
        .enumerate()
        .filter(|(_, o)| o.as_u64() == Some(player))
        .map(|(i, _)| labels[i].clone())
        .collect();
    out.sort();
    out
}

#[test]
fn territory_is_shown_while_marking_and_follows_the_dead_stones() {
    let mut g = game("square:5", rules("japanese", json!({})));
    send(&mut g, B, json!({"type": "place", "at": "B1"}));
    assert_eq!(state(&g)["territory"], json!([]), "no territory during play");
    assert!(state(&g)["players"][0]["count"].is_null(), "no count during play");
    let mut g = game("square:5", rules("japanese", json!({})));
    walls(&mut g);
    // Nothing marked: White's A3 splits column A, which is nobody's; column E is White's.
    let s = state(&g);
    assert_eq!(s["status"], "scoring");
    assert_eq!(territory_of(&s, 0), Vec::<String>::new());
    assert_eq!(territory_of(&s, 1), ["E1", "E2", "E3", "E4", "E5"]);
    // A3 marked dead: the whole of column A is Black's, A3's point with it.
    send(&mut g, B, json!({"type": "dead", "at": ["A3"]}));
    let s = state(&g);
    assert_eq!(territory_of(&s, 0), ["A1", "A2", "A3", "A4", "A5"]);
    assert_eq!(s["players"][0]["count"], json!({"territory": 5, "captures": 1, "komi": 0.0, "total": 6.0}));
    // Marked alive again: back as before.
    send(&mut g, W, json!({"type": "dead", "nodes": []}));
    assert_eq!(territory_of(&state(&g), 0), Vec::<String>::new());
}

#[test]
fn the_end_by_passes_keeps_the_count_and_says_who_won_by_how_much() {
    // Territory scoring (komi 6.5): Black 5 points + 1 prisoner (A3) = 6, White 5 + 6.5.
    let mut g = game("square:5", rules("japanese", json!({})));
    walls(&mut g);
    send(&mut g, B, json!({"type": "dead", "at": ["A3"]}));
    send(&mut g, B, json!({"type": "accept"}));
    send(&mut g, W, json!({"type": "accept"}));
    let s = state(&g);
    assert_eq!(s["status"], "finished");
    assert_eq!(s["dead"].as_array().unwrap().len(), 1);
    assert_eq!(territory_of(&s, 0), ["A1", "A2", "A3", "A4", "A5"]);
    assert_eq!(s["players"][1]["count"], json!({"territory": 5, "captures": 0, "komi": 6.5, "total": 11.5}));
    assert_eq!(s["result"], "W+5.5");
    assert_eq!(s["outcome"]["scores"], json!([6.0, 11.5]), "the count's totals are the scores");
    // Area scoring (komi 7.5): Black 6 stones + 5 points = 11, White 5 + 5 + 7.5 = 17.5.
    let mut g = game("square:5", rules("chinese", json!({})));
    walls(&mut g);
    send(&mut g, B, json!({"type": "dead", "at": ["A3"]}));
    send(&mut g, B, json!({"type": "accept"}));
    send(&mut g, W, json!({"type": "accept"}));
    let s = state(&g);
    assert_eq!(s["players"][0]["count"], json!({"territory": 5, "stones": 6, "komi": 0.0, "total": 11.0}));
    assert_eq!(s["players"][1]["count"], json!({"territory": 5, "stones": 5, "komi": 7.5, "total": 17.5}));
    assert_eq!(s["result"], "W+6.5");
    // Komi 1 under area scoring: 11 against 11, a jigo.
    let mut g = game("square:5", rules("chinese", json!({"komi": 1.0})));
    walls(&mut g);
    send(&mut g, B, json!({"type": "dead", "at": ["A3"]}));
    send(&mut g, B, json!({"type": "accept"}));
    send(&mut g, W, json!({"type": "accept"}));
    assert_eq!(state(&g)["result"], "Jigo");
}

#[test]
fn resignation_and_time_give_no_count_only_the_result() {
    let mut g = game("square:5", rules("chinese", json!({})));
    send(&mut g, B, json!({"type": "place", "at": "C3"}));
    send(&mut g, W, json!({"type": "resign"}));
    let s = state(&g);
    assert_eq!(s["result"], "B+R");
    assert_eq!(s["territory"], json!([]));
    assert!(s["players"][0]["count"].is_null());
    let mut g = game("square:5", rules("chinese", json!({})));
    send(&mut g, B, json!({"type": "place", "at": "C3"}));
    send(&mut g, W, json!({"type": "place", "at": "D3"}));
    g.submit(B, &obj(json!({"type": "timeout"}))).unwrap();
    assert_eq!(state(&g)["result"], "W+T");
    // Through the registry, from a stored outcome alone (what lobby lists have).
    let info = gobeyond_rules::registry::SystemInfo::get("classic").unwrap();
    assert_eq!(info.result_notation(g.outcome().unwrap(), 2).as_deref(), Some("W+T"));
    assert_eq!(info.result_notation(g.outcome().unwrap(), 3), None, "more players read the ranking");
}

#[test]
fn moves_are_numbered_as_go_players_count_them() {
    let mut g = game("square:5", rules("japanese", json!({})));
    walls(&mut g);
    assert_eq!(state(&g)["move_number"], 14, "12 stones and 2 passes");
    send(&mut g, B, json!({"type": "dead", "at": ["A3"]}));
    send(&mut g, B, json!({"type": "accept"}));
    assert_eq!(state(&g)["move_number"], 14, "marking and accepting are not moves");
}
