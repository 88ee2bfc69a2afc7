//! GoBeyond invariants over random games on many maps with 2 to 5 players: PlayPoints always
//! equal what the player's own events add up to, refused inputs change nothing, reservations
//! and claims are what the rules say, and a record replays to the same game.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

use std::sync::Arc;

use gobeyond_maps::{NodeId, generate};
use gobeyond_rules::{
    Game, Player, Rng,
    gobeyond::{Action, GoBeyondGame, GoBeyondRules, Phase},
    record::{MapSource, PlayerInfo, Record, RecordError},
    regions,
};
use proptest::prelude::*;

const MAPS: &[&str] = &["square:5", "hex:3", "torus:4", "goldberg:1,1", "honeycomb:2", "rect:6x3", "cube:2"];

/// What must not change when an input is refused.
fn fingerprint(g: &GoBeyondGame) -> (u64, Vec<i64>, usize, usize, Option<Player>, u32, Phase) {
    let points = (0..g.player_count() as u8).map(|p| g.points(Player(p))).collect();
    (
        g.board().hash(),
        points,
        g.events().len(),
        g.log().len(),
        g.to_move(),
        g.consecutive_passes(),
        g.phase(),
    )
}

fn check_invariants(g: &GoBeyondGame) {
    let n = g.player_count();
    for p in (0..n as u8).map(Player) {
        let from_events: i64 = g.events().iter().map(|e| e.points_for(p)).sum();
        assert_eq!(g.points(p), from_events, "{p}: PlayPoints = start + income + awards − costs");
        assert!(g.points(p) >= 0, "{p} overspent");
        if let Some(node) = g.reservation(p) {
            assert_eq!(g.board().stone_at(node), None, "a reserved node is empty");
            assert_eq!(g.claimant(node), Some(p), "a reserved node stays claimed by its player");
        }
    }
    let owner = regions::ownership(g.board());
    for v in g.map().nodes() {
        let expected = if g.board().stone_at(v).is_some() { None } else { owner[v as usize] };
        assert_eq!(g.claimant(v), expected, "claims are the regions' owners");
    }
    assert!(g.board().is_consistent());
}

/// Plays a random game, checking invariants after every input, and returns it.
fn random_game(spec: &str, players: usize, seed: u64, steps: usize) -> GoBeyondGame {
    let map = Arc::new(generate(spec).unwrap());
    let rules = GoBeyondRules { starting_points: 60 + (seed % 5) as i64 * 40, ..GoBeyondRules::default() };
    let mut g = GoBeyondGame::new(map.clone(), players, rules).unwrap();
    let mut rng = Rng::new(seed);
    let mut legal = Vec::new();
    let mut step = 0;
    while g.phase() != Phase::Finished {
        step += 1;
        check_invariants(&g);
        if g.phase() == Phase::CleanUp {
            let p = g.awaiting_cleanup()[rng.below(g.awaiting_cleanup().len() as u32) as usize];
            // A refused choice first: someone else's stone or an empty node.
            let other = map.nodes().find(|&v| g.board().stone_at(v) != Some(p)).unwrap();
            let before = fingerprint(&g);
            assert!(g.surrender(p, &[other]).is_err());
            assert_eq!(fingerprint(&g), before);
            if rng.below(8) == 0 {
                g.cleanup_time_out(p).unwrap();
            } else {
                let mine: Vec<NodeId> =
                    map.nodes().filter(|&v| g.board().stone_at(v) == Some(p) && rng.below(4) == 0).collect();
                // Stones in one's own territory are refused (they are not doomed): then
                // nothing changes, and the player surrenders nothing instead.
                let before = fingerprint(&g);
                match g.surrender(p, &mine) {
                    Ok(()) => {}
                    Err(gobeyond_rules::gobeyond::Illegal::OwnTerritory { .. }) => {
                        assert_eq!(fingerprint(&g), before);
                        g.surrender(p, &[]).unwrap();
                    }
                    Err(e) => panic!("{e}"),
                }
            }
            continue;
        }
        let to_move = g.to_move().unwrap();
        if step > steps {
            g.play(Action::Pass).unwrap();
            continue;
        }
        let r = rng.below(100);
        if r < 2 {
            // Somebody resigns, in turn or not.
            let p = Player(rng.below(players as u32) as u8);
            let before = fingerprint(&g);
            match g.play_as(p, Action::Resign) {
                Ok(()) => {}
                Err(_) => assert_eq!(fingerprint(&g), before),
            }
        } else if r < 8 {
            g.play(Action::Pass).unwrap();
        } else if r < 11 {
            g.play(if r == 10 { Action::Timeout } else { Action::Skip }).unwrap();
        } else if r < 30 {
            // Any node at all, often refused: then nothing may change.
            let node = rng.below(map.len() as u32 + 2);
            let before = fingerprint(&g);
            let checked = g.check(Action::Occupy(node));
            let played = g.play(Action::Occupy(node));
            assert_eq!(checked, played, "check and play agree");
            if played.is_err() {
                assert_eq!(fingerprint(&g), before, "refused {node}: unchanged");
                assert_eq!(g.to_move(), Some(to_move), "the player stays in phase 3");
            }
        } else {
            g.legal_actions(&mut legal);
            let a = legal[rng.below(legal.len() as u32) as usize];
            g.play(a).unwrap();
        }
    }
    check_invariants(&g);
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn points_add_up_and_records_replay(map in 0..MAPS.len(), players in 2usize..=5, seed in any::<u64>()) {
        let g = random_game(MAPS[map], players, seed, 160);
        let record = Record::of(&g, MapSource::Spec(MAPS[map].into()), vec![PlayerInfo::default(); players]);
        let back = Record::from_json(&record.to_json()).unwrap().replay_as::<gobeyond_rules::GoBeyondGame>().unwrap();
        prop_assert_eq!(back.events(), g.events());
        prop_assert_eq!(fingerprint(&back), fingerprint(&g));
        prop_assert_eq!(back.outcome(), g.outcome());
        // Ranking: resigned players last, the first to resign last of all; the others by score.
        let o = g.outcome().unwrap();
        let active = players - g.resigned().len();
        let tail: Vec<Player> = g.resigned().iter().rev().copied().collect();
        prop_assert_eq!(&o.ranking[active..], &tail[..]);
        // Higher PlayPoints first; equal PlayPoints: the later turn position first.
        for w in o.ranking[..active].windows(2) {
            let (a, b) = (o.scores[w[0].index()], o.scores[w[1].index()]);
            prop_assert!(a > b || (a == b && w[0].0 > w[1].0 && o.tie_broken));
        }
    }

    #[test]
    fn legal_actions_are_exactly_the_accepted_ones(map in 0..MAPS.len(), players in 2usize..=4, seed in any::<u64>()) {
        // Part-way through a game: replay the first inputs of a random one.
        let long = random_game(MAPS[map], players, seed, 60);
        let mut g = GoBeyondGame::new(long.map().clone(), players, long.rules().clone()).unwrap();
        for (p, input) in long.log().iter().take(40) {
            g.apply(*p, input).unwrap();
        }
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        for v in g.map().nodes() {
            prop_assert_eq!(legal.contains(&Action::Occupy(v)), g.check(Action::Occupy(v)).is_ok());
        }
    }
}

#[test]
fn undo_takes_back_one_input() {
    let g = random_game("hex:3", 3, 7, 30);
    let mut h = g.clone();
    let mut count = 0;
    while h.undo() {
        count += 1;
        check_invariants(&h);
    }
    assert_eq!(count, g.log().len());
    assert_eq!(h.events().len(), 3 + 1, "starting points and the first turn");
}

#[test]
fn tampered_events_are_caught() {
    let g = random_game("square:5", 2, 3, 40);
    let mut record = Record::of(&g, MapSource::Spec("square:5".into()), vec![PlayerInfo::default(); 2]);
    let i = record.events.iter().position(|e| e["event"] == "occupied").unwrap();
    record.events[i]["cost"] = 0.into();
    match record.replay_as::<gobeyond_rules::GoBeyondGame>() {
        Err(RecordError::Events { index, .. }) => assert_eq!(index, i),
        other => panic!("expected an events mismatch, got {other:?}"),
    }
    // Without events the record still replays (events are derived).
    record.events.clear();
    assert_eq!(record.replay_as::<gobeyond_rules::GoBeyondGame>().unwrap().events(), g.events());
}
