//! The `gobeyond` binary as a user runs it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

mod gtp_client;

use std::{
    io::Write,
    process::{Command, Stdio},
};

use gtp_client::Gtp;

const BIN: &str = env!("CARGO_BIN_EXE_gobeyond");

fn run(args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that refuses its arguments may exit before reading its input: a closed pipe
    // is its answer, not the test's failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gobeyond-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn map_list_and_show() {
    let (ok, out, _) = run(&["map", "list", "--json"], "");
    assert!(ok);
    let list: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(list.as_array().unwrap().len() >= 13);

    let svg = tmp("g.svg");
    let json = tmp("g.json");
    let (ok, out, err) = run(
        &[
            "map",
            "show",
            "goldberg:3,0",
            "--svg",
            svg.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
            "--start-points",
            "4",
        ],
        "",
    );
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["nodes"], 92);
    assert_eq!(v["degrees"]["5"], 12);
    assert_eq!(v["start_points"].as_array().unwrap().len(), 4);
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    // The exported JSON loads back as a custom map.
    let (ok, out, err) = run(&["map", "show", json.to_str().unwrap()], "");
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["nodes"], 92);
    assert_eq!(v["spec"], "custom");
}

#[test]
fn bad_maps_get_clear_errors() {
    let (ok, _, err) = run(&["map", "show", "hexx:5"], "");
    assert!(!ok && err.contains("unknown map kind"), "{err}");
    let bad = tmp("bad.json");
    std::fs::write(&bad, r#"{"nodes":[{"x":0,"y":0},{"x":1}],"edges":[[0,1],[0,0],[1,7]]}"#).unwrap();
    let (ok, _, err) = run(&["map", "show", bad.to_str().unwrap()], "");
    assert!(!ok);
    assert!(
        err.contains("node 1 has missing")
            && err.contains("edge #1 joins node 0 to itself")
            && err.contains("edge #2 names node 7"),
        "{err}"
    );
    std::fs::write(&bad, "{not json").unwrap();
    let (ok, _, err) = run(&["map", "show", bad.to_str().unwrap()], "");
    assert!(!ok && err.contains("line 1"), "{err}");
}

#[test]
fn play_in_the_terminal_saves_and_replays() {
    let save = tmp("game.json");
    // X captures the O stone in the corner; illegal moves and a typo are explained.
    // Then the dead-stone phase: White marks Black's B1 group dead, Black toggles it back to
    // alive, and both accept.
    let script = "B1\nA1\nA2\nA1\nB1\nZ9\npass\npass\naccept\nB1\nB1\naccept\naccept\n";
    let (ok, out, err) = run(&["play", "--map", "square:5", "--save", save.to_str().unwrap()], script);
    assert!(ok, "{err}");
    assert!(out.contains("Illegal: A1 would be suicide"), "{out}");
    assert!(out.contains("Illegal: B1 is occupied"), "{out}");
    assert!(out.contains("There is no node \"Z9\""), "{out}");
    assert!(out.contains("Dead stones: B1. Type a stone"), "a toggled group is shown dead: {out}");
    assert!(out.contains("Game over"), "{out}");
    let (ok, out, err) = run(&["replay", save.to_str().unwrap()], "");
    assert!(ok, "{err}");
    let state: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(state["status"], "finished");
    assert_eq!(state["players"][0]["prisoners"], 1);
    assert_eq!(state["players"][0]["stones"], serde_json::json!(["A2", "B1"]));
    // Half-way.
    let (_, out, _) = run(&["replay", save.to_str().unwrap(), "--upto", "2"], "");
    let state: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(state["moves_played"], 2);
    assert_eq!(state["to_move"], 0);
}

#[test]
fn play_many_players_on_a_hex_board_with_undo() {
    let script = "C3\nundo\nC3\nB2\nD4\nresign\nresign\n";
    let (ok, out, err) = run(&["play", "--map", "hex:3", "--players", "3"], script);
    assert!(ok, "{err}");
    assert!(out.contains("Red (C) to move"), "{out}");
    assert!(out.contains("Game over (Resignation)"), "{out}");
    assert!(out.contains("1. Red") && out.contains("3. Black"), "the last player standing wins: {out}");
}

/// Tribal Go's cards in the terminal: a pass draws, the hand of the seat to act is shown, and
/// another player's move opens a reaction window that a `decline` closes.
#[test]
fn play_tribal_go_with_cards() {
    let script = "A5\nE1\npass\nB1\ncard zzz\ndecline\nquit\n";
    let (ok, out, err) =
        run(&["play", "--rules", "tribal-pro", "--map", "square:5", "--set", "cards=true"], script);
    assert!(ok, "{err}");
    assert!(out.contains("with cards"), "{out}");
    assert!(out.contains("Black draws a card"), "{out}");
    assert!(out.contains("Black's cards: none. 50 cards to draw"), "{out}");
    assert!(out.contains("49 cards to draw"), "the pass drew one: {out}");
    assert!(out.contains("Black (X): reject White's move? reject, replace or decline"), "{out}");
    assert!(out.contains("card NAME: a card of your hand"), "{out}");
    assert!(out.contains("Passes in a row: 0 of 2"), "{out}");
}

/// Gengo in the terminal: overlap refused with the reason, a corner capture in words, both
/// scores, three passes, and a record that replays.
#[test]
fn play_gengo_in_the_terminal() {
    let save = tmp("gengo.json");
    let script = "A1\nC2\nB1\nE5\nA4\npass\npass\npass\n";
    let (ok, out, err) =
        run(&["play", "--rules", "gengo", "--map", "square:9", "--save", save.to_str().unwrap()], script);
    assert!(ok, "{err}");
    assert!(out.contains("B1 is inside the overlap region of a White stone"), "{out}");
    assert!(out.contains("White captured A1."), "{out}");
    assert!(out.contains("Stones: Black 1, White 2 · Area: Black 9, White 16"), "{out}");
    assert!(out.contains("1. White — 2"), "{out}");
    let (ok, out, err) = run(&["replay", save.to_str().unwrap()], "");
    assert!(ok, "{err}");
    let state: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(state["rules"]["system"], "gengo");
    assert_eq!(state["players"][1]["prisoners"], 1);
    assert_eq!(state["players"][0]["lost"], 1);
}

#[test]
fn play_the_way_of_go_in_the_terminal() {
    let save = tmp("way.json");
    // The pie (E3 and C3 Black, E7 White), seat 2 takes White and captures E3 from E7; Black
    // drops and ends; White may not pass while a turn exists, and resigns.
    let script = "E3\nC3\nwhite E7\nwhite\nE7-E3\nD5\nend\npass\nresign\n";
    let (ok, out, err) =
        run(&["play", "--rules", "way-of-go", "--map", "square:9", "--save", save.to_str().unwrap()], script);
    assert!(ok, "{err}");
    assert!(out.contains("Seat 2 takes White; White moves first."), "{out}");
    assert!(out.contains("White ranges: E7 4"), "{out}");
    assert!(out.contains("White captured on E3 from E7: 1 taken, 1 of its own sacrificed."), "{out}");
    assert!(out.contains("Captures: Black 0 of 5 · White 1 of 5"), "{out}");
    assert!(out.contains("a pass is only allowed when no turn is possible"), "{out}");
    assert!(out.contains("1. Black — 0 captures of 5"), "{out}");
    let (ok, out, err) = run(&["replay", save.to_str().unwrap()], "");
    assert!(ok, "{err}");
    let state: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(state["rules"]["system"], "way-of-go");
    assert_eq!(state["players"][1]["colour"], "white");
    assert_eq!(state["players"][1]["captures"], 1);
    assert_eq!(state["outcome"]["reason"], "resignation");
}

#[test]
fn play_besiege_in_the_terminal() {
    let save = tmp("besiege.json");
    // The pie; White drops and ends; Black drops C6, so C5's group reaches its own J5: a stack.
    // White drops; Black lifts the top stone of J5 to J8 and drops; White resigns.
    let script = "C5\nJ5\nwhite A9\nwhite\nH1\nend\nC6\nC5-J5\nB2\nend\nJ5-J8/1\nD8\nresign\n";
    let (ok, out, err) =
        run(&["play", "--rules", "besiege", "--map", "square:9", "--save", save.to_str().unwrap()], script);
    assert!(ok, "{err}");
    assert!(out.contains("Black moved a stone C5–J5 onto its own stack."), "{out}");
    assert!(out.contains("Stacks: J5 X×2"), "{out}");
    assert!(out.contains("Black ranges: C6 4, J5 3/3"), "{out}");
    assert!(out.contains("Black moved a stone J5–J8."), "{out}");
    let (ok, out, err) = run(&["replay", save.to_str().unwrap()], "");
    assert!(ok, "{err}");
    let state: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(state["rules"]["system"], "besiege");
    let j5 = 4 * 9 + 8;
    let j8 = 9 + 8;
    assert_eq!((state["height"][j5].as_u64(), state["height"][j8].as_u64()), (Some(1), Some(1)));
}

#[test]
fn replay_rejects_broken_records() {
    let bad = tmp("broken.json");
    std::fs::write(&bad, r#"{"format":"gobeyond-record","version":1,"map":{"spec":"square:9"},"rules":{"system":"classic","ko":"simple","suicide":"forbidden","komi":7,"scoring":"area"},"players":[{},{}],"actions":[{"player":0,"type":"place","at":"E5"},{"player":1,"type":"place","at":"E5"}]}"#).unwrap();
    let (ok, _, err) = run(&["replay", bad.to_str().unwrap()], "");
    assert!(!ok);
    assert!(err.contains("action #1") && err.contains("E5 is occupied"), "{err}");
}

#[test]
fn sgf_out_of_replay() {
    let sgf = tmp("in.sgf");
    std::fs::write(&sgf, "(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc];B[gc])").unwrap();
    let out_sgf = tmp("out.sgf");
    let (ok, out, err) = run(&["replay", sgf.to_str().unwrap(), "--sgf", out_sgf.to_str().unwrap()], "");
    assert!(ok, "{err}");
    assert!(out.contains("\"moves_played\": 3"));
    let text = std::fs::read_to_string(&out_sgf).unwrap();
    assert!(text.contains(";B[ee]") && text.contains(";W[cc]") && text.contains("SZ[9]"), "{text}");
}

/// `--rules` takes what the registry has, and says so.
#[test]
fn rules_come_from_the_registry() {
    let (ok, _, err) = run(&["play", "--rules", "chess"], "");
    assert!(!ok && err.contains("gobeyond, classic") && err.contains("tromp-taylor"), "{err}");
    let (ok, out, _) = run(&["play", "--help"], "");
    assert!(ok && out.contains("gobeyond, gobeyond-untimed, classic, chinese"), "{out}");
    let (ok, out, err) = run(&["rules", "--json"], "");
    assert!(ok, "{err}");
    let systems: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = systems.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    // Every registered system, in the registry's order (no list here to keep up to date).
    let registered: Vec<&str> = gobeyond_rules::SYSTEMS.iter().map(|s| s.name).collect();
    assert_eq!(names, registered);
    assert_eq!(&names[..6], ["gobeyond", "classic", "tribal", "gengo", "way-of-go", "besiege"]);
    assert!(systems[1]["settings"].as_array().unwrap().iter().any(|s| s["name"] == "komi"));
}

/// The search tree's memory budget is a setting of `gtp`, checked.
#[test]
fn gtp_tree_memory_is_checked() {
    let (ok, _, err) = run(&["gtp", "--tree-memory", "0"], "quit\n");
    assert!(!ok && err.contains("--tree-memory"), "{err}");
    let (ok, out, err) =
        run(&["gtp", "--tree-memory", "2", "--playouts", "300"], "boardsize 9\ngenmove b\nquit\n");
    assert!(ok && out.contains("= "), "{out}{err}");
}

#[test]
fn gtp_protocol() {
    // Level 1 plays at random: quick, and the protocol is what this test is about.
    let mut e = Gtp::spawn(BIN, &["gtp", "--level", "1"]);
    assert_eq!(e.ok("protocol_version"), "2");
    assert_eq!(e.ok("name"), "GoBeyond");
    assert_eq!(e.ok("known_command genmove"), "true");
    assert_eq!(e.ok("known_command frobnicate"), "false");
    assert!(e.ok("list_commands").lines().count() >= 25);
    assert!(e.cmd("frobnicate").unwrap_err().contains("unknown command"));
    assert!(e.cmd("boardsize 26").unwrap_err().contains("unacceptable size"));
    e.ok("boardsize 9");
    e.ok("clear_board");
    e.ok("komi 6.5");
    // Ids are echoed (the client strips them).
    assert_eq!(e.ok("7 name"), "GoBeyond");
    assert_eq!(e.handle_raw("8 protocol_version"), "=8 2");
    e.ok("play b E5");
    assert!(e.cmd("play w E5").unwrap_err().contains("illegal move"));
    assert!(e.cmd("play w Z99").is_err());
    assert!(e.cmd("play purple E4").is_err());
    let mv = e.ok("genmove w");
    assert_ne!(mv, "E5");
    assert_eq!(e.ok("list_stones white").to_uppercase(), mv.to_uppercase());
    e.ok("undo");
    assert_eq!(e.ok("list_stones white"), "");
    assert_eq!(e.ok("countlib E5"), "4");
    assert_eq!(gtp_client::vertices(&e.ok("findlib E5")), ["D5", "E4", "E6", "F5"]);
    assert_eq!(e.ok("is_legal w E5"), "0");
    assert_eq!(e.ok("all_legal w").split_whitespace().count(), 80);
    // Final score with area counting: black owns the board, komi 6.5.
    assert_eq!(e.ok("final_score"), "B+74.5");
    assert_eq!(e.ok("final_status_list alive"), "E5");
    assert_eq!(e.ok("final_status_list dead"), "");
    e.ok("time_settings 0 10 1");
    // Handicap on an empty board only.
    assert!(e.cmd("fixed_handicap 2").is_err());
    e.ok("clear_board");
    assert_eq!(gtp_client::vertices(&e.ok("fixed_handicap 4")), ["C3", "C7", "G3", "G7"]);
    assert!(e.ok("showboard").contains("X"));
    let sgf = e.ok("printsgf");
    assert!(sgf.contains("HA[4]") && sgf.contains("AB["), "{sgf}");
    e.ok("clear_board");
    e.ok("set_free_handicap A1 J9");
    assert_eq!(gtp_client::vertices(&e.ok("list_stones black")), ["A1", "J9"]);
    // A whole game of genmove against itself ends with passes, never an illegal move.
    e.ok("clear_board");
    let mut passes = 0;
    for i in 0..400 {
        let c = if i % 2 == 0 { "b" } else { "w" };
        let m = e.ok(&format!("genmove {c}"));
        passes = if m == "pass" { passes + 1 } else { 0 };
        if passes == 2 {
            break;
        }
    }
    assert_eq!(passes, 2, "random play finishes a 9x9 game");
}

#[test]
fn gtp_search_time_and_dead_stones() {
    let mut e = Gtp::spawn(BIN, &["gtp", "--playouts", "400"]);
    e.ok("boardsize 7");
    e.ok("clear_board");
    e.ok("komi 0.5");
    // A Black wall around a lone White stone: the stone is dead.
    for v in ["C3", "C4", "D5", "E4", "E3", "D2"] {
        e.ok(&format!("play b {v}"));
    }
    e.ok("play w D4");
    assert_eq!(e.ok("final_status_list dead"), "D4");
    assert!(e.ok("final_status_list alive").contains("C3"));
    assert!(e.ok("final_score").starts_with("B+"));
    e.ok("time_settings 60 5 1");
    e.ok("time_left w 30 0");
    let mv = e.ok("genmove w");
    assert!(mv == "resign" || mv == "pass" || e.ok("list_stones white").contains(&mv), "{mv}");
    e.ok("kgs-time_settings byoyomi 10 1 3");
    e.ok("kgs-time_settings none");
    assert!(e.cmd("kgs-time_settings hourglass 5").is_err());
    assert!(e.cmd("time_left w -3 0").is_err());
    // The search constants for tuning: a tuned engine plays, a nonsense constant is refused.
    let mut tuned =
        Gtp::spawn(BIN, &["gtp", "--playouts", "100", "--exploration", "0.3", "--rave-equivalence", "50"]);
    tuned.ok("boardsize 5");
    tuned.ok("clear_board");
    let mv = tuned.ok("genmove b");
    assert!(tuned.ok("list_stones black").contains(&mv), "{mv}");
    let (ok, _, err) = run(&["gtp", "--exploration=-1"], "");
    assert!(!ok && err.contains("--exploration must be a number of 0 or more"), "{err}");
}

#[test]
fn gtp_loadsgf() {
    let sgf = tmp("load.sgf");
    std::fs::write(&sgf, "(;GM[1]FF[4]SZ[9];B[ee];W[cc];B[gc];W[dd])").unwrap();
    let mut e = Gtp::spawn(BIN, &["gtp"]);
    assert_eq!(e.ok(&format!("loadsgf {} 3", sgf.display())), "black");
    assert_eq!(gtp_client::vertices(&e.ok("list_stones black")), ["E5"]);
    assert_eq!(e.ok(&format!("loadsgf {}", sgf.display())), "black");
    assert_eq!(gtp_client::vertices(&e.ok("list_stones white")), ["C7", "D6"]);
    assert!(e.cmd("loadsgf /nonexistent.sgf").unwrap_err().contains("cannot load"));
}

#[test]
fn play_gobeyond_in_the_terminal() {
    let save = tmp("gobeyond.json");
    // Occupy, a refused occupy (the player stays in phase 3), a typo, skip, then N + 1 = 4 passes
    // and a Clean-Up choice per player (one refused first).
    let script = "E5\nE6\nE5\nQ9\nD5\nskip\npass\npass\npass\npass\nE6\n\n\n\n";
    let args =
        ["play", "--rules", "gobeyond", "--players", "3", "--map", "hex:5", "--save", save.to_str().unwrap()];
    let (ok, out, err) = run(&args, script);
    assert!(ok, "{err}");
    assert!(out.contains("Turn 1: Black (A), 200 PP, 20 s left>"), "{out}");
    assert!(out.contains("Black occupies E5: −10 PP"), "{out}");
    assert!(out.contains("Illegal: E5 is occupied"), "{out}");
    assert!(out.contains("There is no node \"Q9\""), "{out}");
    assert!(
        out.contains("Turn 3: Red (C), 200 PP, 20 s left>   · Red occupies D5"),
        "still Red's turn: {out}"
    );
    assert!(out.contains("Play ends. Clean-Up"), "{out}");
    assert!(out.contains("Refused: E6 is not a stone of Black"), "{out}");
    assert!(out.contains("Game over (Passes)"), "{out}");
    let (ok, out, err) = run(&["replay", save.to_str().unwrap()], "");
    assert!(ok, "{err}");
    let state: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(state["phase"], "finished");
    assert_eq!(state["rules"]["system"], "gobeyond");
    assert_eq!(state["players"][0]["stones"], serde_json::json!(["E5"]));
    let ranking = state["outcome"]["ranking"].as_array().unwrap();
    assert_eq!(ranking.len(), 3);
    assert!(state["events"].as_array().unwrap().iter().any(|e| e["event"] == "final_bonus"));
    // Part-way: the recorded events describe the whole game, so --upto replays without them.
    let (ok, out, err) = run(&["replay", save.to_str().unwrap(), "--upto", "1"], "");
    assert!(ok, "{err}");
    let state: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(state["to_move"], 1);
    assert_eq!(state["players"][0]["points"], 190);
    // Settings: unknown names are refused with the name.
    let (ok, _, err) = run(&["play", "--rules", "gobeyond", "--set", "ocupy_cost=5"], "");
    assert!(!ok && err.contains("ocupy_cost"), "{err}");
    let (ok, out, err) = run(
        &["play", "--rules", "gobeyond", "--set", "starting_points=50", "--set", "turn_seconds=0"],
        "quit\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("Turn 1: Black (X), 50 PP>"), "{out}");
}

/// The per-turn clock: a turn that runs out is a Skip. (Waits for the output, never measures.)
#[test]
fn gobeyond_turn_clock_skips() {
    use std::io::Read;
    let mut child = Command::new(BIN)
        .args(["play", "--rules", "gobeyond", "--map", "square:5", "--set", "turn_seconds=1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(String::from_utf8_lossy(&buf[..n]).into_owned()).is_err() {
                break;
            }
        }
    });
    let mut out = String::new();
    while !out.contains("White ran out of time: skip") {
        match rx.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(chunk) => out.push_str(&chunk),
            Err(_) => break,
        }
    }
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    child.wait().unwrap();
    assert!(out.contains("Time is up.") && out.contains("Black ran out of time: skip"), "{out}");
    assert!(out.contains("White ran out of time: skip"), "{out}");
}

/// Under a clock the controller enforces (absolute time: 6 seconds for the whole game), the
/// full-strength engine spreads its time over the game and never loses on time.
#[test]
fn the_engine_keeps_to_the_controllers_clock() {
    let (ok, out, err) = run(
        &[
            "match",
            "--engine",
            // Pondering on, two threads on one tree: the opponent's moves interrupt the ponder.
            "self:level=10,threads=2,ponder=true",
            "--engine",
            "self:level=2,playouts=50",
            "--games",
            "2",
            "--size",
            "9",
            "--main-time",
            "6",
            "--seconds-per-move",
            "0.001",
        ],
        "",
    );
    assert!(ok, "{err}");
    let s: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(s["games"], 2, "{out}");
    assert_eq!(s["time_losses"], serde_json::json!([0, 0]), "{out}\n{err}");
    // Two passes end a game: nobody's next move is refused as played after the end.
    assert!(!err.contains("illegal move"), "{err}");
    let per_move = s["seconds_per_move"][0].as_f64().unwrap();
    assert!(per_move > 0.0 && per_move < 6.0, "{out}");
}

#[test]
fn match_runner_engines_and_bots() {
    let dir = tmp("match-sgf");
    let (ok, out, err) = run(
        &[
            "match",
            "--engine",
            "self:level=1",
            "--engine",
            "self:level=2,playouts=50",
            "--games",
            "2",
            "--size",
            "5",
            "--komi",
            "0.5",
            "--threads",
            "1",
            "--sgf-dir",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert!(ok, "{err}");
    let s: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(s["games"], 2);
    assert_eq!(
        s["wins"][0].as_u64().unwrap() + s["wins"][1].as_u64().unwrap() + s["draws"].as_u64().unwrap(),
        2
    );
    let lo = s["interval"][0].as_f64().unwrap();
    let hi = s["interval"][1].as_f64().unwrap();
    assert!(0.0 <= lo && lo <= s["win_rate"].as_f64().unwrap() && hi <= 1.0);
    let sgf = std::fs::read_to_string(dir.join("game-001.sgf")).unwrap();
    // `--threads` reaches this program's own engines.
    assert!(sgf.contains("SZ[5]") && sgf.contains("PB[self:level=1,threads=1]"), "{sgf}");
    assert_eq!(s["engines"][1], "self:level=2,playouts=50,threads=1", "{out}");
    // Every record carries the result the summary counted (engine a is Black in game 1).
    let (mut a_wins, mut draws) = (0, 0);
    for (g, a_colour) in [(1, 'B'), (2, 'W')] {
        let sgf = std::fs::read_to_string(dir.join(format!("game-00{g}.sgf"))).unwrap();
        let re = sgf.split("RE[").nth(1).and_then(|r| r.chars().next());
        assert!(matches!(re, Some('B' | 'W' | '0')), "no result in game {g}: {sgf}");
        a_wins += usize::from(re == Some(a_colour));
        draws += usize::from(re == Some('0'));
    }
    assert_eq!(s["wins"][0].as_u64(), Some(a_wins as u64));
    assert_eq!(s["draws"].as_u64(), Some(draws as u64));

    // A series resumed at its second game plays that game alone, with engine a White as in
    // the whole series; a first game past the series' end is refused.
    let resumed = tmp("match-sgf-resumed");
    let engines = ["--engine", "self:level=1", "--engine", "self:level=2,playouts=50", "--size", "5"];
    let tail =
        ["--games", "2", "--threads", "1", "--first-game", "2", "--sgf-dir", resumed.to_str().unwrap()];
    let (ok, out, err) = run(&[&["match"][..], &engines, &tail].concat(), "");
    assert!(ok, "{err}");
    let s: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(s["games"], 1, "{out}");
    assert!(!resumed.join("game-001.sgf").exists());
    let sgf = std::fs::read_to_string(resumed.join("game-002.sgf")).unwrap();
    assert!(sgf.contains("PW[self:level=1,threads=1]"), "{sgf}");
    let (ok, _, err) = run(&[&["match"][..], &engines, &["--games", "2", "--first-game", "3"]].concat(), "");
    assert!(!ok && err.contains("--first-game 3"), "{err}");

    let (ok, out, err) = run(
        &["match", "--bot", "random", "--bot", "greedy", "--bot", "2", "--map", "hex:3", "--games", "3"],
        "",
    );
    assert!(ok, "{err}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    let wins: u64 = r["bots"].as_array().unwrap().iter().map(|b| b["wins"].as_u64().unwrap()).sum();
    assert_eq!(wins, 3);
    assert_eq!(r["wins_by_seat"].as_array().unwrap().len(), 3);
    let (ok, _, err) = run(&["match", "--bot", "random"], "");
    assert!(!ok && err.contains("two --engine"), "{err}");

    // Draws are counted as draws, not as a win for whoever is listed first: BeSiege without
    // the pie, stopped after White's first turn (only a drop is possible), is always 0–0.
    let args =
        ["match", "--rules", "besiege", "--map", "square:5", "--set", "pie=false", "--set", "max_turns=1"];
    let (ok, out, err) =
        run(&[&args[..], &["--bot", "random", "--bot", "greedy", "--games", "2"]].concat(), "");
    assert!(ok, "{err}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    for b in r["bots"].as_array().unwrap() {
        assert_eq!(
            (b["wins"].as_u64(), b["draws"].as_u64(), b["mean_place"].as_f64()),
            (Some(0), Some(2), Some(1.0)),
            "{r}"
        );
    }
    assert_eq!(r["wins_by_seat"], serde_json::json!([0, 0]));
}

/// `train fit` reads the project's own JSON records of classic games on any map (the bot's
/// games on a hex grid here) and refuses another rule system's records with a reason.
#[test]
fn the_patterns_fit_on_the_bots_own_records() {
    let dir = tmp("fit-json");
    let (ok, _, err) = run(
        &[
            "match",
            "--rules",
            "classic",
            "--bot",
            "3",
            "--bot",
            "2",
            "--map",
            "hex:3",
            "--games",
            "2",
            "--record-dir",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert!(ok, "{err}");
    // A record that does not replay (a move on a stone) is left out and named, not fatal.
    std::fs::write(dir.join("broken.sgf"), "(;GM[1]FF[4]SZ[9];B[ee];W[ee])").unwrap();
    let out = tmp("fit-json.json");
    let (ok, report, err) = run(&["train", "fit", dir.to_str().unwrap(), "--out", out.to_str().unwrap()], "");
    assert!(ok, "{err}");
    let r: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert_eq!(r["games"], 2, "{report}");
    let skipped = r["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{report}");
    assert!(skipped[0]["file"].as_str().unwrap().ends_with("broken.sgf"), "{report}");
    assert!(skipped[0]["reason"].as_str().unwrap().contains("replaying"), "{report}");
    assert!(err.contains("leaving out") && err.contains("broken.sgf"), "{err}");
    assert!(r["positions"].as_u64().unwrap() > 10, "{report}");
    let weights: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(!weights["shapes"].as_object().unwrap().is_empty(), "{weights}");

    let other = tmp("fit-way");
    let (ok, _, err) = run(
        &[
            "match",
            "--rules",
            "way-of-go",
            "--bot",
            "1",
            "--bot",
            "1",
            "--map",
            "square:5",
            "--games",
            "1",
            "--record-dir",
            other.to_str().unwrap(),
        ],
        "",
    );
    assert!(ok, "{err}");
    let (ok, _, err) = run(&["train", "fit", other.to_str().unwrap(), "--out", out.to_str().unwrap()], "");
    assert!(!ok && err.contains("way-of-go rules, not classic"), "{err}");
}

/// The checked-in pattern weights are what `train fit` makes of the checked-in records: the
/// small-board model (counted shapes) from GNU Go's 13×13 games, the big-board one (oriented
/// shapes) from 9-dan players' 19×19 games (one of which does not replay and is left out), each
/// then extended with the bot's own hex games for
/// the shapes of hex cells. The fitted weights predict held-out moves far better than equal
/// weights, and hex moves better than the square weights alone.
#[test]
fn the_pattern_weights_are_reproducible_from_the_records() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // `train fit RECORDS [--base FILE] [--counted] --out FILE`: its JSON report, the run
    // asserted to succeed.
    let fit = |records: &[&str], base: Option<&std::path::Path>, counted: bool, out: &std::path::Path| {
        let records: Vec<String> = records
            .iter()
            .map(|r| root.join("data/patterns").join(r).to_str().unwrap().to_string())
            .collect();
        let mut args = vec!["train", "fit"];
        args.extend(records.iter().map(String::as_str));
        args.extend(["--out", out.to_str().unwrap()]);
        if let Some(base) = base {
            args.extend(["--base", base.to_str().unwrap()]);
        }
        if counted {
            args.push("--counted");
        }
        let (ok, report, err) = run(&args, "");
        assert!(ok, "{err}");
        serde_json::from_str::<serde_json::Value>(&report).unwrap()
    };
    let models: [(&[&str], bool, &str); 2] =
        [(&["gnugo-13x13"], true, "patterns.json"), (&["tom-9d-19x19"], false, "patterns-big.json")];
    let out = tmp("patterns.json");
    for (records, counted, file) in models {
        let square = tmp(&format!("square-{file}"));
        let r = fit(records, None, counted, &square);
        let (before, after) =
            (r["before"]["top1"].as_f64().unwrap(), r["held_out"]["top1"].as_f64().unwrap());
        assert!(after > 10.0 * before, "{r}");
        // The big model weighs the 5×5 shapes played three times or more; the small one none.
        assert_eq!(r["large_shapes"].as_u64().unwrap() > 1000, !counted, "{r}");

        let r = fit(&["bot-hex7"], Some(&square), false, &out);
        let fitted = std::fs::read_to_string(&out).unwrap();
        let checked_in = std::fs::read_to_string(root.join("crates/bots/data").join(file)).unwrap();
        assert!(fitted == checked_in, "crates/bots/data/{file} is not the fit of data/patterns");
        let (base, extended) = (
            r["before"]["log_likelihood"].as_f64().unwrap(),
            r["held_out"]["log_likelihood"].as_f64().unwrap(),
        );
        assert!(extended > base + 0.1, "{r}");
        // The square model's groups are kept as they were.
        let square: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&square).unwrap()).unwrap();
        let extended: serde_json::Value = serde_json::from_str(&fitted).unwrap();
        assert_eq!(square["groups"], extended["groups"]);
        assert_eq!(extended["version"], if counted { 1 } else { 4 });
        // The big model weighs the line of moves in empty areas; the small one does not.
        assert_eq!(extended["groups"].get("line").is_some(), !counted, "{fitted}");
    }

    let (ok, _, err) =
        run(&["train", "fit", root.join("docs").to_str().unwrap(), "--out", out.to_str().unwrap()], "");
    assert!(!ok && err.contains("no game records"), "{err}");
}
