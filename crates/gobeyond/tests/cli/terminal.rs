//! Pass-and-play in the terminal, on every rule system: moves, saves, records that replay.

use super::*;

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
