//! The computer's review (`docs/analysis.md`): values per seat from the search, expected
//! scores and points lost, marks by the system's thresholds, for every rule system.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use gobeyond_bots::Level;
use gobeyond_bots::review::{
    self, Mark, PositionReview, ReviewOptions, judge_moves, judge_moves_with, review_position, review_record,
};
use gobeyond_rules::{
    AnyGame, ClassicGame, ClassicRules, Game, Player, PlayerInfo, Rng, SYSTEMS, classic,
    record::{MapSource, Record},
    registry::rules_with,
};

fn players(n: usize) -> Vec<PlayerInfo> {
    (0..n).map(|i| PlayerInfo { name: format!("p{i}") }).collect()
}

/// A record of `actions` random legal inputs (chance drawn as the server draws it).
fn random_record(
    system: &str,
    settings: &[&str],
    map: &str,
    seats: usize,
    actions: usize,
    seed: u64,
) -> Record {
    record_of(system, settings, map, seats, actions, seed, None)
}

/// A record of at most `actions` inputs, random or of bots at `bots`.
fn record_of(
    system: &str,
    settings: &[&str],
    map: &str,
    seats: usize,
    actions: usize,
    seed: u64,
    bots: Option<Level>,
) -> Record {
    let settings: Vec<String> = settings.iter().map(|s| s.to_string()).collect();
    let rules = rules_with(system, &settings).unwrap();
    let record = Record::new(MapSource::Spec(map.into()), rules, players(seats));
    let mut game = record.new_game().unwrap();
    let mut rng = Rng::new(seed);
    for _ in 0..actions {
        if game.outcome().is_some() {
            break;
        }
        if let Some((seat, input)) = game.draw_chance(&mut rng) {
            game.submit(seat, &input).unwrap();
            continue;
        }
        let Some(&seat) = game.waiting_for().first() else { break };
        let input = match bots {
            Some(level) => gobeyond_bots::computer_input(&game, seat, level, seed, None)
                .unwrap_or_else(|| game.fallback_input(seat)),
            None => game.sample_input(seat, &mut rng),
        };
        if game.submit(seat, &input).is_err() {
            let fallback = game.fallback_input(seat);
            game.submit(seat, &fallback).unwrap();
        }
    }
    Record::of_any(&game, record.map.clone(), players(seats))
}

fn options(playouts: u32) -> ReviewOptions {
    ReviewOptions { playouts, ..ReviewOptions::default() }
}

fn square(x: u32, y: u32) -> classic::Action {
    classic::Action::Place(y * 9 + x)
}

/// Classic 9×9: a White group of six stones in atari (its one liberty at (6, 4)), Black to move.
fn big_group_in_atari() -> ClassicGame {
    let map = Arc::new(gobeyond_maps::generate("square:9").unwrap());
    let mut game = ClassicGame::new(map, 2, ClassicRules::default()).unwrap();
    let black: Vec<_> = (0..6).flat_map(|x| [square(x, 3), square(x, 5)]).collect();
    let white: Vec<_> = (0..6).flat_map(|x| [square(x, 4), square(8, x)]).collect();
    for (b, w) in black.into_iter().zip(white) {
        game.play(b).unwrap();
        game.play(w).unwrap();
    }
    game
}

/// The capture of six stones is the best move; a move elsewhere that lets them escape is
/// marked a blunder, with many points lost.
#[test]
fn a_move_that_misses_a_big_capture_is_a_blunder_and_the_capture_is_best() {
    let mut game = big_group_in_atari();
    let before = review_position(&AnyGame::from(game.clone()), 24, &options(1500));
    assert_eq!(before.to_move, Some(0));
    let capture = serde_json::to_value(&before.best[0].input).unwrap();
    assert_eq!(capture["node"], 4 * 9 + 6, "the capture is the best move: {capture}");
    assert!(before.values[0] > 0.8, "Black is winning: {:?}", before.values);
    game.play(square(8, 8)).unwrap();
    let record = Record::of(&game, MapSource::Spec("square:9".into()), players(2));
    let after = review_position(&AnyGame::from(game.clone()), 25, &options(1500));
    let moves = judge_moves(&record, &[before.clone(), after.clone()]);
    assert_eq!(moves.len(), 1);
    assert_eq!((moves[0].at, moves[0].player, moves[0].mark), (24, 0, Some(Mark::Blunder)), "{moves:?}");
    let points = moves[0].points_lost.unwrap();
    assert!(points > 5.0, "six stones and their space are lost: {points}");
    let scores = before.scores.as_ref().unwrap();
    assert!(scores[0] - scores[1] > 5.0, "Black expects to be ahead: {scores:?}");
}

fn position(at: usize, to_move: Option<u8>, values: Vec<f32>) -> PositionReview {
    PositionReview {
        at,
        to_move,
        values,
        carried: false,
        scores: None,
        best: Vec::new(),
        playouts: 100,
        ownership: Vec::new(),
    }
}

/// Hand-made values give the marks of each threshold; chance draws and decisions of several
/// seats are not judged, and carried positions are looked past.
#[test]
fn judgements_follow_the_thresholds() {
    let mut game = big_group_in_atari();
    for x in 0..6 {
        game.play(square(x, 7)).unwrap();
    }
    // Judgements read only who played each action: the last six, numbered from 0 here.
    let mut record = Record::of(&game, MapSource::Spec("square:9".into()), players(2));
    record.actions.drain(..24);
    let movers: Vec<u8> = record.actions.iter().map(|a| a.player).collect();
    assert_eq!(movers, [0, 1, 0, 1, 0, 1]);
    let t = [0.05, 0.10, 0.20];
    // Black's value at each position (White's is the rest).
    let black = [0.60, 0.54, 0.54, 0.40, 0.65, 0.64, 0.64];
    let positions: Vec<_> = (0..black.len())
        .map(|i| position(i, movers.get(i).copied(), vec![black[i], 1.0 - black[i]]))
        .collect();
    let moves = judge_moves_with(&record, &positions, t);
    let marks: Vec<_> = moves.iter().map(|m| (m.at, m.player, m.mark)).collect();
    assert_eq!(
        marks,
        [
            (0, 0, Some(Mark::Inaccuracy)),
            (1, 1, None),
            (2, 0, Some(Mark::Mistake)),
            (3, 1, Some(Mark::Blunder)),
            (4, 0, None),
            (5, 1, None),
        ]
    );
    assert!((moves[3].loss - 0.25).abs() < 1e-6 && moves[3].points_lost.is_none());
    assert_eq!(review::mark(0.04, t), None);
    // A decision of several seats (carried values) is not judged and is looked past; a position
    // waiting for a chance draw is not judged.
    let mut p = positions.clone();
    p[1].to_move = None;
    p[1].carried = true;
    p[1].values = vec![0.0, 1.0];
    p[4].to_move = None;
    let moves = judge_moves_with(&record, &p, t);
    let at: Vec<_> = moves.iter().map(|m| m.at).collect();
    assert_eq!(at, [0, 2, 3, 5]);
    assert!((moves[0].loss - (0.60 - 0.54)).abs() < 1e-6, "judged against position 2: {moves:?}");
    // A prefix (a review under way) judges what it can.
    assert_eq!(judge_moves_with(&record, &positions[..3], t).len(), 2);
    // Points lost: the mover's margin over the best other seat, before minus after.
    let mut p = positions.clone();
    p[0].scores = Some(vec![40.0, 35.0]);
    p[1].scores = Some(vec![38.0, 37.0]);
    assert_eq!(judge_moves_with(&record, &p, t)[0].points_lost, Some(4.0));
}

/// Thresholds by seats: two players the win-chance drops; three, half a place is a blunder.
#[test]
fn thresholds_per_number_of_seats() {
    assert_eq!(review::default_thresholds(2), review::THRESHOLDS);
    assert_eq!(review::default_thresholds(3), [0.0625, 0.125, 0.25]);
    assert_eq!(review::default_thresholds(6), review::THRESHOLDS);
}

/// Three players: three values from the search itself, each a rank reward in 0..1.
#[test]
fn three_players_get_three_values() {
    let record = random_record("gobeyond", &[], "square:7", 3, 6, 2);
    let game = record.replay().unwrap();
    let p = review_position(&game, record.actions.len(), &options(400));
    assert_eq!(p.values.len(), 3);
    assert!(p.values.iter().all(|v| (0.0..=1.0).contains(v)), "{:?}", p.values);
    // Rank rewards (1, 0.5, 0; a win weighs more) sum to about 1.5 whatever happens.
    let sum: f32 = p.values.iter().sum();
    assert!((1.0..=2.0).contains(&sum), "{:?}", p.values);
    assert!(p.values.iter().any(|&v| (v - p.values[0]).abs() > 1e-3), "not an even split: {:?}", p.values);
    assert_eq!(p.scores.as_ref().map(Vec::len), Some(3), "GoBeyond scores");
}

/// A short review of every system runs: one position per action and the end, values per seat,
/// the final position's values its final rewards.
#[test]
fn a_review_of_each_system_runs() {
    for system in SYSTEMS {
        let seats = if system.name == "gobeyond" { 3 } else { 2 };
        let record = random_record(system.name, &[], "square:5", seats, 8, 3);
        let review = review_record(&record, &options(40), |_, _| {}).unwrap();
        assert_eq!(review.positions.len(), record.actions.len() + 1, "{}", system.name);
        for p in &review.positions {
            assert_eq!(p.values.len(), seats, "{} at {}", system.name, p.at);
        }
        assert!(review.moves.len() <= record.actions.len());
        serde_json::to_string(&review).unwrap();
    }
}

/// Tribal Go with cards after the game: the review runs on the true hands (no
/// determinization) and plays to a finished game's final values.
#[test]
fn a_tribal_review_with_cards_runs_on_the_true_hands() {
    let level = Level::new(2).unwrap();
    let record = record_of("tribal", &["cards=true"], "square:5", 2, 400, 4, Some(level));
    let game = record.replay().unwrap();
    assert!(game.hidden_information(), "cards are hidden information");
    let outcome = game.outcome().expect("the bots finish the game").clone();
    assert!(
        record.actions.iter().any(|a| a.kind() == "play_card" || a.kind() == "drawn"),
        "cards came into play"
    );
    let review = review_record(&record, &options(30), |_, _| {}).unwrap();
    let last = review.positions.last().unwrap();
    assert_eq!(last.to_move, None);
    let first = outcome.ranking[0].index();
    assert_eq!(last.values[first], 1.0, "the winner's final value: {:?}", last.values);
    assert!(review.positions.iter().filter(|p| p.playouts > 0).count() > 10);
    assert!(review.positions.iter().any(|p| p.to_move.is_none() && p.playouts > 0), "chance draws searched");
    assert!(!review.moves.is_empty());
}

/// A seat value of the start of classic 9×9: about even, summing to one.
#[test]
fn two_values_sum_to_one() {
    let record = random_record("classic", &[], "square:9", 2, 0, 5);
    let p = review_position(&record.replay().unwrap(), 0, &options(300));
    assert!((p.values[0] + p.values[1] - 1.0).abs() < 1e-3, "{:?}", p.values);
    let _ = Player(0);
}
