//! The fast engine against the naive reference, on random games on every map family, for 2 to 5
//! players and every ko and suicide rule: after every move the legal moves, the stones and the
//! reasons for refusal must agree.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

mod common;

use std::sync::Arc;

use common::{Naive, NaiveError};
use gobeyond_rules::{
    ClassicRules, Game, KoRule, Player, Rng, Scoring, SuicideRule,
    classic::{Action, ClassicGame, Illegal},
};

fn rules(ko: KoRule, suicide: SuicideRule) -> ClassicRules {
    ClassicRules {
        ko,
        suicide,
        komi: 0.0,
        scoring: Scoring::Area,
        passes_to_end: Some(1000),
        dead_stones: false,
        ..ClassicRules::default()
    }
}

fn agree(e: &Illegal, n: &NaiveError) -> bool {
    matches!(
        (e, n),
        (Illegal::Occupied { .. }, NaiveError::Occupied)
            | (Illegal::Ko { .. }, NaiveError::Ko)
            | (Illegal::Superko { .. }, NaiveError::Superko)
            | (Illegal::Suicide { .. }, NaiveError::Suicide)
    )
}

fn run(spec: &str, players: u8, ko: KoRule, suicide: SuicideRule, seed: u64, moves: usize) {
    let map = Arc::new(gobeyond_maps::generate(spec).unwrap());
    let mut game = ClassicGame::new(map.clone(), players as usize, rules(ko, suicide)).unwrap();
    let mut naive = Naive::new(map.clone(), players, ko, suicide);
    let mut rng = Rng::new(seed);
    let mut legal = Vec::new();
    for step in 0..moves {
        game.legal_actions(&mut legal);
        let fast: Vec<u32> =
            legal.iter().filter_map(|a| if let Action::Place(n) = a { Some(*n) } else { None }).collect();
        let slow = naive.legal_places();
        assert_eq!(fast, slow, "{spec} {ko:?} {suicide:?} seed {seed} step {step}: legal moves differ");
        for p in map.nodes() {
            if let (Err(e), Err(n)) = (game.check(Action::Place(p)), naive.try_place(p)) {
                assert!(agree(&e, &n), "{spec} step {step} node {p}: {e:?} vs {n:?}");
            }
        }
        // Mostly placements, sometimes a pass (which clears the simple ko).
        if fast.is_empty() || rng.below(20) == 0 {
            game.play(Action::Pass).unwrap();
            naive.pass();
        } else {
            let p = fast[rng.below(fast.len() as u32) as usize];
            let before: u32 = (0..players).map(|i| game.prisoners(Player(i))).sum();
            game.play(Action::Place(p)).unwrap();
            let captured = naive.place(p).unwrap();
            let after: u32 = (0..players).map(|i| game.prisoners(Player(i))).sum();
            if suicide == SuicideRule::Forbidden {
                assert_eq!(after - before, captured, "capture count");
            }
        }
        let colors: Vec<u8> = game.board().colors().to_vec();
        assert_eq!(colors, naive.color, "{spec} step {step}: boards differ");
        assert!(
            game.board().is_consistent(),
            "{spec} step {step}: incremental state differs from recomputed"
        );
    }
}

#[test]
fn every_map_family_two_players() {
    for (i, spec) in [
        "square:5",
        "rect:6x4",
        "hex:3",
        "honeycomb:2",
        "tri:5",
        "torus:4",
        "cylinder:5x3",
        "klein:4x4",
        "cube:2",
        "goldberg:2,0",
        "goldberg:2,1",
        "grid:3x3x3",
        "grid:3x3x3:wrap",
        "random:30:seed=4",
        "wavy:5",
    ]
    .iter()
    .enumerate()
    {
        run(spec, 2, KoRule::Simple, SuicideRule::Forbidden, 100 + i as u64, 120);
    }
}

#[test]
fn ko_and_suicide_rules() {
    for ko in [KoRule::None, KoRule::Simple, KoRule::PositionalSuperko, KoRule::SituationalSuperko] {
        for suicide in [SuicideRule::Forbidden, SuicideRule::MultiStoneOnly, SuicideRule::Allowed] {
            for seed in 0..3 {
                run("square:4", 2, ko, suicide, seed, 150);
                run("hex:2", 2, ko, suicide, seed + 10, 100);
            }
        }
    }
}

#[test]
fn many_players() {
    for players in 3..=5u8 {
        for (i, spec) in ["square:6", "hex:3", "goldberg:2,0", "torus:5"].iter().enumerate() {
            for ko in [KoRule::Simple, KoRule::PositionalSuperko] {
                run(spec, players, ko, SuicideRule::Forbidden, players as u64 * 31 + i as u64, 150);
            }
            run(spec, players, KoRule::Simple, SuicideRule::Allowed, 7 + i as u64, 150);
        }
    }
}
