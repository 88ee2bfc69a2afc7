//! Classic rules, one situation each, set up from diagrams (`X` player 0, `O` player 1, `A`..`H`
//! players 0..7 in many-player diagrams, `.` empty; the top line is the top row).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

mod diagram;

use std::sync::Arc;

use gobeyond_maps::{NodeId, generate};
use gobeyond_rules::{
    ClassicRules, EndReason, Game, KoRule, Player, Scoring, SuicideRule,
    classic::{Action, ClassicGame, Illegal},
    regions,
    setup::fixed_handicap,
};

fn from_diagram(diagram: &str, players: usize, rules: ClassicRules, to_move: u8) -> ClassicGame {
    let (map, setup) = diagram::parse(diagram);
    ClassicGame::with_setup(map, players, rules, &setup, Player(to_move)).unwrap()
}

fn at(game: &ClassicGame, label: &str) -> NodeId {
    game.map().node_by_label(label).unwrap()
}

fn rules(ko: KoRule, suicide: SuicideRule) -> ClassicRules {
    ClassicRules {
        ko,
        suicide,
        komi: 0.0,
        scoring: Scoring::Area,
        passes_to_end: None,
        dead_stones: false,
        ..ClassicRules::default()
    }
}

#[test]
fn capture_removes_the_group_and_counts_prisoners() {
    let mut g = from_diagram(
        "
        .XO..
        XOO..
        .XX..",
        2,
        rules(KoRule::Simple, SuicideRule::Forbidden),
        0,
    );
    // O has one liberty at D2... no: the O group B2 C2 C3 has liberties D3, D2. X plays D3, O
    // elsewhere, X D2 captures three stones.
    g.play(Action::Place(at(&g, "D3"))).unwrap();
    g.play(Action::Place(at(&g, "E1"))).unwrap();
    g.play(Action::Place(at(&g, "D2"))).unwrap();
    assert_eq!(g.prisoners(Player(0)), 3);
    assert_eq!(g.board().stone_at(at(&g, "B2")), None);
}

#[test]
fn one_move_captures_groups_of_two_opponents_at_once() {
    // A plays at the centre: the B stone and the C stone each lose their last liberty, and they
    // touch each other. Both go, simultaneously (neither frees the other).
    let mut g = from_diagram(
        "
        .AA.
        ABC.
        A.CA
        .AA.",
        3,
        rules(KoRule::Simple, SuicideRule::Forbidden),
        0,
    );
    // B at B3 has liberty B2; C group C3,C2 has liberties D3? (D3 is empty) — fill it first.
    let d3 = at(&g, "D3");
    g.play_as(Player(0), Action::Place(d3)).unwrap();
    assert_eq!(g.board().stone_count(Player(2)), 2, "C still alive, one liberty at B2");
    g.play_as(Player(1), Action::Pass).unwrap();
    g.play_as(Player(2), Action::Pass).unwrap();
    g.play_as(Player(0), Action::Place(at(&g, "B2"))).unwrap();
    assert_eq!(g.board().stone_count(Player(1)), 0);
    assert_eq!(g.board().stone_count(Player(2)), 0);
    assert_eq!(g.prisoners(Player(0)), 3);
}

#[test]
fn suicide_rules() {
    let diagram = "
        .X..
        X...
        ....";
    let mut g = from_diagram(diagram, 2, rules(KoRule::Simple, SuicideRule::Forbidden), 1);
    assert_eq!(g.play(Action::Place(at(&g, "A3"))), Err(Illegal::Suicide { node: at(&g, "A3") }));
    let mut g = from_diagram(diagram, 2, rules(KoRule::Simple, SuicideRule::MultiStoneOnly), 1);
    assert!(g.play(Action::Place(at(&g, "A3"))).is_err(), "single-stone suicide stays illegal");
    let mut g = from_diagram(diagram, 2, rules(KoRule::Simple, SuicideRule::Allowed), 1);
    g.play(Action::Place(at(&g, "A3"))).unwrap();
    assert_eq!(g.board().stone_at(at(&g, "A3")), None, "the suicided stone is removed");
    assert_eq!(g.prisoners(Player(0)), 1);

    // Multi-stone suicide: O at B2 joins A2 and the pair has no liberty left.
    let diagram = "
        XX..
        O.X.
        XX..";
    let mut g = from_diagram(diagram, 2, rules(KoRule::Simple, SuicideRule::Forbidden), 1);
    assert!(g.play(Action::Place(at(&g, "B2"))).is_err());
    let mut g = from_diagram(diagram, 2, rules(KoRule::Simple, SuicideRule::MultiStoneOnly), 1);
    g.play(Action::Place(at(&g, "B2"))).unwrap();
    assert_eq!(g.board().stone_count(Player(1)), 0);
    assert_eq!(g.prisoners(Player(0)), 2);
}

#[test]
fn simple_ko_and_superko() {
    let ko = "
        .XO.
        XO.O
        .XO.";
    for rule in [KoRule::Simple, KoRule::PositionalSuperko, KoRule::SituationalSuperko] {
        let mut g = from_diagram(ko, 2, rules(rule, SuicideRule::Forbidden), 0);
        // X captures at C2; O may not retake at B2 at once.
        g.play(Action::Place(at(&g, "C2"))).unwrap();
        assert_eq!(g.prisoners(Player(0)), 1);
        assert_eq!(g.play(Action::Place(at(&g, "B2"))), Err(Illegal::Ko { node: at(&g, "B2") }), "{rule:?}");
        // After an exchange elsewhere the retake is legal.
        g.play(Action::Place(at(&g, "D3"))).unwrap();
        g.play(Action::Place(at(&g, "A1"))).unwrap();
        g.play(Action::Place(at(&g, "B2"))).unwrap();
        assert_eq!(g.prisoners(Player(1)), 1);
    }
    let mut g = from_diagram(ko, 2, rules(KoRule::None, SuicideRule::Forbidden), 0);
    g.play(Action::Place(at(&g, "C2"))).unwrap();
    g.play(Action::Place(at(&g, "B2"))).unwrap();
    assert_eq!(g.prisoners(Player(1)), 1, "without a ko rule the retake is immediate");
}

#[test]
fn superko_forbids_a_retake_that_passes_made_legal_under_simple_ko() {
    // X takes the ko, O passes, X passes (which clears the simple ko), O retakes: the board is
    // back to the start. Simple ko allows it; both superko rules forbid it (the start position
    // had X to move, as it would now).
    let ko = "
        .XO.
        XO.O
        .XO.";
    for (rule, legal) in
        [(KoRule::Simple, true), (KoRule::PositionalSuperko, false), (KoRule::SituationalSuperko, false)]
    {
        let r = ClassicRules { passes_to_end: Some(3), ..rules(rule, SuicideRule::Forbidden) };
        let mut g = from_diagram(ko, 2, r, 0);
        g.play(Action::Place(at(&g, "C2"))).unwrap();
        g.play(Action::Pass).unwrap();
        g.play(Action::Pass).unwrap();
        let retake = g.play(Action::Place(at(&g, "B2")));
        if legal {
            assert_eq!(retake, Ok(()), "{rule:?}");
        } else {
            assert_eq!(retake, Err(Illegal::Superko { node: at(&g, "B2") }), "{rule:?}");
        }
    }
}

#[test]
fn area_territory_and_stone_scores() {
    let diagram = "
        .X.O.
        .X.O.
        XX.OO
        .....";
    let mut g = from_diagram(
        diagram,
        2,
        ClassicRules { komi: 6.5, ..rules(KoRule::Simple, SuicideRule::Forbidden) },
        0,
    );
    // X: 4 stones + A4 A3 claimed = 6; O: 4 stones + E4 E3 = 6, + komi. The C column and the
    // bottom row touch both: disputed.
    assert_eq!(g.scores(), vec![6.0, 12.5]);
    let t = regions::territory(g.board(), 2);
    assert_eq!(t, vec![2, 2]);
    g = from_diagram(
        diagram,
        2,
        ClassicRules { scoring: Scoring::Territory, ..rules(KoRule::Simple, SuicideRule::Forbidden) },
        0,
    );
    assert_eq!(g.scores(), vec![2.0, 2.0]);
    g = from_diagram(
        diagram,
        2,
        ClassicRules { scoring: Scoring::Stones, ..rules(KoRule::Simple, SuicideRule::Forbidden) },
        0,
    );
    assert_eq!(g.scores(), vec![4.0, 4.0]);
}

#[test]
fn dead_stones_become_prisoners_of_the_region_owner() {
    let diagram = "
        .X.O.
        .XO..
        XX.OO
        .....";
    let g = from_diagram(
        diagram,
        2,
        ClassicRules { scoring: Scoring::Territory, ..rules(KoRule::Simple, SuicideRule::Forbidden) },
        0,
    );
    // The lone O stone at C3 called dead: once removed, its node joins the big empty region that
    // touches both players, so nobody gets the prisoner, and O's E4/E3 corner opens into that
    // region too: O loses its territory.
    let s = g.scores_with_dead(&[at(&g, "C3")]);
    assert_eq!(s, vec![2.0, 0.0]);
    // Every O stone dead: all 16 empty nodes are X's, plus 4 prisoners.
    let s = g.scores_with_dead(&[at(&g, "D4"), at(&g, "C3"), at(&g, "D2")]);
    assert_eq!(s, vec![20.0, 0.0]);
}

#[test]
fn komi_is_shared_by_turn_position() {
    let r = ClassicRules { komi: 6.0, ..ClassicRules::default() };
    assert_eq!(r.komi_for(0, 2), 0.0);
    assert_eq!(r.komi_for(1, 2), 6.0);
    assert_eq!(r.komi_for(1, 4), 2.0);
    assert_eq!(r.komi_for(3, 4), 6.0);
}

#[test]
fn passes_and_resignations_end_the_game() {
    let map = Arc::new(generate("square:5").unwrap());
    // Without the dead-stone phase (Tromp-Taylor), the passes end the game at once.
    let tt = ClassicRules { dead_stones: false, ..ClassicRules::default() };
    let mut g = ClassicGame::new(map.clone(), 3, tt).unwrap();
    g.play(Action::Pass).unwrap();
    g.play(Action::Pass).unwrap();
    assert!(!g.is_over());
    g.play(Action::Pass).unwrap();
    assert_eq!(g.outcome().unwrap().reason, EndReason::Passes);
    assert_eq!(g.play(Action::Pass), Err(Illegal::GameOver));
    // With it, the passes start the phase: moves are refused until play resumes.
    let mut g = ClassicGame::new(map.clone(), 3, ClassicRules::default()).unwrap();
    for _ in 0..3 {
        g.play(Action::Pass).unwrap();
    }
    assert!(!g.is_over() && g.scoring().is_some());
    assert_eq!(g.play_as(Player(0), Action::Pass), Err(Illegal::InScoring));

    let mut g = ClassicGame::new(map, 3, ClassicRules::default()).unwrap();
    g.play_as(Player(1), Action::Resign).unwrap();
    assert_eq!(g.play_as(Player(1), Action::Pass), Err(Illegal::Resigned { player: Player(1) }));
    g.play(Action::Place(12)).unwrap(); // player 0
    assert_eq!(g.next_player(), Player(2), "resigned players are skipped");
    g.play_as(Player(2), Action::Resign).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, EndReason::Resignation);
    assert_eq!(o.ranking, vec![Player(0), Player(2), Player(1)], "first to resign is last");
}

#[test]
fn turn_order_is_enforced() {
    let map = Arc::new(generate("square:5").unwrap());
    let mut g = ClassicGame::new(map, 2, ClassicRules::default()).unwrap();
    assert_eq!(
        g.play_as(Player(1), Action::Place(3)),
        Err(Illegal::NotYourTurn { player: Player(1), to_move: Player(0) })
    );
    assert_eq!(g.play(Action::Place(99)), Err(Illegal::UnknownNode { node: 99 }));
}

#[test]
fn undo_restores_the_previous_position() {
    let map = Arc::new(generate("square:9").unwrap());
    let mut g = ClassicGame::new(map, 2, ClassicRules::default()).unwrap();
    g.play(Action::Place(10)).unwrap();
    let snapshot = g.clone();
    g.play(Action::Place(11)).unwrap();
    assert!(g.undo());
    assert_eq!(g.board(), snapshot.board());
    assert_eq!(g.next_player(), snapshot.next_player());
    assert!(g.undo());
    assert!(!g.undo());
}

#[test]
fn fixed_handicap_points() {
    let m = generate("square:19").unwrap();
    let labels =
        |n| fixed_handicap(&m, n).unwrap().iter().map(|&p| m.label(p).to_string()).collect::<Vec<_>>();
    assert_eq!(labels(2), ["D4", "Q16"]);
    assert_eq!(labels(9).len(), 9);
    assert!(labels(9).contains(&"K10".to_string()));
    assert!(fixed_handicap(&m, 10).is_err());
    assert!(fixed_handicap(&generate("square:10").unwrap(), 5).is_err());
    assert!(fixed_handicap(&generate("hex:5").unwrap(), 2).is_err());
}

#[test]
fn superko_hash_is_exact_around_a_hub_node() {
    // A star: node 0 touches 20 leaves holding O stones in pairs, whose only liberty is the
    // hub. X playing the hub captures all 20: the predicted hash must equal the real one.
    let mut m = gobeyond_maps::CustomMap {
        nodes: (0..42)
            .map(|i| gobeyond_maps::CustomNode { x: Some(i as f64), y: Some(0.0), ..Default::default() })
            .collect(),
        ..Default::default()
    };
    for leaf in 1..=20u64 {
        m.edges.push([0, leaf]);
        m.edges.push([leaf, leaf + 20]);
        m.edges.push([leaf + 20, 41]);
        if leaf % 2 == 1 {
            // Leaves pair up: each O group touches the hub through two stones.
            m.edges.push([leaf, leaf + 1]);
        }
    }
    let map = Arc::new(m.build().unwrap());
    let mut setup: Vec<(NodeId, Player)> = (1..=20).map(|l| (l, Player(1))).collect();
    setup.extend((21..=40).map(|l| (l, Player(0))));
    let g = ClassicGame::with_setup(map, 2, ClassicRules::default(), &setup, Player(0)).unwrap();
    let predicted = g.board().hash_after(0, Player(0));
    let mut after = g.clone();
    after.play(Action::Place(0)).unwrap();
    assert_eq!(after.prisoners(Player(0)), 20);
    assert_eq!(predicted, after.board().hash());
}

/// The non-capturing rebuild: stones by team code, groups without liberties kept, allies'
/// stones (one code) in one group.
#[test]
fn rebuild_from_codes_captures_nothing() {
    let map = Arc::new(gobeyond_maps::generate("square:3").unwrap());
    let at = |l: &str| map.node_by_label(l).unwrap();
    // A1 (code 0) is surrounded by B1 and A2 (code 1): no liberty, and it stays.
    let code = |n| match map.label(n) {
        "A1" => Some(Player(0)),
        "B1" | "A2" => Some(Player(1)),
        _ => None,
    };
    let b = gobeyond_rules::Board::from_codes(map.clone(), code);
    assert_eq!(b.stone_at(at("A1")), Some(Player(0)));
    assert!(b.liberties(at("A1")).is_empty(), "kept without liberties");
    assert_eq!(b.stone_count(Player(1)), 2);
    // Played normally instead, the second surrounding stone captures A1.
    let mut c = gobeyond_rules::Board::new(map.clone());
    c.play_unchecked(at("A1"), Player(0));
    c.play_unchecked(at("B1"), Player(1));
    c.play_unchecked(at("A2"), Player(1));
    assert_eq!(c.stone_at(at("A1")), None);
    // One code per team: two players' stones that share a code form one group.
    let team = |n| ["B2", "B3"].contains(&map.label(n)).then_some(Player(2));
    let t = gobeyond_rules::Board::from_codes(map.clone(), team);
    assert_eq!(t.group_size(at("B2")), 2);
    assert!(t.is_consistent(), "groups and liberties as a fresh board computes them");
}
