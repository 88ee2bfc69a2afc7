//! Capture Go (`docs/rules/capture.md`), one rule each: the first capture wins, captures of
//! several players at once, no suicide, positional superko, passes and shared places, the turn
//! limit, leaving the game, the settings; then random games on every map family whose refused
//! inputs change nothing and whose records replay to the same game.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId, generate};
use gobeyond_rules::{
    AnyGame, EndReason, Game, Player, Rng, RuleSystem, SystemInfo,
    capture::{Action, CaptureGame, CaptureRules, Event, Move},
    record::{MapSource, PlayerInfo, Record},
};

const B: Player = Player(0);
const W: Player = Player(1);
const R: Player = Player(2);

fn node(map: &Map, label: &str) -> NodeId {
    map.node_by_label(label).unwrap_or_else(|| panic!("no {label} on {}", map.spec()))
}

/// A game on `spec` for `players` with stones set up by label (one list per seat), `first` to
/// move.
fn game(spec: &str, rules: CaptureRules, stones: &[&[&str]], first: Player) -> CaptureGame {
    let map = Arc::new(generate(spec).unwrap());
    let setup: Vec<(NodeId, Player)> = stones
        .iter()
        .enumerate()
        .flat_map(|(seat, labels)| labels.iter().map(move |l| (seat, *l)))
        .map(|(seat, l)| (node(&map, l), Player(seat as u8)))
        .collect();
    CaptureGame::new(map, stones.len().max(2), rules, &setup, first).unwrap()
}

fn place(g: &mut CaptureGame, label: &str) {
    let n = node(g.map(), label);
    g.play(Action::Place(n)).unwrap_or_else(|e| panic!("{label}: {e}"));
}

fn refusal(g: &mut CaptureGame, seat: Player, label: &str) -> String {
    let input = Move::Place { node: None, at: Some(label.into()) };
    let before = format!("{:?}", g.view(gobeyond_rules::Viewer::Spectator, &[], false));
    let e = RuleSystem::submit(g, seat, &input).unwrap_err();
    assert_eq!(
        format!("{:?}", g.view(gobeyond_rules::Viewer::Spectator, &[], false)),
        before,
        "{label} changed the game"
    );
    e.code
}

#[test]
fn the_first_capture_wins() {
    // White's C3 has one liberty left, at C4.
    let mut g = game("square:5", CaptureRules::default(), &[&["B3", "D3", "C2"], &["C3"]], B);
    place(&mut g, "C4");
    let o = g.outcome().expect("the capture ends the game");
    assert_eq!(o.reason, EndReason::Contract);
    assert_eq!(o.ranking, vec![B, W]);
    assert_eq!(o.places, vec![1, 2]);
    assert_eq!(o.scores, vec![1.0, 0.0]);
    assert_eq!(g.board().stone_at(node(g.map(), "C3")), None);
    let captured = g.events().iter().find_map(|e| match e {
        Event::Captured { player, owner, nodes } => Some((*player, *owner, nodes.len())),
        _ => None,
    });
    assert_eq!(captured, Some((B, W, 1)));
    // Nothing more can be played.
    assert_eq!(refusal(&mut g, W, "A1"), "game_over");
}

#[test]
fn a_target_of_three_needs_three_stones() {
    let rules = CaptureRules { target: 3, ..CaptureRules::default() };
    // White C3-C4 has one liberty, at C5; White A1 one, at A2.
    let mut g = game("square:5", rules, &[&["B3", "B4", "D3", "D4", "C2", "B1"], &["C3", "C4", "A1"]], B);
    place(&mut g, "C5");
    assert_eq!(g.captures(B), 2);
    assert!(g.outcome().is_none(), "two stones are not three");
    place(&mut g, "E5");
    place(&mut g, "A2");
    assert_eq!(g.captures(B), 3);
    assert_eq!(g.outcome().unwrap().reason, EndReason::Contract);
}

#[test]
fn one_placement_captures_stones_of_two_players() {
    // White A1 and Red A3 each have their last liberty at A2.
    let mut g = game(
        "square:5",
        CaptureRules { target: 5, ..CaptureRules::default() },
        &[&["B1", "B3", "A4"], &["A1"], &["A3"]],
        B,
    );
    place(&mut g, "A2");
    assert_eq!(g.captures(B), 2);
    let owners: Vec<Player> = g
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Captured { owner, .. } => Some(*owner),
            _ => None,
        })
        .collect();
    assert_eq!(owners, vec![W, R]);
    assert_eq!(g.to_move(), Some(W));
}

#[test]
fn suicide_is_refused() {
    // A1 surrounded by White at A2 and B1: Black there captures nothing.
    let mut g = game("square:5", CaptureRules::default(), &[&["E5"], &["A2", "B1"]], B);
    assert_eq!(refusal(&mut g, B, "A1"), "suicide");
    assert_eq!(refusal(&mut g, B, "A2"), "occupied");
    assert_eq!(refusal(&mut g, W, "C3"), "not_your_turn");
}

#[test]
fn a_capture_that_fills_the_last_liberty_is_not_suicide() {
    // Black A1 would have no liberty, but it captures White A2 (liberties A1 only).
    let mut g = game("square:5", CaptureRules::default(), &[&["A3", "B2"], &["A2", "B1"]], B);
    assert!(g.check(Action::Place(node(g.map(), "A1"))).is_ok());
    place(&mut g, "A1");
    assert_eq!(g.captures(B), 1, "A2 is taken; B1 keeps C1");
    assert_eq!(g.board().stone_at(node(g.map(), "A1")), Some(B));
    assert!(g.outcome().is_some());
}

#[test]
fn positional_superko_forbids_retaking_a_ko_at_once() {
    // A ko: Black takes White's B3 by playing C3; White's retake at B3 would recreate the
    // starting position.
    let rules = CaptureRules { target: 5, ..CaptureRules::default() };
    let mut g = game("square:5", rules, &[&["B2", "A3", "B4"], &["C2", "B3", "C4", "D3"]], B);
    // Black C3 captures B3 (B3's liberties: A3 black, B2 black, B4 black, C3).
    place(&mut g, "C3");
    assert_eq!(g.captures(B), 1);
    assert_eq!(refusal(&mut g, W, "B3"), "superko");
    place(&mut g, "E5"); // White elsewhere
    place(&mut g, "E1"); // Black elsewhere
    // Now the position with C3 captured and B3 White is new (E5, E1 are on the board).
    place(&mut g, "B3");
    assert_eq!(g.captures(W), 1);
}

#[test]
fn passes_end_the_game_and_equal_captures_share_a_place() {
    let mut g = game("square:5", CaptureRules::default(), &[&[], &[], &[]], B);
    place(&mut g, "A1");
    g.play(Action::Pass).unwrap();
    g.play(Action::Pass).unwrap();
    assert!(g.outcome().is_none(), "two passes of three players");
    g.play(Action::Pass).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, EndReason::Passes);
    assert_eq!(o.places, vec![1, 1, 1], "no captures: all share first place");
    assert!(o.is_draw());
}

#[test]
fn the_turn_limit_ends_the_game_as_passes_do() {
    let rules = CaptureRules { turn_limit: Some(3), ..CaptureRules::default() };
    let mut g = game("square:5", rules, &[&[], &[]], B);
    place(&mut g, "A1");
    place(&mut g, "E5");
    assert!(g.outcome().is_none());
    place(&mut g, "C3");
    assert_eq!(g.outcome().unwrap().reason, EndReason::TurnLimit);
    assert_eq!(g.turns_played(), 3);
    // The default: three turns per node.
    assert_eq!(CaptureRules::default().turns(81), 243);
}

#[test]
fn a_player_who_resigns_leaves_and_the_last_one_wins() {
    let mut g = game("square:5", CaptureRules::default(), &[&[], &[], &[]], B);
    g.play(Action::Resign).unwrap();
    assert_eq!(g.to_move(), Some(W));
    place(&mut g, "A1");
    assert_eq!(g.to_move(), Some(R));
    place(&mut g, "E5");
    assert_eq!(g.to_move(), Some(W), "Black is skipped");
    // Red's time runs out: White is left alone and wins.
    g.play(Action::Pass).unwrap();
    g.time_out(R).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, EndReason::Time);
    assert_eq!(o.ranking, vec![W, R, B], "the first to leave is last of all");
}

#[test]
fn passes_count_only_the_players_still_in() {
    let mut g = game("square:5", CaptureRules::default(), &[&[], &[], &[]], B);
    g.play(Action::Pass).unwrap();
    g.play(Action::Resign).unwrap(); // White leaves after Black's pass
    g.play(Action::Pass).unwrap(); // Red: Black and Red have both passed
    assert_eq!(g.outcome().unwrap().reason, EndReason::Passes);
}

#[test]
fn settings_are_checked_by_name() {
    let info = SystemInfo::get("capture").unwrap();
    let mut o = info.default_settings();
    o.insert("target".into(), 0.into());
    assert_eq!(info.validate(&o, 2).unwrap_err().setting, "target");
    assert_eq!(info.validate(&info.default_settings(), 9).unwrap_err().setting, "players");
    assert_eq!(gobeyond_rules::registry::rules_by_name("capture-5").unwrap().settings["target"], 5);
}

#[test]
fn undo_takes_back_the_last_input() {
    let mut g = game("square:5", CaptureRules { target: 2, ..CaptureRules::default() }, &[&[], &[]], B);
    place(&mut g, "A1");
    let after_one = format!("{:?}", g.view(gobeyond_rules::Viewer::Spectator, &[], false));
    place(&mut g, "B1");
    assert!(gobeyond_rules::kit::undo_last(&mut g));
    assert_eq!(format!("{:?}", g.view(gobeyond_rules::Viewer::Spectator, &[], false)), after_one);
    assert!(gobeyond_rules::kit::undo_last(&mut g));
    assert!(!gobeyond_rules::kit::undo_last(&mut g), "nothing left to take back");
}

/// Random games on every map family, 2 to 5 players: every legal action is accepted, every
/// other placement refused with a code and no change, and the record replays to the same
/// game with the same events.
#[test]
fn random_games_replay_and_refusals_change_nothing() {
    let mut rng = Rng::new(39);
    for spec in ["square:7", "hex:3", "torus:5", "cube:2", "goldberg:1,1", "grid:3x3x3"] {
        for players in 2..=5usize {
            let map = Arc::new(generate(spec).unwrap());
            let rules = CaptureRules { target: 1 + rng.below(6), turn_limit: None };
            let mut g = CaptureGame::new(map.clone(), players, rules.clone(), &[], B).unwrap();
            let mut legal = Vec::new();
            while g.outcome().is_none() {
                let seat = g.to_move().unwrap();
                let probe = rng.below(map.len() as u32);
                if g.check(Action::Place(probe)).is_err() {
                    let before = g.input_count();
                    let m = Move::Place { node: Some(u64::from(probe)), at: None };
                    assert!(RuleSystem::submit(&mut g, seat, &m).is_err());
                    assert_eq!(g.input_count(), before);
                }
                g.legal_actions(&mut legal);
                let action = if rng.below(30) == 0 {
                    Action::Resign
                } else {
                    legal[rng.below(legal.len() as u32) as usize]
                };
                g.play(action).unwrap();
            }
            let names: Vec<PlayerInfo> = (0..players).map(|i| PlayerInfo { name: format!("p{i}") }).collect();
            let record = Record::of(&g, MapSource::Spec(spec.into()), names);
            let text = record.to_json();
            let replayed: CaptureGame = Record::from_json(&text).unwrap().replay_as().unwrap();
            assert_eq!(replayed.outcome(), g.outcome(), "{spec}, {players} players");
            assert_eq!(RuleSystem::events(&replayed), RuleSystem::events(&g));
            let any: AnyGame = Record::from_json(&text).unwrap().replay().unwrap();
            assert_eq!(any.system(), "capture");
        }
    }
}
