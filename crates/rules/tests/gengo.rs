//! Gengo (`docs/rules/spec/gengo.md`, whose rule and reading numbers the comments cite), one
//! situation each: the document's liberty counts, captures in the corner, suicide and friendly fire
//! with each removal order, the singleton ko and passes, both scores, the end, handicap, the
//! options, region validation — then the classic regions against the classic engine move by move on
//! every map family, and random games whose incremental board always equals one rebuilt from its
//! stones.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod diagram;

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId, generate};
use gobeyond_rules::{
    AnyGame, ClassicRules, EndReason, Game, KoRule, Player, Rng, RuleSystem, Scoring, SuicideRule,
    classic::{self, ClassicGame},
    gengo::{
        Action, Event, GengoBoard, GengoGame, GengoKo, GengoRules, GengoScoring, Illegal, Permission,
        RegionTables, Regions, SelfCaptureOrder,
    },
    record::{MapSource, PlayerInfo, Record},
};

const B: Player = Player(0);
const W: Player = Player(1);

fn map(spec: &str) -> Arc<Map> {
    Arc::new(generate(spec).unwrap())
}

fn node(map: &Map, label: &str) -> NodeId {
    map.node_by_label(label).unwrap_or_else(|| panic!("no {label} on {}", map.spec()))
}

/// A game on `spec` with Black and White stones set up by label, Black to move.
fn game(spec: &str, rules: GengoRules, black: &[&str], white: &[&str]) -> GengoGame {
    let m = map(spec);
    let mut setup: Vec<(NodeId, Player)> = black.iter().map(|l| (node(&m, l), B)).collect();
    setup.extend(white.iter().map(|l| (node(&m, l), W)));
    GengoGame::new(m, rules, &setup, B).unwrap()
}

fn place(g: &mut GengoGame, label: &str) {
    let n = node(g.map(), label);
    g.play(Action::Place(n)).unwrap_or_else(|e| panic!("{label}: {e}"));
}

fn has_stone(g: &GengoGame, label: &str) -> Option<Player> {
    g.board().stone_at(node(g.map(), label))
}

#[test]
fn a_lone_stone_has_12_liberties_in_the_open_7_on_an_edge_4_in_a_corner() {
    for (label, liberties, covered) in
        [("K10", 12, 9), ("K1", 7, 6), ("A10", 7, 6), ("T19", 4, 4), ("A1", 4, 4)]
    {
        let g = game("square:19", GengoRules::default(), &[label], &[]);
        let p = node(g.map(), label);
        assert_eq!(g.board().liberties(p).len(), liberties, "{label}");
        // The overlap: the 3×3 block, clipped at the edges.
        assert_eq!(g.map().nodes().filter(|&q| g.board().cover(q)[0] > 0).count(), covered, "{label}");
    }
}

#[test]
fn a_corner_stone_dies_to_two_plays() {
    let mut g = game("square:19", GengoRules::default(), &[], &[]);
    place(&mut g, "A1");
    // C2 overlaps C1 and B3, two of A1's four liberties (C2 itself is the third).
    place(&mut g, "C2");
    assert_eq!(g.board().liberties(node(g.map(), "A1")), vec![node(g.map(), "A3")]);
    place(&mut g, "K10");
    place(&mut g, "A4");
    assert_eq!(has_stone(&g, "A1"), None);
    assert_eq!((g.lost(B), g.captures(W)), (1, 1));
    let a1 = node(g.map(), "A1");
    assert!(
        g.events().contains(&Event::Captured { player: W, owner: B, nodes: vec![a1] }),
        "{:?}",
        g.events()
    );
    // The freed space is empty again: Black may play there.
    assert!(g.board().is_empty_space(a1));
    assert!(g.check(Action::Place(a1)).is_ok());
}

#[test]
fn stones_are_never_closer_than_two_spaces_and_connect_at_the_documents_offsets() {
    let mut g = game("square:19", GengoRules::default(), &["K10"], &[]);
    let k10 = node(g.map(), "K10");
    for near in ["J9", "K9", "L11", "J10"] {
        assert_eq!(
            g.check(Action::Place(node(g.map(), near))),
            Err(Illegal::Overlapped { node: node(g.map(), near), by: 0 }),
            "{near}"
        );
    }
    // (2, 1) connects, (2, 2) does not.
    place(&mut g, "M11");
    place(&mut g, "A1");
    assert_eq!(g.board().group(node(g.map(), "M11")), g.board().group(k10));
    place(&mut g, "H8");
    assert_ne!(g.board().group(node(g.map(), "H8")), g.board().group(k10));
}

#[test]
fn friendly_fire_kills_an_unconnected_own_group_unless_forbidden() {
    // A1's liberties are C1, A3, C2 and B3; D2 overlaps C1 and C2; B4 overlaps A3 and B3 and
    // is not connected to A1 (three rows up).
    let mut g = game("square:9", GengoRules::default(), &["A1", "D2"], &[]);
    place(&mut g, "B4");
    assert_eq!(has_stone(&g, "A1"), None);
    assert_eq!(has_stone(&g, "B4"), Some(B));
    assert_eq!(
        (g.lost(B), g.captures(B), g.captures(W)),
        (1, 0, 0),
        "friendly fire is a loss, nobody's capture"
    );
    // A2: a play that removed exactly one stone, of either colour, sets the ko.
    assert_eq!(g.ko_stone(), Some((node(g.map(), "B4"), B)));

    let rules = GengoRules { friendly_fire: Permission::Forbidden, ..GengoRules::default() };
    let mut g = game("square:9", rules, &["A1", "D2"], &[]);
    let hash = g.board().hash();
    let b4 = node(g.map(), "B4");
    assert_eq!(g.play(Action::Place(b4)), Err(Illegal::FriendlyFire { node: b4 }));
    assert_eq!((g.board().hash(), g.turns(), has_stone(&g, "A1")), (hash, 0, Some(B)), "nothing changed");
    assert!(Illegal::FriendlyFire { node: b4 }.describe(g.map()).contains("B4"));
}

#[test]
fn suicide_removes_the_played_stone_unless_forbidden() {
    let mut g = game("square:9", GengoRules::default(), &[], &["C2", "A4"]);
    place(&mut g, "A1");
    assert_eq!(has_stone(&g, "A1"), None);
    assert_eq!((g.lost(B), g.captures(W), g.turns(), g.next_player()), (1, 0, 1, W));
    assert_eq!(g.ko_stone(), None, "a stone that died sets no ko");

    let rules = GengoRules { suicide: Permission::Forbidden, ..GengoRules::default() };
    let mut g = game("square:9", rules, &[], &["C2", "A4"]);
    let a1 = node(g.map(), "A1");
    assert_eq!(g.play(Action::Place(a1)), Err(Illegal::Suicide { node: a1 }));
    assert_eq!(g.turns(), 0);
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert!(!legal.contains(&Action::Place(a1)), "legal actions leave the suicide out");
}

/// White B5, D4, F3, B3 and Black B1, F6 on a 6×6 board: Black E1 has no liberty after it is
/// played, and takes B1's last liberty (D1 ... and C2 via D2's block) with it.
fn order_game(order: SelfCaptureOrder, suicide: Permission) -> GengoGame {
    let rules = GengoRules { self_capture_order: order, suicide, ..GengoRules::default() };
    game("square:6", rules, &["B1", "F6"], &["B5", "D4", "F3", "B3"])
}

#[test]
fn the_order_of_own_removals_decides_which_group_lives() {
    for (order, e1, b1) in [
        (SelfCaptureOrder::SameTime, None, None),
        (SelfCaptureOrder::PlayedFirst, None, Some(B)),
        (SelfCaptureOrder::PlayedLast, Some(B), None),
    ] {
        let mut g = order_game(order, Permission::Allowed);
        place(&mut g, "E1");
        assert_eq!((has_stone(&g, "E1"), has_stone(&g, "B1")), (e1, b1), "{order:?}");
        assert_eq!(g.board().stones(W), 4, "{order:?}: no White stone dies");
    }
    // A10: with suicide forbidden, the order decides whether E1 is a suicide at all.
    let e1 = |g: &GengoGame| node(g.map(), "E1");
    let mut g = order_game(SelfCaptureOrder::SameTime, Permission::Forbidden);
    assert_eq!(g.play(Action::Place(e1(&g))), Err(Illegal::Suicide { node: e1(&g) }));
    let mut g = order_game(SelfCaptureOrder::PlayedLast, Permission::Forbidden);
    g.play(Action::Place(e1(&g))).unwrap();
    assert_eq!(has_stone(&g, "B1"), None);
}

fn classic_regions() -> GengoRules {
    GengoRules { regions: Regions::Classic, ..GengoRules::default() }
}

/// The classic ko shape: Black C2 takes B2; White may not take C2 back at once.
fn ko_game() -> GengoGame {
    let (m, setup) = diagram::parse(
        "
        .XO.
        XO.O
        .XO.
        ",
    );
    GengoGame::new(m, classic_regions(), &setup, B).unwrap()
}

#[test]
fn the_singleton_ko_forbids_the_immediate_recapture_only() {
    let mut g = ko_game();
    place(&mut g, "C2");
    assert_eq!(has_stone(&g, "B2"), None);
    let (b2, c2) = (node(g.map(), "B2"), node(g.map(), "C2"));
    assert_eq!(g.ko_stone(), Some((c2, B)));
    assert_eq!(g.play(Action::Place(b2)), Err(Illegal::Ko { node: b2 }));
    assert!(Illegal::Ko { node: b2 }.describe(g.map()).contains("ko"));
    // A3: any pass lifts the ban.
    g.play(Action::Pass).unwrap();
    g.play(Action::Pass).unwrap();
    assert_eq!(g.ko_stone(), None);
    place(&mut g, "B2");
    assert_eq!(has_stone(&g, "C2"), None);
    assert!(g.outcome().is_none(), "a play between passes restarts the count");
}

#[test]
fn superko_and_no_ko_are_options() {
    let mut g = ko_game();
    let mut rules = classic_regions();
    rules.ko = GengoKo::PositionalSuperko;
    let mut s = GengoGame::new(g.map().clone(), rules.clone(), g.setup(), B).unwrap();
    rules.ko = GengoKo::None;
    let mut none = GengoGame::new(g.map().clone(), rules, g.setup(), B).unwrap();
    for game in [&mut g, &mut s, &mut none] {
        place(game, "C2");
    }
    let b2 = node(g.map(), "B2");
    assert_eq!(s.play(Action::Place(b2)), Err(Illegal::Superko { node: b2 }));
    none.play(Action::Place(b2)).unwrap();
    assert_eq!(has_stone(&none, "C2"), None);
}

#[test]
fn stones_decide_by_default_and_area_is_shown_and_may_decide() {
    // Black's block B2–D4 and White's A1–B2 share B2: 8 spaces for Black, 3 for White, and the
    // empty ring touches both colours.
    for (scoring, places) in [(GengoScoring::Stones, vec![1, 1]), (GengoScoring::Area, vec![1, 2])] {
        let rules = GengoRules { scoring, ..GengoRules::default() };
        let mut g = game("square:5", rules, &[], &[]);
        place(&mut g, "C3");
        place(&mut g, "A1");
        assert_eq!((g.stone_scores(), g.area_scores()), (vec![1.0, 1.0], vec![8.0, 3.0]));
        g.play(Action::Pass).unwrap();
        g.play(Action::Pass).unwrap();
        assert!(g.outcome().is_none(), "two passes do not end it");
        g.play(Action::Pass).unwrap();
        let o = g.outcome().expect("three passes end it");
        assert_eq!((o.reason, o.places.clone()), (EndReason::Passes, places), "{scoring:?}");
    }
    // Surrounded empty space counts as area: a Black wall covers rows 1–3 of a 9×5 board, and
    // rows 4–5 are bordered by Black alone.
    let g = game("rect:9x5", GengoRules::default(), &["B2", "D2", "F2", "H2"], &[]);
    assert_eq!(g.area_scores(), vec![45.0, 0.0]);
    let g = game("rect:9x5", GengoRules::default(), &["B2", "D2", "F2", "H2"], &["E5"]);
    assert_eq!(g.area_scores(), vec![27.0, 6.0], "White's stone makes the rest neutral");
    assert!(GengoGame::validate(&GengoRules { komi: 2.5, ..GengoRules::default() }, 2).is_ok());
}

#[test]
fn komi_counts_for_white() {
    let rules = GengoRules { komi: 0.5, ..GengoRules::default() };
    let mut g = game("square:9", rules, &["E5"], &["A1"]);
    assert_eq!(g.stone_scores(), vec![1.0, 1.5]);
    for _ in 0..3 {
        g.play(Action::Pass).unwrap();
    }
    assert_eq!(g.outcome().unwrap().ranking, vec![W, B]);
}

#[test]
fn handicap_is_consecutive_black_turns_and_one_is_invalid() {
    let rules = GengoRules { handicap: 3, ..GengoRules::default() };
    let mut g = game("square:19", rules.clone(), &[], &[]);
    for label in ["D4", "Q16", "D16"] {
        assert_eq!(g.next_player(), B);
        place(&mut g, label);
    }
    assert_eq!(g.next_player(), W);
    place(&mut g, "Q4");
    assert_eq!(g.next_player(), B);
    let m = map("square:9");
    assert!(GengoGame::new(m.clone(), rules, &[], W).is_err(), "Black takes the handicap");
    let e = GengoGame::validate(&GengoRules { handicap: 1, ..GengoRules::default() }, 2).unwrap_err();
    assert!(e.to_string().contains("handicap"), "{e}");
    let e = GengoGame::validate(&GengoRules::default(), 3).unwrap_err();
    assert!(e.to_string().contains("two players"), "{e}");
}

#[test]
fn playing_inside_ones_own_overlap_is_an_option_that_connects() {
    let g = game("square:9", GengoRules::default(), &["C3"], &[]);
    let d3 = node(g.map(), "D3");
    assert_eq!(g.check(Action::Place(d3)), Err(Illegal::Overlapped { node: d3, by: 0 }));
    let rules = GengoRules { own_overlap: Permission::Allowed, ..GengoRules::default() };
    let mut g = game("square:9", rules, &["C3"], &["G7"]);
    place(&mut g, "D3");
    assert_eq!(g.board().group(d3), g.board().group(node(g.map(), "C3")), "A9: they connect");
    // White may still not enter Black's overlap.
    let d4 = node(g.map(), "D4");
    assert_eq!(g.check(Action::Place(d4)), Err(Illegal::Overlapped { node: d4, by: 0 }));
}

#[test]
fn three_passes_in_a_row_end_the_game_and_the_turn_limit_too() {
    let mut g = game("square:9", GengoRules::default(), &[], &[]);
    g.play(Action::Pass).unwrap();
    g.play(Action::Pass).unwrap();
    place(&mut g, "E5");
    g.play(Action::Pass).unwrap();
    g.play(Action::Pass).unwrap();
    assert!(g.outcome().is_none());
    g.play(Action::Pass).unwrap();
    assert_eq!(g.outcome().unwrap().ranking[0], B);
    assert_eq!(g.play(Action::Pass), Err(Illegal::GameOver));

    let rules = GengoRules { max_turns: Some(4), ..GengoRules::default() };
    let mut g = game("square:9", rules, &[], &[]);
    for label in ["A1", "J9", "E5"] {
        place(&mut g, label);
    }
    assert!(g.outcome().is_none());
    place(&mut g, "A9");
    assert_eq!(g.outcome().unwrap().reason, EndReason::TurnLimit);
    assert_eq!(GengoRules::default().turn_limit(361), 3610);
}

#[test]
fn refusals_name_what_was_wrong() {
    let mut g = game("square:9", GengoRules::default(), &["E5"], &[]);
    assert_eq!(g.play(Action::Place(999)), Err(Illegal::UnknownNode { node: 999 }));
    let e5 = node(g.map(), "E5");
    assert_eq!(g.play(Action::Place(e5)), Err(Illegal::Occupied { node: e5 }));
    assert_eq!(g.play_as(W, Action::Pass), Err(Illegal::NotYourTurn { player: 1 }));
    assert!(Illegal::Overlapped { node: e5, by: 1 }.describe(g.map()).contains("White"));
    // Resigning out of turn ends the game all the same.
    g.play_as(W, Action::Resign).unwrap();
    assert_eq!(g.outcome().unwrap().ranking, vec![B, W]);
}

/// The document's regions written as offsets: the 3×3 block, and the 5×5 ring without corners.
fn document_offsets() -> Regions {
    let mut overlap = Vec::new();
    let mut neighbour = Vec::new();
    for dx in -2i32..=2 {
        for dy in -2i32..=2 {
            match dx.abs().max(dy.abs()) {
                0 | 1 => overlap.push([dx, dy]),
                _ if dx.abs() == 2 && dy.abs() == 2 => {}
                _ => neighbour.push([dx, dy]),
            }
        }
    }
    Regions::Offsets { overlap, neighbour }
}

#[test]
fn the_graph_regions_are_the_documents_regions_on_grids() {
    for spec in ["square:19", "rect:7x5", "square:2"] {
        let m = map(spec);
        let graph = RegionTables::new(&m, &Regions::Default).unwrap();
        let offsets = RegionTables::new(&m, &document_offsets()).unwrap();
        for p in m.nodes() {
            assert_eq!(graph.overlap(p), offsets.overlap(p), "{spec} {}", m.label(p));
            assert_eq!(graph.neighbours(p), offsets.neighbours(p), "{spec} {}", m.label(p));
        }
    }
}

#[test]
fn regions_are_validated_and_refusals_say_why() {
    let asymmetric = Regions::Offsets { overlap: vec![[0, 0]], neighbour: vec![[1, 0]] };
    let e = GengoGame::validate(&GengoRules { regions: asymmetric, ..GengoRules::default() }, 2).unwrap_err();
    assert!(e.to_string().contains("symmetric"), "{e}");
    let no_origin = Regions::Offsets { overlap: vec![[1, 0], [-1, 0]], neighbour: vec![] };
    assert!(GengoGame::validate(&GengoRules { regions: no_origin, ..GengoRules::default() }, 2).is_err());
    let overlapping =
        Regions::Offsets { overlap: vec![[0, 0], [1, 0], [-1, 0]], neighbour: vec![[1, 0], [-1, 0]] };
    assert!(GengoGame::validate(&GengoRules { regions: overlapping, ..GengoRules::default() }, 2).is_err());
    // Offsets need a grid; the error names the map.
    let rules = GengoRules { regions: document_offsets(), ..GengoRules::default() };
    let e = GengoGame::new(map("hex:4"), rules, &[], B).unwrap_err();
    assert!(e.to_string().contains("hex:4"), "{e}");
    // A setup stone inside another's overlap is refused with its index.
    let m = map("square:9");
    let e = GengoGame::new(m.clone(), GengoRules::default(), &[(0, B), (1, W)], B).unwrap_err();
    assert!(e.to_string().contains('1'), "{e}");
}

#[test]
fn graph_regions_work_on_maps_without_a_grid() {
    // On a hex map a lone stone overlaps itself and its 6 neighbours and has 12 liberties.
    let m = map("hex:5");
    let centre = m.nodes().max_by_key(|&p| m.distances_from(p).iter().filter(|&&d| d <= 2).count()).unwrap();
    let g = GengoGame::new(m.clone(), GengoRules::default(), &[(centre, B)], B).unwrap();
    assert_eq!(g.board().liberties(centre).len(), 12);
    assert_eq!(m.nodes().filter(|&q| g.board().cover(q)[0] > 0).count(), 7);
    // On a torus every stone is in the open.
    let m = map("torus:8");
    let g = GengoGame::new(m.clone(), GengoRules::default(), &[(0, B)], B).unwrap();
    assert_eq!(g.board().liberties(0).len(), 12);
}

/// Classic regions make Gengo into Go with suicide allowed and the simple ko: the two engines
/// agree on every stone and every legal play, move by move, on every map family.
#[test]
fn classic_regions_play_exactly_like_the_classic_engine() {
    let classic_rules = ClassicRules {
        ko: KoRule::Simple,
        suicide: SuicideRule::Allowed,
        komi: 0.0,
        scoring: Scoring::Area,
        passes_to_end: Some(10_000),
        dead_stones: false,
        ..ClassicRules::default()
    };
    let specs = [
        "square:5",
        "rect:6x4",
        "hex:3",
        "honeycomb:2",
        "tri:4",
        "torus:5",
        "cylinder:5x4",
        "klein:5x4",
        "cube:2",
        "goldberg:1,1",
        "grid:3x3x3",
        "random:30:seed=4",
    ];
    for (k, spec) in specs.iter().enumerate() {
        let m = map(spec);
        let mut c = ClassicGame::new(m.clone(), 2, classic_rules.clone()).unwrap();
        let rules = GengoRules { max_turns: Some(100_000), ..classic_regions() };
        let mut g = GengoGame::new(m.clone(), rules, &[], B).unwrap();
        let mut rng = Rng::new(k as u64 + 1);
        let (mut cl, mut gl) = (Vec::new(), Vec::new());
        for step in 0..400 {
            c.legal_actions(&mut cl);
            g.legal_actions(&mut gl);
            let places = |v: &[classic::Action]| -> Vec<NodeId> {
                v.iter()
                    .filter_map(|a| if let classic::Action::Place(n) = a { Some(*n) } else { None })
                    .collect()
            };
            let gp: Vec<NodeId> =
                gl.iter().filter_map(|a| if let Action::Place(n) = a { Some(*n) } else { None }).collect();
            assert_eq!(places(&cl), gp, "{spec} step {step}: legal plays differ");
            let action = if gp.is_empty() || rng.below(25) == 0 {
                None
            } else {
                Some(gp[rng.below(gp.len() as u32) as usize])
            };
            match action {
                Some(p) => {
                    c.play(classic::Action::Place(p)).unwrap();
                    g.play(Action::Place(p)).unwrap();
                }
                None => {
                    c.play(classic::Action::Pass).unwrap();
                    g.play(Action::Pass).unwrap();
                    if g.outcome().is_some() {
                        break;
                    }
                }
            }
            for p in m.nodes() {
                let stone = c.board().colors()[p as usize];
                let ours = g.board().stone_at(p).map_or(0, |pl| pl.stone());
                assert_eq!(stone, ours, "{spec} step {step}: {} differs", m.label(p));
            }
        }
    }
}

/// The board rebuilt from its stones alone: covers, groups (as sets of stones) and the hash.
fn rebuilt(g: &GengoGame) -> GengoBoard {
    let tables = Arc::new(RegionTables::new(g.map(), &g.rules().regions).unwrap());
    let mut b = GengoBoard::new(tables, g.rules().own_overlap.allowed());
    for (p, pl) in g.board().stone_list().collect::<Vec<_>>() {
        b.put(p, pl);
    }
    b
}

fn same_board(a: &GengoBoard, b: &GengoBoard, n: usize) -> Result<(), String> {
    if a.hash() != b.hash() {
        return Err("hash".into());
    }
    for p in 0..n as NodeId {
        if a.stone_at(p) != b.stone_at(p) || a.cover(p) != b.cover(p) {
            return Err(format!("space {p}"));
        }
        if a.stone_at(p).is_some() {
            let (mut x, mut y) = (a.group_stones(p), b.group_stones(p));
            x.sort_unstable();
            y.sort_unstable();
            if x != y {
                return Err(format!("group of {p}"));
            }
        }
    }
    Ok(())
}

#[test]
fn random_games_keep_the_board_consistent_and_replay_from_records() {
    let options = [
        GengoRules::default(),
        GengoRules {
            suicide: Permission::Forbidden,
            friendly_fire: Permission::Forbidden,
            ..GengoRules::default()
        },
        GengoRules {
            self_capture_order: SelfCaptureOrder::PlayedFirst,
            ko: GengoKo::PositionalSuperko,
            ..GengoRules::default()
        },
        GengoRules {
            self_capture_order: SelfCaptureOrder::PlayedLast,
            own_overlap: Permission::Allowed,
            ..GengoRules::default()
        },
        GengoRules { scoring: GengoScoring::Area, handicap: 2, ..GengoRules::default() },
    ];
    let specs = ["square:9", "hex:4", "torus:8", "cube:3", "random:60:seed=2", "goldberg:2,1"];
    for (k, spec) in specs.iter().enumerate() {
        for (o, rules) in options.iter().enumerate() {
            let m = map(spec);
            let mut g = GengoGame::new(m.clone(), rules.clone(), &[], B).unwrap();
            let mut rng = Rng::new((k * 10 + o) as u64);
            let mut legal = Vec::new();
            while g.outcome().is_none() && g.turns() < 600 {
                // A refused play changes nothing.
                let any = rng.below(m.len() as u32);
                let hash = g.board().hash();
                if g.check(Action::Place(any)).is_err() {
                    assert!(g.play(Action::Place(any)).is_err());
                    assert_eq!((g.board().hash(), g.inputs().len()), (hash, g.turns() as usize));
                }
                g.legal_actions(&mut legal);
                let places: Vec<Action> = legal.iter().copied().filter(|a| *a != Action::Pass).collect();
                let a = if places.is_empty() || rng.below(30) == 0 {
                    Action::Pass
                } else {
                    places[rng.below(places.len() as u32) as usize]
                };
                g.play(a).unwrap_or_else(|e| panic!("{spec} {o}: {a:?} was listed legal: {e}"));
                same_board(g.board(), &rebuilt(&g), m.len()).unwrap_or_else(|e| panic!("{spec} {o}: {e}"));
                // Both capture steps leave no group without a liberty, in every order.
                for (p, _) in g.board().stone_list() {
                    assert!(g.board().has_liberty(p), "{spec} {o}: {} has no liberty", m.label(p));
                }
            }
            let names = vec![PlayerInfo { name: "b".into() }, PlayerInfo { name: "w".into() }];
            let record = Record::of(&g, MapSource::Spec((*spec).into()), names);
            let json = serde_json::to_string(&record).unwrap();
            let again: Record = serde_json::from_str(&json).unwrap();
            let AnyGame::Gengo(r) = again.replay().unwrap() else { panic!("a Gengo game") };
            assert_eq!(r.board().hash(), g.board().hash(), "{spec} {o}: the record replays");
            assert_eq!(r.turns(), g.turns());
            // Undo takes back exactly one input.
            if g.turns() > 0 && g.outcome().is_none() {
                let mut u = g.clone();
                assert!(u.undo());
                assert_eq!(u.turns(), g.turns() - 1);
            }
        }
    }
}

#[test]
fn presets_through_the_registry() {
    for name in ["gengo", "gengo-classic", "gengo-area"] {
        let rules = gobeyond_rules::registry::rules_by_name(name).unwrap();
        assert_eq!(rules.system, GengoGame::NAME, "{name}");
    }
}
