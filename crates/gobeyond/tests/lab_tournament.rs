//! `gobeyond lab tournament` as a designer runs it: tiny tournaments of level-1 bots.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_gobeyond");

fn lab(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).arg("lab").arg("tournament").args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

const BOTS: [&str; 8] = [
    "--entrant",
    "bot:level=1",
    "--entrant",
    "bot:level=1",
    "--entrant",
    "bot:random",
    "--entrant",
    "bot:greedy",
];

#[test]
fn a_swiss_of_bots_prints_standings_as_json() {
    let mut args = vec!["--map", "hex:3", "--format", "swiss", "--rounds", "2", "--json"];
    args.extend(BOTS);
    let (ok, out, err) = lab(&args);
    assert!(ok, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rounds = json["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 2);
    assert!(rounds.iter().all(|r| r["tables"].as_array().unwrap().len() == 2));
    let rows = json["standings"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    // Two rounds of two-player games: 4 games, one point each.
    let points: f64 = rows.iter().map(|r| r["points"].as_f64().unwrap()).sum();
    assert_eq!(points, 4.0);
    assert_eq!(json["standings"]["tie_breaks"], serde_json::json!(["sos", "sodos", "head_to_head"]));
}

#[test]
fn a_three_player_round_robin_prints_a_table() {
    let mut args = vec!["--map", "hex:3", "--format", "round_robin", "--players-per-game", "3"];
    args.extend(BOTS);
    let (ok, out, err) = lab(&args);
    assert!(ok, "{err}");
    assert!(out.starts_with("place  entrant"), "{out}");
    // One row per entrant (a tie's why is an extra, indented line).
    let rows = out.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()));
    assert_eq!(rows.count(), 4, "{out}");
}

#[test]
fn bad_tournaments_are_refused_with_reasons() {
    let (ok, _, err) = lab(&["--format", "swiss", "--entrant", "1", "--entrant", "1"]);
    assert!(!ok);
    assert!(err.contains("--rounds"), "{err}");
    let (ok, _, err) = lab(&["--format", "ladder", "--entrant", "1"]);
    assert!(!ok);
    assert!(err.contains("--format"), "{err}");
    let (ok, _, err) = lab(&["--format", "round_robin", "--entrant", "bot:level=x", "--entrant", "1"]);
    assert!(!ok);
    assert!(err.contains("bot:level=x"), "{err}");
    let (ok, _, err) = lab(&["--format", "round_robin", "--players-per-game", "9", "--entrant", "1"]);
    assert!(!ok);
    assert!(err.contains("players per game"), "{err}");
}

#[test]
fn entrants_with_their_own_settings_are_named_in_the_standings() {
    let args = [
        "--map",
        "hex:3",
        "--format",
        "single_elimination",
        "--players-per-game",
        "3",
        "--advance",
        "1",
        "--json",
        "--entrant",
        "bot:level=2,patterns=off",
        "--entrant",
        "level=2,name=Ann",
        "--entrant",
        "bot:random",
        "--entrant",
        "bot:greedy,seconds=0.05",
        "--entrant",
        "1",
    ];
    let (ok, out, err) = lab(&args);
    assert!(ok, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> =
        json["entrants"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["level 2 without patterns #1", "Ann #2", "random #3", "greedy, 0.05 s a move #4", "level 1 #5"]
    );
    // Five entrants, three a table: one table and two byes, then the final of three.
    let rounds = json["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 2, "{out}");
    let rows = json["standings"]["rows"].as_array().unwrap();
    assert_eq!(rows.iter().filter(|r| r["eliminated"] == false).count(), 1, "{out}");
    let (ok, _, err) =
        lab(&["--format", "swiss", "--rounds", "1", "--entrant", "level=4,colour=red", "--entrant", "1"]);
    assert!(!ok);
    assert!(err.contains("level=4,colour=red") && err.contains("colour"), "{err}");
}
