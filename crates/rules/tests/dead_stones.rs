//! Classic Go's dead-stone phase (issue 16): after the passes the players agree on dead stones,
//! may disagree and play on, and the score removes the agreed dead stones. Through the registry
//! and the wire form, as the server and records use it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod helpers;

use helpers::obj;

use gobeyond_rules::{
    AnyGame, EndReason, Player,
    record::{MapSource, PlayerInfo, Record},
    registry::rules_by_name,
};
use serde_json::{Value, json};

const B: Player = Player(0);
const W: Player = Player(1);

fn new_game(rules: &str) -> (AnyGame, Vec<PlayerInfo>) {
    let players = vec![PlayerInfo { name: "b".into() }, PlayerInfo { name: "w".into() }];
    let record =
        Record::new(MapSource::Spec("square:5".into()), rules_by_name(rules).unwrap(), players.clone());
    (record.replay().unwrap(), players)
}

fn send(g: &mut AnyGame, p: Player, v: Value) {
    g.submit(p, &obj(v.clone())).unwrap_or_else(|e| panic!("{v}: {}", e.message));
}

/// Black walls column B, White column D; a White stone at A3 is dead inside Black's area.
fn play_to_the_passes(g: &mut AnyGame) {
    for (b, w) in [("B1", "D1"), ("B2", "D2"), ("B3", "D3"), ("B4", "D4"), ("B5", "D5"), ("C3", "A3")] {
        send(g, B, json!({"type": "place", "at": b}));
        send(g, W, json!({"type": "place", "at": w}));
    }
    send(g, B, json!({"type": "pass"}));
    send(g, W, json!({"type": "pass"}));
}

fn state(g: &AnyGame, players: &[PlayerInfo]) -> Value {
    serde_json::from_str(&g.state_json(players)).unwrap()
}

#[test]
fn agreement_disagreement_and_resumption_then_the_score_without_the_dead() {
    let (mut g, players) = new_game("japanese");
    play_to_the_passes(&mut g);
    let s = state(&g, &players);
    assert_eq!(s["status"], "scoring");
    assert_eq!(g.turn().phase, "scoring");
    assert!(g.turn().simultaneous);
    assert_eq!(g.decided_for(), vec![B], "the first marking is the computer's proposal");
    // Moves are refused now.
    let r = g.submit(B, &obj(json!({"type": "place", "at": "E5"}))).unwrap_err();
    assert_eq!(r.code, "in_scoring");
    // The proposal (made for Black): White's A3 is dead. Marking an empty node is refused.
    let r = g.submit(B, &obj(json!({"type": "dead", "at": ["A1"]}))).unwrap_err();
    assert_eq!(r.code, "no_stone");
    send(&mut g, B, json!({"type": "dead", "at": ["A3"], "proposed": true}));
    let s = state(&g, &players);
    assert_eq!(s["dead"].as_array().unwrap().len(), 1);
    // White disagrees by marking nothing dead: acceptances start again.
    send(&mut g, B, json!({"type": "accept"}));
    send(&mut g, W, json!({"type": "dead", "nodes": []}));
    assert_eq!(g.waiting_for(), vec![B, W], "a new marking withdraws every acceptance");
    // Black resumes play instead: White (the next player) moves.
    send(&mut g, B, json!({"type": "resume"}));
    assert_eq!(state(&g, &players)["status"], "playing");
    assert_eq!(g.waiting_for(), vec![W]);
    send(&mut g, W, json!({"type": "place", "at": "A4"}));
    send(&mut g, B, json!({"type": "place", "at": "A5"}));
    send(&mut g, W, json!({"type": "pass"}));
    send(&mut g, B, json!({"type": "pass"}));
    assert_eq!(state(&g, &players)["status"], "scoring");
    // Now both agree that White's A3-A4 group is dead; the score removes it.
    send(&mut g, W, json!({"type": "dead", "at": ["A4"]}));
    send(&mut g, B, json!({"type": "accept"}));
    send(&mut g, W, json!({"type": "accept"}));
    let o = g.outcome().expect("over").clone();
    assert_eq!(o.reason, EndReason::Passes);
    let s = state(&g, &players);
    assert_eq!(s["dead"].as_array().unwrap().len(), 2, "{s}");
    // Territory scoring: Black's A1-A4 (the dead stones' nodes included; column C touches
    // White's wall, so it is nobody's) and the two dead stones as prisoners: 4 + 2. White:
    // column E and komi 6.5. Counted alive, A3-A4 would have left Black nothing.
    assert_eq!(o.scores, vec![6.0, 11.5]);
    let owned: Vec<u64> = s["ownership"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, o)| **o == json!(0))
        .map(|(i, _)| i as u64)
        .collect();
    assert!(owned.len() >= 4 + 7, "the dead stones' nodes are Black's: {s}");
    // The record replays to the same end.
    let record = Record::of_any(&g, MapSource::Spec("square:5".into()), players.clone());
    let again = record.replay().unwrap();
    assert_eq!(again.outcome(), Some(&o));
    assert_eq!(again.state_json(&players), g.state_json(&players));
}

#[test]
fn a_time_out_in_the_dead_stone_phase_accepts() {
    let (mut g, players) = new_game("chinese");
    play_to_the_passes(&mut g);
    send(&mut g, B, json!({"type": "dead", "at": ["A3"], "proposed": true}));
    send(&mut g, W, json!({"type": "accept"}));
    let timeout = g.timeout_input(B);
    g.submit(B, &timeout).unwrap();
    let o = g.outcome().expect("the time-out accepted");
    assert_eq!(o.reason, EndReason::Passes, "a time-out here loses nothing");
    assert!(g.events().iter().any(|e| e["event"] == "accepted" && e["timeout"] == true));
    let record = Record::of_any(&g, MapSource::Spec("square:5".into()), players);
    assert_eq!(record.replay().unwrap().outcome(), Some(o));
}

#[test]
fn tromp_taylor_and_older_records_count_every_stone_alive() {
    let (mut g, _) = new_game("tromp-taylor");
    play_to_the_passes(&mut g);
    assert!(g.outcome().is_some(), "no dead-stone phase under Tromp-Taylor");
    let old: gobeyond_rules::ClassicRules =
        serde_json::from_str(r#"{"ko":"simple","suicide":"forbidden","komi":6.5,"scoring":"territory"}"#)
            .unwrap();
    assert!(!old.dead_stones, "records from before the phase existed replay as played");
}
