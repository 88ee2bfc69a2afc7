//! Tribal Go (`docs/rules/spec/tribal.md`, whose rule numbers the comments cite), one situation
//! each: the document's examples (the handicap order, the spoils split), the roll-off and the dice
//! range, alliances, the end with Clean-Up and fill-in, refusals, and records that replay.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use gobeyond_maps::{NodeId, generate};
use gobeyond_rules::{
    AnyGame, Game, Player, RuleSystem,
    record::{MapSource, PlayerInfo, Record},
    tribal::{Action, Event, Illegal, Input, Move, Phase, RangeRule, TribalGame, TribalRules},
};

const B: Player = Player(0);
const W: Player = Player(1);
const R: Player = Player(2);

fn game(spec: &str, players: usize, rules: TribalRules) -> TribalGame {
    TribalGame::new(Arc::new(generate(spec).unwrap()), players, rules, None).unwrap()
}

/// No dice and no cards: the board's rules alone.
fn unlimited() -> TribalRules {
    TribalRules { range: RangeRule::Unlimited, cards: false, ..TribalRules::default() }
}

fn at(g: &TribalGame, label: &str) -> NodeId {
    g.map().node_by_label(label).unwrap()
}

fn act(g: &mut TribalGame, seat: Player, a: Action) {
    g.apply(seat, &Input::Action(a)).unwrap_or_else(|e| panic!("{seat:?} {a:?}: {e}"));
}

fn place(g: &mut TribalGame, seat: Player, label: &str) {
    let n = at(g, label);
    act(g, seat, Action::Place(n));
}

/// Every player takes the first free start point, in the order asked.
fn choose_starts(g: &mut TribalGame) {
    while let Phase::ChooseStart { .. } = g.phase() {
        let seat = g.acting()[0];
        act(g, seat, Action::Timeout);
    }
}

#[test]
fn the_documents_handicap_order_sarah_sam_erin() {
    let (sarah, sam, erin) = (B, W, R);
    let rules = TribalRules { handicap: vec![-4, -2, 0], ..TribalRules::pro() };
    let mut g = game("square:19", 3, rules);
    choose_starts(&mut g);
    assert_eq!(g.handicap_left(), &[erin, erin, sam, erin, sam, erin]);
    // Within 3 steps of one's start point or stones; further is refused, nothing changes.
    let start = g.start_point(erin).unwrap();
    let far = g.map().nodes().find(|&v| g.map().distances_from(start)[v as usize] == 4).unwrap();
    assert_eq!(
        g.apply(erin, &Input::Action(Action::Place(far))),
        Err(Illegal::OutOfRange { node: far, range: 3 })
    );
    let near = g.map().neighbors(start)[0];
    act(&mut g, erin, Action::Place(near));
    // The second stone may build on the first.
    let next = g
        .map()
        .nodes()
        .find(|&v| {
            g.map().distances_from(near)[v as usize] == 3 && g.map().distances_from(start)[v as usize] == 4
        })
        .unwrap();
    act(&mut g, erin, Action::Place(next));
    // Sam gives his up: lost.
    act(&mut g, sam, Action::Forgo);
    assert_eq!(g.handicap_left(), &[erin, sam, erin]);
    assert_eq!(g.apply(sarah, &Input::Action(Action::Forgo)), Err(Illegal::NotYourTurn(sarah)));
    for seat in [erin, sam, erin] {
        act(&mut g, seat, Action::Forgo);
    }
    assert!(matches!(g.phase(), Phase::Turn { .. }));
    assert_eq!(g.to_move(), Some(sarah), "then the first player's turn");
}

/// "The number of stones in the group is divided by the number of players occupying at least
/// one liberty ... the player placing the killing stone receives the balance."
#[test]
fn spoils_are_shared_among_every_neighbour_and_the_killer_takes_the_balance() {
    let mut g = game("square:5", 3, unlimited());
    choose_starts(&mut g);
    for (seat, what) in
        [(B, "A1"), (W, "B1"), (R, "C2"), (B, "B2"), (W, "C1"), (R, "D2"), (B, "-"), (W, "D1"), (R, "-")]
    {
        if what == "-" { act(&mut g, seat, Action::Forgo) } else { place(&mut g, seat, what) }
    }
    place(&mut g, B, "E1");
    let captured = g.events().iter().rev().find_map(|e| match e {
        Event::Captured { player, nodes, shares, .. } => Some((*player, nodes.len(), shares.clone())),
        _ => None,
    });
    // Three white stones, two neighbours (Black and Red): one each, the balance to Black.
    assert_eq!(captured, Some((Some(B), 3, vec![(B, 2), (R, 1)])));
    assert_eq!(g.prisoners(B)[W.index()], 2);
    assert_eq!(g.prisoners(R)[W.index()], 1);
    for label in ["B1", "C1", "D1"] {
        assert_eq!(g.stone_at(at(&g, label)), None);
    }
}

#[test]
fn the_roll_off_orders_the_players_and_the_higher_die_is_the_range() {
    let mut g = game("square:9", 2, TribalRules::default());
    // Both roll 6: they roll again; White's 12 beats Black's 3.
    for (seat, dice) in [(B, (3, 3)), (W, (2, 4)), (B, (1, 2)), (W, (6, 6))] {
        assert_eq!(g.chance_seat(), Some(seat));
        act(&mut g, seat, Action::Dice(dice.0, dice.1));
    }
    assert_eq!(g.order(), &[W, B]);
    assert_eq!(g.first_player(), W);
    choose_starts(&mut g);
    assert_eq!(g.start_point(W), Some(g.start_candidates()[0]), "the winner chose first");
    assert_eq!(g.to_move(), Some(W));
    // Placing before the roll is refused; Play rolls; the server's dice decide the range.
    let start = g.start_point(W).unwrap();
    let two = g.map().nodes().find(|&v| g.map().distances_from(start)[v as usize] == 2).unwrap();
    assert!(g.apply(W, &Input::Action(Action::Place(two))).is_err());
    act(&mut g, W, Action::Roll);
    assert_eq!(g.to_move(), None, "the dice are the server's");
    assert_eq!(g.chance_seat(), Some(W));
    assert!(g.apply(W, &Input::Action(Action::Pass)).is_err(), "no pass while the dice roll");
    act(&mut g, W, Action::Dice(1, 2));
    assert_eq!(g.current_range(), Some(2));
    let three = g.map().nodes().find(|&v| g.map().distances_from(start)[v as usize] == 3).unwrap();
    assert_eq!(
        g.apply(W, &Input::Action(Action::Place(three))),
        Err(Illegal::OutOfRange { node: three, range: 2 })
    );
    act(&mut g, W, Action::Place(two));
    assert_eq!(g.to_move(), Some(B));
}

#[test]
fn alliances_group_together_never_capture_each_other_and_can_end() {
    let mut g = game("square:7", 3, unlimited());
    choose_starts(&mut g);
    // Red's stone at D4 touched by two black stones and one white one.
    for (seat, label) in [(B, "C4"), (W, "D5"), (R, "D4"), (B, "E4")] {
        place(&mut g, seat, label);
    }
    assert_eq!((g.contact(B, R), g.contact(W, R)), (2, 1));
    // Red may surrender only to Black, who has the most stones in contact.
    act(&mut g, W, Action::Forgo);
    assert!(matches!(g.apply(R, &Input::Action(Action::Surrender(W))), Err(Illegal::Surrender(_))));
    act(&mut g, R, Action::Surrender(B));
    assert_eq!(g.acting(), vec![B], "Black answers");
    let turn = RuleSystem::turn(&g);
    assert!(
        turn.simultaneous && turn.seats == vec![B],
        "a decision on the server's decision clock: {turn:?}"
    );
    // Had the time run out, the offer would be declined and play go on after Red.
    let mut lapsed = g.clone();
    act(&mut lapsed, B, Action::Timeout);
    assert_eq!(lapsed.occupier(R), None);
    assert_eq!(lapsed.to_move(), Some(B));
    act(&mut g, B, Action::Accept);
    assert_eq!(g.occupier(R), Some(B));
    assert_eq!(g.team(R), B);
    // Black fills Red's last liberty but one: allies never capture each other.
    place(&mut g, B, "D3");
    assert_eq!(g.stone_at(at(&g, "D4")), Some(R));
    // White cannot surrender to an occupied faction, and Red declares independence later.
    place(&mut g, W, "A7");
    act(&mut g, R, Action::Independence);
    assert_eq!(g.occupier(R), None);
    assert!(
        g.events()
            .iter()
            .any(|e| matches!(e, Event::Independent { player, from } if *player == R && *from == B))
    );
}

#[test]
fn everyone_passes_then_clean_up_and_prisoners_fill_territory() {
    let mut g = game("square:5", 2, unlimited());
    choose_starts(&mut g);
    // Black walls off column A-B, White column D-E; a white stone inside Black's area dies.
    let moves = [
        (B, "B1"),
        (W, "D1"),
        (B, "B2"),
        (W, "D2"),
        (B, "B3"),
        (W, "D3"),
        (B, "B4"),
        (W, "D4"),
        (B, "B5"),
        (W, "D5"),
        (B, "-"),
        (W, "A3"),
    ];
    for (seat, what) in moves {
        if what == "-" { act(&mut g, seat, Action::Forgo) } else { place(&mut g, seat, what) }
    }
    // White's stone at A3 sits in Black's area; everyone passes.
    act(&mut g, B, Action::Pass);
    act(&mut g, W, Action::Pass);
    assert_eq!(*g.phase(), Phase::CleanUp);
    assert_eq!(g.acting(), vec![B, W]);
    // Naming another's stone is refused; White agrees A3 is dead.
    let a3 = at(&g, "A3");
    assert_eq!(g.apply(B, &Input::Dead(vec![a3])), Err(Illegal::NotYourStone(a3)));
    g.apply(W, &Input::Dead(vec![a3])).unwrap();
    g.apply(B, &Input::Dead(vec![])).unwrap();
    let o = g.outcome().expect("the game is over").clone();
    // Black: column A (5) and the prisoner in Black's territory; White: column E (5), with one
    // of White's stones held by Black filled into it.
    assert_eq!(g.prisoners(B)[W.index()], 1);
    assert_eq!(o.scores, vec![5.0, 4.0]);
    assert_eq!(o.ranking, vec![B, W]);
    assert_eq!(o.places, vec![1, 2]);
    assert!(g.events().iter().any(
        |e| matches!(e, Event::FilledIn { team, territory: 5, prisoners: 1, left: 4, .. } if *team == W)
    ));
}

#[test]
fn equal_totals_share_a_place_and_any_other_action_breaks_the_passes() {
    let mut g = game("square:5", 2, unlimited());
    choose_starts(&mut g);
    place(&mut g, B, "B3");
    place(&mut g, W, "D3");
    act(&mut g, B, Action::Pass);
    act(&mut g, W, Action::Forgo);
    assert_eq!(g.passes(), 0, "a forgo breaks the run");
    act(&mut g, B, Action::Pass);
    act(&mut g, W, Action::Pass);
    g.apply(B, &Input::Dead(vec![])).unwrap();
    g.apply(W, &Input::CleanUpTimeout).unwrap();
    let o = g.outcome().unwrap();
    // The board is one region touching both: nobody has territory; a draw.
    assert_eq!(o.places, vec![1, 1]);
}

#[test]
fn refusals_name_the_reason_and_change_nothing() {
    let mut g = game("square:9", 2, TribalRules::pro());
    choose_starts(&mut g);
    let start = g.start_point(B).unwrap();
    let far = g.map().nodes().find(|&v| g.map().distances_from(start)[v as usize] == 7).unwrap();
    let before = (g.log().len(), g.events().len());
    let r = RuleSystem::submit(&mut g, B, &Move::Place { node: Some(u64::from(far)), at: None });
    assert_eq!(r.as_ref().map_err(|e| e.code.as_str()), Err("out_of_range"), "{r:?}");
    assert!(r.unwrap_err().message.contains("more than 5 steps"));
    let r = RuleSystem::submit(&mut g, B, &Move::Resign);
    assert_eq!(r.map_err(|e| e.code), Err("no_resignation".to_string()));
    let r = RuleSystem::submit(&mut g, W, &Move::Pass);
    assert_eq!(r.map_err(|e| e.code), Err("not_your_turn".to_string()));
    let r = RuleSystem::submit(&mut g, B, &Move::Dice { dice: [3, 4] });
    assert_eq!(r.map_err(|e| e.code), Err("not_now".to_string()));
    let r = RuleSystem::submit(&mut g, B, &Move::Surrender { to: 1 });
    assert_eq!(r.map_err(|e| e.code), Err("surrender".to_string()), "alliances need 3 players");
    assert_eq!((g.log().len(), g.events().len()), before);
}

#[test]
fn a_random_game_replays_from_its_record_on_several_maps() {
    for (spec, players, preset) in [
        ("square:7", 2, "tribal"),
        ("hex:3", 3, "tribal-pro"),
        ("torus:6", 4, "tribal"),
        ("honeycomb:2", 3, "tribal"),
    ] {
        let rules = gobeyond_rules::registry::rules_by_name(preset).unwrap();
        let names: Vec<PlayerInfo> = (0..players).map(|i| PlayerInfo { name: format!("p{i}") }).collect();
        let record = Record::new(MapSource::Spec(spec.into()), rules, names.clone());
        let mut game = record.new_game().unwrap();
        let mut rng = gobeyond_rules::Rng::new(7);
        for _ in 0..8000 {
            if game.outcome().is_some() {
                break;
            }
            if let Some((seat, input)) = game.draw_chance(&mut rng) {
                game.submit(seat, &input).unwrap();
                continue;
            }
            let AnyGame::Tribal(t) = &game else { panic!("a Tribal game") };
            let seat = t.acting()[0];
            let mut legal = Vec::new();
            t.legal_actions(&mut legal);
            let input = if *t.phase() == Phase::CleanUp {
                Move::dead(t.map(), &[])
            } else if legal.is_empty() {
                Move::Pass
            } else {
                // Mostly placements, passes now and then so that games end.
                let others: Vec<Action> = legal.iter().copied().filter(|a| *a != Action::Pass).collect();
                let placed = t.events().iter().filter(|e| matches!(e, Event::Placed { .. })).count();
                if legal.contains(&Action::Pass) && (others.is_empty() || (placed > 20 && rng.below(4) == 0))
                {
                    Move::Pass
                } else {
                    Move::action(t.map(), others[rng.below(others.len() as u32) as usize])
                }
            };
            let obj = gobeyond_rules::registry::to_object(&input);
            game.submit(seat, &obj).unwrap_or_else(|e| panic!("{spec}: {input:?}: {e}"));
        }
        let AnyGame::Tribal(t) = &game else { panic!() };
        assert!(t.outcome().is_some(), "{spec}: the game ended");
        let placed = t.events().iter().filter(|e| matches!(e, Event::Placed { .. })).count();
        assert!(
            placed >= 10,
            "{spec}: {placed} stones placed: {:?}",
            t.events().iter().take(40).collect::<Vec<_>>()
        );
        let record = Record::of(t, MapSource::Spec(spec.into()), names);
        let again = record.replay().unwrap();
        let AnyGame::Tribal(u) = &again else { panic!() };
        assert_eq!(u.events(), t.events(), "{spec}: the record replays to the same events");
    }
}

/// Random games on five map families with 2 to 6 players: every stone is always somewhere
/// (supply, board, or someone's prisoners), a refused input changes nothing, and the record
/// replays to the same events.
#[test]
fn random_games_conserve_stones_and_refusals_change_nothing() {
    let maps = ["square:7", "hex:3", "torus:6", "honeycomb:2", "random:40:seed=3"];
    for (k, spec) in maps.iter().enumerate() {
        for players in [2usize, 3, 4, 6] {
            let map = Arc::new(generate(spec).unwrap());
            if map.len() < 2 * players {
                continue;
            }
            let range = [RangeRule::Dice, RangeRule::Fixed, RangeRule::Unlimited][(k + players) % 3];
            let rules = TribalRules {
                range,
                stones_per_player: Some(300),
                handicap: vec![-2, 0],
                ..TribalRules::default()
            };
            let mut g = TribalGame::new(map.clone(), players, rules.clone(), None).unwrap();
            let mut rng = gobeyond_rules::Rng::new((k * 10 + players) as u64);
            let conserved = |g: &TribalGame| {
                for c in 0..players {
                    let colour = Player(c as u8);
                    let on_board = g.map().nodes().filter(|&v| g.stone_at(v) == Some(colour)).count() as u32;
                    let held: u32 = (0..players).map(|h| g.prisoners(Player(h as u8))[c]).sum();
                    assert_eq!(
                        g.supply(colour).unwrap() + on_board + held,
                        300,
                        "{spec}, {players} players: colour {c}"
                    );
                }
            };
            for _ in 0..12000 {
                if g.outcome().is_some() {
                    break;
                }
                if let Some(m) = RuleSystem::draw_chance(&g, &mut rng) {
                    let seat = g.chance_seat().unwrap();
                    RuleSystem::submit(&mut g, seat, &m).unwrap();
                    continue;
                }
                let seat = g.acting()[0];
                // Something illegal first: an occupied or unknown node, or out of turn.
                let snapshot = (
                    g.log().len(),
                    g.events().len(),
                    serde_json::to_string(&g.view(gobeyond_rules::Viewer::Spectator, &[], false)).unwrap(),
                );
                let bad = match rng.below(3) {
                    0 => Move::Place { node: Some(10_000), at: None },
                    1 => match g.map().nodes().find(|&v| g.stone_at(v).is_some()) {
                        Some(v) => Move::Place { node: Some(u64::from(v)), at: None },
                        None => Move::Resign,
                    },
                    _ => Move::Dice { dice: [7, 1] },
                };
                let other = Player(((seat.index() + 1) % players) as u8);
                assert!(RuleSystem::submit(&mut g, seat, &bad).is_err());
                let _ =
                    RuleSystem::submit(&mut g, other, &Move::Pass).is_err() || *g.phase() == Phase::CleanUp;
                let after = (
                    g.log().len(),
                    g.events().len(),
                    serde_json::to_string(&g.view(gobeyond_rules::Viewer::Spectator, &[], false)).unwrap(),
                );
                if *g.phase() != Phase::CleanUp {
                    assert_eq!(snapshot, after, "{spec}: a refused input changed the game");
                }
                let mut legal = Vec::new();
                g.legal_actions(&mut legal);
                let input = if *g.phase() == Phase::CleanUp {
                    Move::dead(g.map(), &[])
                } else {
                    let placed = g.events().iter().filter(|e| matches!(e, Event::Placed { .. })).count();
                    let others: Vec<Action> = legal.iter().copied().filter(|a| *a != Action::Pass).collect();
                    if legal.contains(&Action::Pass)
                        && (others.is_empty() || (placed > 3 * players && rng.below(3) == 0))
                    {
                        Move::Pass
                    } else {
                        Move::action(g.map(), others[rng.below(others.len() as u32) as usize])
                    }
                };
                let actor = if *g.phase() == Phase::CleanUp { g.acting()[0] } else { seat };
                RuleSystem::submit(&mut g, actor, &input)
                    .unwrap_or_else(|e| panic!("{spec}: {input:?}: {e}"));
                conserved(&g);
                let cards: u32 = (0..players).map(|q| g.hand(Player(q as u8)).len() as u32).sum::<u32>()
                    + g.deck().outside_hands();
                assert_eq!(cards, 50, "{spec}: deck + hands + discards + banked");
            }
            assert!(g.outcome().is_some(), "{spec}, {players} players: the game ended");
            let names: Vec<PlayerInfo> = (0..players).map(|i| PlayerInfo { name: format!("p{i}") }).collect();
            let record = Record::of(&g, MapSource::Spec((*spec).into()), names);
            let again: TribalGame = record.replay_as().unwrap();
            assert_eq!(again.events(), g.events(), "{spec}: the record replays");
        }
    }
}
