//! Issue 16: under territory scoring the bot neither fills its own territory nor throws stones
//! into the opponent's: at the end of a game it passes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use gobeyond_bots::{Level, computer::Computer};
use gobeyond_rules::{ClassicGame, ClassicRules, Player, classic::Move};

/// Black walls column C, White column D: A-B are Black's, E is White's; nothing is left to play.
fn settled(rules: ClassicRules) -> ClassicGame {
    let map = Arc::new(gobeyond_maps::generate("square:5").unwrap());
    let mut stones = Vec::new();
    for row in 1..=5 {
        stones.push((map.node_by_label(&format!("C{row}")).unwrap(), Player(0)));
        stones.push((map.node_by_label(&format!("D{row}")).unwrap(), Player(1)));
    }
    ClassicGame::with_setup(map, 2, rules, &stones, Player(0)).unwrap()
}

#[test]
fn under_territory_scoring_the_bot_passes_when_only_territory_is_left() {
    let game = settled(ClassicRules::preset("japanese").unwrap());
    for seed in 0..4 {
        let m = game.computer_input(Player(0), Level::new(3).unwrap(), seed, None).unwrap();
        assert_eq!(m, Move::Pass, "seed {seed}: a stone here only loses a point");
    }
}

/// Two bots reach the end of a classic game through the dead-stone phase: their estimates may
/// differ, but each marks at most once and then accepts.
#[test]
fn two_bots_agree_on_dead_stones_and_the_game_ends() {
    use gobeyond_rules::{Game, RuleSystem};
    let map = Arc::new(gobeyond_maps::generate("square:5").unwrap());
    let mut game = ClassicGame::new(map, 2, ClassicRules::preset("japanese").unwrap()).unwrap();
    let mut scored = false;
    for step in 0..500u64 {
        if game.outcome().is_some() {
            break;
        }
        scored |= game.scoring().is_some();
        let seat = game.turn().seats[0];
        let m = game.computer_input(seat, Level::new(2).unwrap(), step, None).unwrap();
        game.submit(seat, &m).unwrap_or_else(|e| panic!("{m:?}: {}", e.message));
    }
    assert!(scored, "the passes led to the dead-stone phase");
    let placed =
        game.moves().iter().filter(|(_, a)| matches!(a, gobeyond_rules::classic::Action::Place(_))).count();
    assert!(placed >= 8, "the bots played the game out before passing: {placed} stones: {:?}", game.moves());
    assert!(game.outcome().is_some(), "the bots agreed");
}

/// Black walls column C, White column D on 9×9: White's side is twice Black's.
fn white_ahead() -> ClassicGame {
    let map = Arc::new(gobeyond_maps::generate("square:9").unwrap());
    let mut stones = Vec::new();
    for row in 1..=9 {
        stones.push((map.node_by_label(&format!("C{row}")).unwrap(), Player(0)));
        stones.push((map.node_by_label(&format!("D{row}")).unwrap(), Player(1)));
    }
    ClassicGame::with_setup(map, 2, ClassicRules::preset("chinese").unwrap(), &stones, Player(0)).unwrap()
}

/// Issue 41: a newcomer who passes on a settled board sees a gentle bot pass back when that
/// ends the game in the bot's favour (the first game's tip: two passes end the game); a bot
/// that would lose by passing plays on.
#[test]
fn a_gentle_bot_passes_back_when_passing_wins() {
    use gobeyond_rules::{Game, RuleSystem};
    for level in 1..=3 {
        let mut game = white_ahead();
        game.submit(Player(0), &Move::Pass).unwrap();
        let m = game.computer_input(Player(1), Level::new(level).unwrap(), 7, None).unwrap();
        assert_eq!(m, Move::Pass, "level {level}: White is ahead and Black passed");
        game.submit(Player(1), &m).unwrap();
        assert!(game.scoring().is_some() || game.outcome().is_some(), "two passes end play");

        let mut game = white_ahead();
        game.submit(Player(0), &Move::place(game.map(), game.map().node_by_label("E5").unwrap())).unwrap();
        game.submit(Player(1), &Move::Pass).unwrap();
        let m = game.computer_input(Player(0), Level::new(level).unwrap(), 7, None).unwrap();
        assert_ne!(m, Move::Pass, "level {level}: Black would lose by passing back");
    }
}
