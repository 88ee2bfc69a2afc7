//! A record's event (a tournament's name, round and table): in the JSON record, optional and
//! read from records without it; in SGF as `EV` and `RO`, written and read back.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

use gobeyond_rules::{
    record::{Record, RecordEvent},
    sgf,
};

/// A version-2 record as the server wrote it before games knew their tournament.
const VERSION_2_WITHOUT_EVENT: &str = r#"{
  "format": "gobeyond-record", "version": 2, "map": { "spec": "square:9" },
  "rules": { "system": "classic", "ko": "positional_superko", "suicide": "forbidden",
             "komi": 7.5, "scoring": "area" },
  "players": [ { "name": "Ann" }, { "name": "Bo" } ],
  "actions": [ { "player": 0, "type": "place", "at": "E5" }, { "player": 1, "type": "pass" } ],
  "date": "2026-11-22"
}"#;

fn friday_swiss() -> RecordEvent {
    RecordEvent { tournament: Some(7), name: "Friday [Swiss]".into(), round: Some(2), table: Some(3) }
}

#[test]
fn a_record_without_an_event_still_loads_and_stays_without_one() {
    let r = Record::from_json(VERSION_2_WITHOUT_EVENT).unwrap();
    assert_eq!(r.event, None);
    assert_eq!(r.actions.len(), 2);
    r.replay().unwrap();
    assert!(!r.to_json().contains("\"event\""), "no event written where there was none");
}

#[test]
fn a_record_keeps_its_event_through_json() {
    let mut r = Record::from_json(VERSION_2_WITHOUT_EVENT).unwrap();
    r.event = Some(friday_swiss());
    let text = r.to_json();
    assert!(text.contains("\"event\""), "{text}");
    let again = Record::from_json(&text).unwrap();
    assert_eq!(again.event, Some(friday_swiss()));
    assert_eq!(again.version, 2, "an optional field needs no new version");
}

#[test]
fn sgf_writes_and_reads_the_event_and_round() {
    let mut r = Record::from_json(VERSION_2_WITHOUT_EVENT).unwrap();
    r.event = Some(friday_swiss());
    let text = sgf::export_record(&r).unwrap();
    assert!(text.contains("EV[Friday [Swiss\\]]RO[2]"), "{text}");
    let read = sgf::import(&text).unwrap();
    let event = read.event.expect("EV read back");
    assert_eq!(event.name, "Friday [Swiss]");
    assert_eq!(event.round, Some(2));
    assert_eq!((event.tournament, event.table), (None, None), "SGF names no tournament id or table");
    assert_eq!(read.actions.len(), 2);
}

#[test]
fn sgf_reads_a_round_written_as_free_text_and_no_event_without_ev() {
    let read = sgf::import("(;GM[1]SZ[9]EV[Meijin]RO[3 (final)];B[ee])").unwrap();
    let event = read.event.unwrap();
    assert_eq!((event.name.as_str(), event.round), ("Meijin", Some(3)));
    let odd = sgf::import("(;GM[1]SZ[9]EV[Club night]RO[Final];B[ee])").unwrap();
    assert_eq!(odd.event.unwrap().round, None, "a round without a number is left out");
    assert_eq!(sgf::import("(;GM[1]SZ[9];B[ee])").unwrap().event, None);
}
