//! Classic Go's handicap (issue 41): fixed stones on the standard points, free placement by
//! Black before White's first move, the settings' checks, records (old ones still read) and
//! SGF (`HA`, `AB`, and `RE` for every ending).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod helpers;

use helpers::{obj, players};

use gobeyond_rules::{
    AnyGame, Player, SystemInfo,
    record::{MapSource, PlayerInfo, Record},
    registry::{RulesSpec, rules_by_name},
    systems::classic::{ClassicGame, sgf},
};
use serde_json::{Value, json};

const B: Player = Player(0);
const W: Player = Player(1);

fn rules(extra: Value) -> RulesSpec {
    let mut r = rules_by_name("chinese").unwrap();
    r.settings.extend(obj(extra));
    r
}

fn start(map: &str, rules: RulesSpec) -> Result<AnyGame, String> {
    Record::new(MapSource::Spec(map.into()), rules, players()).replay().map_err(|e| e.to_string())
}

fn send(g: &mut AnyGame, p: Player, v: Value) {
    g.submit(p, &obj(v.clone())).unwrap_or_else(|e| panic!("{v}: {}", e.message));
}

fn state(g: &AnyGame) -> Value {
    serde_json::from_str(&g.state_json(&players())).unwrap()
}

fn black_stones(g: &AnyGame) -> Vec<String> {
    let mut s: Vec<String> = state(g)["players"][0]["stones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().into())
        .collect();
    s.sort();
    s
}

#[test]
fn fixed_handicap_stands_on_the_star_points_and_white_moves_first() {
    let cases: &[(&str, u32, &[&str])] = &[
        ("square:9", 2, &["C3", "G7"]),
        ("square:9", 5, &["C3", "C7", "E5", "G3", "G7"]),
        ("square:13", 4, &["D10", "D4", "K10", "K4"]),
        ("square:19", 9, &["D10", "D16", "D4", "K10", "K16", "K4", "Q10", "Q16", "Q4"]),
    ];
    for &(map, n, points) in cases {
        let g = start(map, rules(json!({"handicap": n, "komi": 0.5}))).unwrap();
        assert_eq!(black_stones(&g), points, "{n} on {map}");
        assert_eq!(g.waiting_for(), vec![W], "White moves first");
        assert_eq!(state(&g)["move_number"], 0);
    }
}

#[test]
fn handicaps_that_cannot_be_are_refused_with_a_reason() {
    let refused = |map: &str, extra: Value, players: usize| {
        let mut r = Record::new(MapSource::Spec(map.into()), rules(extra), players_n(players));
        r.rules.settings.insert("komi".into(), json!(0.5));
        r.replay().map(|_| ()).unwrap_err().to_string()
    };
    assert!(refused("square:9", json!({"handicap": 1}), 2).contains("must be 0, or 2 to 9"));
    assert!(refused("square:19", json!({"handicap": 10}), 2).contains("must be 0, or 2 to 9"));
    assert!(refused("square:9", json!({"handicap": 2}), 3).contains("two-player"));
    assert!(refused("hex:4", json!({"handicap": 2}), 2).contains("square board"));
    assert!(refused("square:8", json!({"handicap": 5}), 2).contains("2 to 4 stones"));
    assert!(refused("square:5", json!({"handicap": 2}), 2).contains("no fixed handicap on a 5×5"));
    // Free placement works on any map.
    assert!(start("hex:4", rules(json!({"handicap": 3, "handicap_placement": "free"}))).is_ok());
}

fn players_n(n: usize) -> Vec<PlayerInfo> {
    (0..n).map(|i| PlayerInfo { name: format!("p{i}") }).collect()
}

#[test]
fn komi_is_half_a_point_with_a_handicap_unless_given() {
    let classic = SystemInfo::get("classic").unwrap();
    assert_eq!(classic.defaults_for(&obj(json!({"handicap": 3})))["komi"], json!(0.5));
    assert_eq!(classic.defaults_for(&obj(json!({})))["komi"], json!(7.5));
    assert_eq!(classic.defaults_for(&obj(json!({"handicap": 0})))["komi"], json!(7.5));
}

#[test]
fn free_handicap_black_places_its_stones_then_white_moves() {
    let mut g = start("square:9", rules(json!({"handicap": 3, "handicap_placement": "free"}))).unwrap();
    assert_eq!(state(&g)["handicap_left"], 3);
    send(&mut g, B, json!({"type": "place", "at": "A1"}));
    let r = g.submit(B, &obj(json!({"type": "pass"}))).unwrap_err();
    assert_eq!(r.code, "handicap_first", "{}", r.message);
    assert!(g.submit(W, &obj(json!({"type": "place", "at": "E5"}))).is_err(), "not White's turn yet");
    send(&mut g, B, json!({"type": "place", "at": "B2"}));
    send(&mut g, B, json!({"type": "place", "at": "C3"}));
    assert_eq!(g.waiting_for(), vec![W]);
    assert!(state(&g).get("handicap_left").is_none());
    assert_eq!(state(&g)["move_number"], 0, "handicap stones are not moves");
    send(&mut g, W, json!({"type": "place", "at": "E5"}));
    assert_eq!(state(&g)["move_number"], 1);
    // The computer's choice for Black: the standard points first.
    let g = start("square:9", rules(json!({"handicap": 2, "handicap_placement": "free"}))).unwrap();
    assert_eq!(g.fallback_input(B)["at"], "C3");
}

#[test]
fn records_keep_the_handicap_and_old_records_still_read() {
    for extra in [json!({"handicap": 4, "komi": 0.5}), json!({"handicap": 2, "handicap_placement": "free"})] {
        let mut g = start("square:9", rules(extra.clone())).unwrap();
        while g.waiting_for() == vec![B] {
            let input = g.fallback_input(B);
            g.submit(B, &input).unwrap();
        }
        send(&mut g, W, json!({"type": "place", "at": "E5"}));
        let record = Record::of_any(&g, MapSource::Spec("square:9".into()), players());
        let again = Record::from_json(&record.to_json()).unwrap().replay().unwrap();
        assert_eq!(state(&again)["board"], state(&g)["board"], "{extra}");
        assert_eq!(again.waiting_for(), vec![B], "{extra}");
    }
    // A record written before handicap existed (no such setting): no handicap, Black first.
    let old = r#"{"format":"gobeyond-record","version":1,"map":{"spec":"square:9"},
        "rules":{"system":"classic","ko":"positional_superko","suicide":"forbidden","komi":7.5,"scoring":"area","dead_stones":true},
        "players":[{"name":"b"},{"name":"w"}],"actions":[{"player":0,"type":"place","at":"E5"}]}"#;
    let g = Record::from_json(old).unwrap().replay().unwrap();
    assert_eq!(black_stones(&g), ["E5"]);
    assert_eq!(g.waiting_for(), vec![W]);
}

fn classic(g: AnyGame) -> ClassicGame {
    ClassicGame::try_from(g).ok().unwrap()
}

#[test]
fn sgf_writes_and_reads_the_handicap() {
    // Fixed: HA and AB, White's move first, no PL needed.
    let mut g = start("square:9", rules(json!({"handicap": 4, "komi": 0.5}))).unwrap();
    send(&mut g, W, json!({"type": "place", "at": "E5"}));
    let text = sgf::export(&classic(g), &players(), None).unwrap();
    assert!(
        text.contains("HA[4]") && text.contains("AB[cg][gc][cc][gg]") && text.contains("KM[0.5]"),
        "{text}"
    );
    assert!(!text.contains("PL["), "{text}");
    let back = sgf::import(&text).unwrap();
    assert_eq!(back.rules.settings["handicap"], 4);
    let g = back.replay().unwrap();
    assert_eq!(black_stones(&g), ["C3", "C7", "G3", "G7"]);
    assert_eq!(state(&g)["players"][1]["stones"], json!(["E5"]));
    // Free: the placed stones are written as setup, the moves start with White's.
    let mut g = start("square:9", rules(json!({"handicap": 2, "handicap_placement": "free"}))).unwrap();
    send(&mut g, B, json!({"type": "place", "at": "A1"}));
    send(&mut g, B, json!({"type": "place", "at": "J9"}));
    send(&mut g, W, json!({"type": "place", "at": "E5"}));
    let text = sgf::export(&classic(g), &players(), None).unwrap();
    assert!(text.contains("HA[2]") && text.contains("AB[ai][ia]"), "{text}");
    assert!(text.contains("\n;W[ee])"), "{text}");
    let g = sgf::import(&text).unwrap().replay().unwrap();
    assert_eq!(black_stones(&g), ["A1", "J9"]);
}

#[test]
fn sgf_result_for_every_ending() {
    let ended = |last: Value, by: Player| {
        let mut g = start("square:9", rules(json!({}))).unwrap();
        send(&mut g, B, json!({"type": "place", "at": "E5"}));
        g.submit(by, &obj(last)).unwrap();
        sgf::export(&classic(g), &players(), None).unwrap()
    };
    assert!(ended(json!({"type": "resign"}), W).contains("RE[B+R]"));
    assert!(ended(json!({"type": "timeout"}), W).contains("RE[B+T]"));
    // By passes with dead stones removed: the count's margin (see classic_count.rs).
    let mut r = rules_by_name("japanese").unwrap();
    r.settings.insert("dead_stones".into(), json!(false));
    let mut g = Record::new(MapSource::Spec("square:9".into()), r, players()).replay().unwrap();
    send(&mut g, B, json!({"type": "place", "at": "E5"}));
    send(&mut g, W, json!({"type": "pass"}));
    send(&mut g, B, json!({"type": "pass"}));
    // Black: 80 points of territory; White: komi 6.5.
    assert!(sgf::export(&classic(g), &players(), None).unwrap().contains("RE[B+73.5]"));
}
