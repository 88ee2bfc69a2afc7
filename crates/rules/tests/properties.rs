//! Invariants over random games on several maps and player counts.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

use std::sync::Arc;

use gobeyond_rules::{
    ClassicRules, Game, KoRule, Player, Rng, SuicideRule,
    classic::{Action, ClassicGame},
    record::{MapSource, PlayerInfo, Record},
};
use proptest::prelude::*;

const SPECS: &[&str] = &[
    "square:7",
    "hex:3",
    "torus:5",
    "goldberg:2,0",
    "cube:2",
    "honeycomb:2",
    "grid:3x3x3",
    "random:40:seed=2",
];

fn play_random(spec: &str, players: usize, suicide: SuicideRule, ko: KoRule, seed: u64, steps: usize) {
    let map = Arc::new(gobeyond_maps::generate(spec).unwrap());
    let rules = ClassicRules {
        ko,
        suicide,
        komi: 0.5,
        scoring: gobeyond_rules::Scoring::Area,
        passes_to_end: None,
        dead_stones: false,
        ..ClassicRules::default()
    };
    let mut game = ClassicGame::new(map.clone(), players, rules).unwrap();
    let mut rng = Rng::new(seed);
    let mut placed = 0u32;
    let mut legal = Vec::new();
    for _ in 0..steps {
        if game.is_over() {
            break;
        }
        // Try a random node, legal or not: an illegal one must change nothing.
        let node = rng.below(map.len() as u32 + 2); // sometimes off the map
        let action = if rng.below(30) == 0 { Action::Pass } else { Action::Place(node) };
        let before = game.clone();
        if game.play(action).is_err() {
            assert_eq!(game.board(), before.board());
            assert_eq!(game.board().hash(), before.board().hash());
            assert_eq!(game.moves(), before.moves());
            assert_eq!(game.next_player(), before.next_player());
            assert_eq!(game.consecutive_passes(), before.consecutive_passes());
            continue;
        }
        let mover = before.next_player();
        if let Action::Place(_) = action {
            placed += 1;
        }
        let board = game.board();
        assert!(board.is_consistent(), "incremental hash and groups equal recomputed ones");
        // No opponent of the mover keeps a group without liberties (nor the mover, since
        // suicide removes the mover's own group).
        for n in map.nodes() {
            if board.stone_at(n).is_some() {
                assert!(
                    !board.liberties(n).is_empty(),
                    "group at {n} without liberties after {mover}'s move"
                );
            }
        }
        let on_board: u32 = (0..players as u8).map(|p| board.stone_count(Player(p))).sum();
        let captured: u32 = (0..players as u8).map(|p| game.prisoners(Player(p))).sum();
        if suicide == SuicideRule::Forbidden {
            assert_eq!(placed, on_board + captured, "stones placed = on board + captured");
        } else {
            assert!(placed >= on_board + captured);
        }
        game.legal_actions(&mut legal);
        for a in &legal {
            assert!(game.check(*a).is_ok(), "every generated action is legal");
        }
    }
    assert!(
        game.moves().len() >= 20 || game.is_over(),
        "the game went somewhere: {} moves",
        game.moves().len()
    );
    // A record replays to the same state.
    let record = Record::of(&game, MapSource::Spec(spec.into()), vec![PlayerInfo::default(); players]);
    let back =
        Record::from_json(&record.to_json()).unwrap().replay_as::<gobeyond_rules::ClassicGame>().unwrap();
    assert_eq!(back.board(), game.board());
    assert_eq!(back.board().hash(), game.board().hash());
    assert_eq!(back.next_player(), game.next_player());
    assert_eq!(back.scores(), game.scores());
    assert_eq!(back.is_over(), game.is_over());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_games_keep_every_invariant(
        spec in 0..SPECS.len(),
        players in 2usize..=6,
        suicide in prop_oneof![Just(SuicideRule::Forbidden), Just(SuicideRule::MultiStoneOnly), Just(SuicideRule::Allowed)],
        ko in prop_oneof![Just(KoRule::Simple), Just(KoRule::PositionalSuperko), Just(KoRule::SituationalSuperko)],
        seed in any::<u64>(),
    ) {
        play_random(SPECS[spec], players, suicide, ko, seed, 400);
    }
}

#[test]
fn board_copy_is_exact() {
    let map = Arc::new(gobeyond_maps::generate("square:19").unwrap());
    let tables = gobeyond_rules::playout::PlayoutTables::new(&map);
    let mut a = gobeyond_rules::Board::new(map.clone());
    let mut rng = Rng::new(5);
    gobeyond_rules::playout::light_playout(&mut a, &tables, Player(0), 2, &mut rng, 150);
    let mut b = gobeyond_rules::Board::new(map);
    b.copy_from(&a);
    assert_eq!(a, b);
    assert_eq!(a.hash(), b.hash());
    assert!(b.is_consistent());
    // Copies go on independently.
    let p = *b.empties().first().unwrap();
    b.play_unchecked(p, Player(0));
    assert_ne!(a, b);
}
