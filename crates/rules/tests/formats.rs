//! SGF import/export and JSON records.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

use std::sync::Arc;

use gobeyond_rules::{
    ClassicRules, Game, Player,
    classic::ClassicView,
    classic::{Action, ClassicGame},
    record::{MapSource, PlayerInfo, Record, RecordError},
    sgf,
};

const SAMPLE: &str =
    "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[6.5]RU[Japanese]HA[2]PB[Black \\] Bracket]PW[White]DT[2026-11-22]
AB[cc][gg]
;W[ee];B[dc](;W[ce];B[]
;W[])(;W[aa]))";

#[test]
fn sgf_import_reads_the_main_line() {
    let r = sgf::import(SAMPLE).unwrap();
    assert_eq!(r.map, MapSource::Spec("square:9".into()));
    assert_eq!(r.players[0].name, "Black ] Bracket");
    assert_eq!(r.setup.len(), 2);
    assert_eq!(r.first, Some(1), "White moves first after handicap");
    assert_eq!(r.actions.len(), 5, "main line only");
    let game = r.replay_as::<gobeyond_rules::ClassicGame>().unwrap();
    let map = game.map();
    assert_eq!(game.board().stone_at(map.node_by_label("C7").unwrap()), Some(Player(0)), "cc is C7");
    assert_eq!(game.board().stone_at(map.node_by_label("E5").unwrap()), Some(Player(1)));
    let rules = r.rules.settings_of::<gobeyond_rules::ClassicGame>().unwrap();
    assert_eq!(rules.komi, 6.5);
    assert_eq!(rules.scoring, gobeyond_rules::Scoring::Territory);
    assert!(game.is_over(), "two passes end it");
}

#[test]
fn sgf_round_trip() {
    let r = sgf::import(SAMPLE).unwrap();
    let game = r.replay_as::<gobeyond_rules::ClassicGame>().unwrap();
    let text = sgf::export(&game, &r.players, r.date.as_deref()).unwrap();
    assert!(text.contains("HA[2]") && text.contains("AB[cc][gg]") && text.contains("RE["), "{text}");
    let again = sgf::import(&text).unwrap().replay_as::<gobeyond_rules::ClassicGame>().unwrap();
    assert_eq!(again.board(), game.board());
    assert_eq!(again.moves(), game.moves());
    assert_eq!(again.scores(), game.scores());
}

#[test]
fn sgf_rectangles_and_compressed_points() {
    let r = sgf::import("(;SZ[13:7]AW[aa:bb]PL[W];W[mg])").unwrap();
    assert_eq!(r.map, MapSource::Spec("rect:13x7".into()));
    assert_eq!(r.setup.len(), 4);
    let g = r.replay_as::<gobeyond_rules::ClassicGame>().unwrap();
    assert_eq!(g.map().label(g.moves()[0].1.node().unwrap()), "N1");
}

#[test]
fn sgf_errors_say_where() {
    assert!(matches!(sgf::import("junk"), Err(sgf::SgfError::Syntax { offset: 0, .. })));
    assert!(sgf::import("(;SZ[9];B[zz])").unwrap_err().to_string().contains("off the board"));
    assert!(sgf::import("(;SZ[9];B[aa").is_err());
    assert!(sgf::import("(;GM[3])").is_err());
    let map = Arc::new(gobeyond_maps::generate("hex:4").unwrap());
    let g = ClassicGame::new(map, 2, ClassicRules::default()).unwrap();
    assert!(sgf::export(&g, &[], None).is_err(), "hex boards have no SGF");
}

#[test]
fn records_replay_and_report_bad_actions() {
    let text = r#"{"format":"gobeyond-record","version":1,"map":{"spec":"hex:3"},
        "rules":{"system":"classic","ko":"simple","suicide":"forbidden","komi":0.5,"scoring":"area"},
        "players":[{"name":"a"},{"name":"b"},{"name":"c"}],
        "actions":[{"player":0,"type":"place","at":"C3"},{"player":1,"type":"place","node":0},{"player":2,"type":"pass"}]}"#;
    let r = Record::from_json(text).unwrap();
    let g = r.replay_as::<gobeyond_rules::ClassicGame>().unwrap();
    assert_eq!(g.moves().len(), 3);
    let state = serde_json::to_value(ClassicView::of(&g, &r.players)).unwrap();
    assert_eq!(state["players"][0]["stones"][0], "C3");
    assert_eq!(state["to_move"], 0);
    assert_eq!(state["status"], "playing");

    let mut bad = r.clone();
    bad.actions[1] = serde_json::from_str(r#"{"player":1,"type":"place","at":"C3"}"#).unwrap();
    let err = bad.replay_as::<gobeyond_rules::ClassicGame>().unwrap_err();
    assert!(matches!(err, RecordError::Action { index: 1, .. }), "{err}");
    assert!(err.to_string().contains("C3 is occupied"), "{err}");

    let mut bad = r.clone();
    bad.actions[0] = serde_json::from_str(r#"{"player":0,"type":"place","node":5,"at":"A1"}"#).unwrap();
    assert!(bad.replay_as::<gobeyond_rules::ClassicGame>().unwrap_err().to_string().contains("labelled"));
    assert!(Record::from_json("{\"format\":\"x\"}").is_err());
    assert!(matches!(
        Record::from_json(&text.replace("\"version\":1", "\"version\":9")),
        Err(RecordError::Format { .. })
    ));
}

#[test]
fn record_of_a_game_round_trips() {
    let map = Arc::new(gobeyond_maps::generate("goldberg:2,0").unwrap());
    let mut g = ClassicGame::new(map, 4, ClassicRules::default()).unwrap();
    for n in [0, 5, 9, 13, 20, 1] {
        g.play(Action::Place(n)).unwrap();
    }
    g.play_as(Player(3), Action::Resign).unwrap();
    let r = Record::of(&g, MapSource::Spec("goldberg:2,0".into()), vec![PlayerInfo::default(); 4]);
    let back = Record::from_json(&r.to_json()).unwrap().replay_as::<gobeyond_rules::ClassicGame>().unwrap();
    assert_eq!(back.board(), g.board());
    assert_eq!(back.resigned(), g.resigned());
    assert_eq!(back.next_player(), g.next_player());
}

/// A record written before the registry (version 1, no events) loads and replays unchanged.
#[test]
fn version_1_records_of_both_systems_still_load() {
    let classic = r#"{"format":"gobeyond-record","version":1,"map":{"spec":"square:9"},
      "rules":{"system":"classic","ko":"positional_superko","suicide":"forbidden","komi":7.5,"scoring":"area"},
      "players":[{"name":"Ann"},{"name":"Bo"}],"setup":[{"player":0,"node":20}],"first":1,
      "actions":[{"player":1,"type":"place","node":40,"at":"E5"},{"player":0,"type":"pass"},{"player":1,"type":"resign"}],
      "date":"2026-11-22"}"#;
    let g = Record::from_json(classic).unwrap().replay().unwrap();
    assert_eq!(g.system(), "classic");
    assert_eq!(g.outcome().unwrap().ranking, [Player(0), Player(1)], "White resigned");
    let gob = r#"{"format":"gobeyond-record","version":1,"map":{"spec":"hex:3"},
      "rules":{"system":"gobeyond","turn_seconds":0},"players":[{},{},{}],
      "actions":[{"player":0,"type":"occupy","at":"C3"},{"player":1,"type":"skip"},{"player":2,"type":"timeout"}]}"#;
    let g = Record::from_json(gob).unwrap().replay().unwrap();
    assert_eq!(g.system(), "gobeyond");
    assert_eq!(g.input_count(), 3);
    // Unknown systems and foreign inputs are refused with a reason.
    let bad = gob.replace(r#""system":"gobeyond""#, r#""system":"chess""#);
    assert!(Record::from_json(&bad).unwrap().replay().unwrap_err().to_string().contains("chess"));
    let bad = classic.replace(r#""type":"pass""#, r#""type":"skip""#);
    let e = Record::from_json(&bad).unwrap().replay().unwrap_err().to_string();
    assert!(e.contains("action #1") && e.contains("no \"skip\""), "{e}");
}

/// Classic games record every effect (captures too) and their time-outs, and replay to the same.
#[test]
fn classic_events_and_timeouts_round_trip() {
    let map = Arc::new(gobeyond_maps::generate("square:5").unwrap());
    let at = |l: &str| map.node_by_label(l).unwrap();
    let mut g = ClassicGame::new(map.clone(), 3, ClassicRules::default()).unwrap();
    // Black B1, White A1, Red passes, Black A2 captures A1.
    for a in [Action::Place(at("B1")), Action::Place(at("A1")), Action::Pass, Action::Place(at("A2"))] {
        g.play(a).unwrap();
    }
    assert!(g.events().iter().any(|e| matches!(e,
        gobeyond_rules::classic::Event::Captured { player: Player(0), owner: Player(1), nodes } if nodes == &[at("A1")])));
    g.time_out(Player(1));
    g.play(Action::Pass).unwrap();
    let r = Record::of(&g, MapSource::Spec("square:5".into()), vec![PlayerInfo::default(); 3]);
    assert_eq!(r.actions.iter().filter(|a| a.kind() == "timeout").count(), 1);
    assert_eq!(r.actions[4].kind(), "timeout", "in the order it happened");
    let back = Record::from_json(&r.to_json()).unwrap().replay_as::<ClassicGame>().unwrap();
    assert_eq!(back.events(), g.events());
    assert_eq!(back.resigned(), g.resigned());
}

/// A record that went through another JSON writer (a browser writes the score `81.0` as `81`)
/// still replays; a score that really differs is still caught.
#[test]
fn recorded_events_compare_numbers_by_value() {
    let map = Arc::new(gobeyond_maps::generate("square:5").unwrap());
    let mut g = ClassicGame::new(map, 2, ClassicRules::default()).unwrap();
    g.play(Action::Place(12)).unwrap();
    g.play(Action::Pass).unwrap();
    g.play(Action::Pass).unwrap();
    for seat in [Player(0), Player(1)] {
        gobeyond_rules::RuleSystem::submit(&mut g, seat, &gobeyond_rules::classic::Move::Accept).unwrap();
    }
    assert!(g.is_over());
    let r = Record::of(&g, MapSource::Spec("square:5".into()), vec![PlayerInfo::default(); 2]);
    let json = r.to_json();
    assert!(json.contains(".0"), "the engine writes whole scores as floats: {json}");
    // What `JSON.stringify(JSON.parse(json))` does to whole floats.
    let browser = regex_free_integers(&json);
    assert_ne!(browser, json);
    Record::from_json(&browser).unwrap().replay().expect("the same events, written as integers");
    let mut changed: Record = Record::from_json(&json).unwrap();
    let last = changed.events.len() - 1;
    changed.events[last] =
        serde_json::from_str(&changed.events[last].to_string().replacen("25.0", "26.0", 1)).unwrap();
    assert_ne!(changed.events[last], r.events[last], "Black's 25 points made 26");
    assert!(matches!(changed.replay(), Err(RecordError::Events { .. })));
}

/// `12.0` → `12` wherever a number ends in `.0`.
fn regex_free_integers(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let chars: Vec<char> = json.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '.'
            && i > 0
            && chars[i - 1].is_ascii_digit()
            && chars.get(i + 1) == Some(&'0')
            && !chars.get(i + 2).is_some_and(|c| c.is_ascii_digit())
        {
            i += 2;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}
