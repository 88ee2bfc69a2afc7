//! `gobeyond gtp` as a controller drives it: the protocol, the clock, dead stones, SGF.

use super::*;

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
