//! `gobeyond analyze` and `gobeyond analyze-trust` on records of every rule system, as made by
//! `gobeyond match --record-dir` (docs/analysis.md).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::{path::PathBuf, process::Command};

use gobeyond_rules::{SYSTEMS, record::Record, sgf};

const BIN: &str = env!("CARGO_BIN_EXE_gobeyond");

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gobeyond-analyze-{}", std::process::id())).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One game of level-1 bots of `system` (three seats for GoBeyond), its record's path.
fn bot_record(system: &str) -> PathBuf {
    let dir = tmp(system);
    let seats = if system == "gobeyond" { 3 } else { 2 };
    let mut args = vec!["match", "--rules", system, "--map", "square:5", "--games", "1", "--threads", "1"];
    for _ in 0..seats {
        args.extend(["--bot", "1"]);
    }
    args.extend(["--record-dir", dir.to_str().unwrap()]);
    let (ok, _, err) = run(&args);
    assert!(ok, "{system}: {err}");
    let file = std::fs::read_dir(&dir).unwrap().next().unwrap().unwrap().path();
    assert!(file.extension().is_some_and(|e| e == "json"), "{file:?}");
    file
}

/// Every system: the JSON review has a position per action and the end, values per seat, and
/// parses; the table has a line per judged action; `--sgf` refuses every system but classic.
#[test]
fn analyze_reviews_a_record_of_each_system() {
    for system in SYSTEMS {
        let file = bot_record(system.name);
        let record = Record::from_json(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let path = file.to_str().unwrap();
        let (ok, json, err) = run(&["analyze", path, "--playouts", "20", "--json"]);
        assert!(ok, "{}: {err}", system.name);
        let review: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(review["format"], "gobeyond-review");
        let positions = review["positions"].as_array().unwrap();
        assert_eq!(positions.len(), record.actions.len() + 1, "{}", system.name);
        assert!(positions.iter().all(|p| p["values"].as_array().unwrap().len() == record.players.len()));
        let (ok, table, err) = run(&["analyze", path, "--playouts", "20"]);
        assert!(ok, "{}: {err}", system.name);
        let judged = review["moves"].as_array().unwrap().len();
        assert!(table.contains(&format!("{judged} actions judged at 20 playouts")), "{table}");
        assert_eq!(table.lines().count(), judged + 2, "{table}");
        if system.name != "classic" {
            let (ok, _, err) = run(&["analyze", path, "--playouts", "20", "--sgf"]);
            assert!(!ok && err.contains("--sgf writes classic Go games"), "{}: {err}", system.name);
        }
    }
}

/// Classic: the SGF carries a comment and Sabaki's win rate on the moves, and reads back as the
/// same game.
#[test]
fn analyze_writes_classic_sgf_that_reads_back() {
    let file = bot_record("classic");
    let record = Record::from_json(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let (ok, text, err) = run(&["analyze", file.to_str().unwrap(), "--playouts", "30", "--sgf"]);
    assert!(ok, "{err}");
    assert!(text.contains("SBKV[") && text.contains("C[Black's win chance"), "{text}");
    let again = sgf::import(&text).unwrap();
    let moves = |r: &Record| r.actions.iter().filter(|a| matches!(a.kind(), "place" | "pass")).count();
    assert_eq!(moves(&again), moves(&record));
    let sbkv = text.matches("SBKV[").count();
    assert_eq!(sbkv, moves(&record) + 1, "the root and every move node");
}

/// Bad input gets a clear error.
#[test]
fn analyze_refuses_bad_budgets_and_files() {
    let file = bot_record("capture");
    let (ok, _, err) = run(&["analyze", file.to_str().unwrap(), "--playouts", "0"]);
    assert!(!ok && err.contains("--playouts must be between 1"), "{err}");
    let (ok, _, err) = run(&["analyze", "/nonexistent/game.json"]);
    assert!(!ok && err.contains("reading /nonexistent/game.json"), "{err}");
}

/// The trust measurement runs on a directory of records and reports its figures as JSON.
#[test]
fn analyze_trust_measures_a_series() {
    let file = bot_record("classic");
    let dir = file.parent().unwrap().to_str().unwrap().to_string();
    let (ok, json, err) =
        run(&["analyze-trust", &dir, "--playouts", "10", "--factor", "3", "--gnugo", "", "--json"]);
    assert!(ok, "{err}");
    let figures: serde_json::Value = serde_json::from_str(&json).unwrap();
    let classic = &figures["classic (2 players)"];
    assert_eq!(classic["games"], 1, "{json}");
    assert!(classic["positions"].as_u64().unwrap() > 0, "{json}");
}
