//! The Way of Go: range, lines and jumps, captures and sacrifice, the four kinds of turn,
//! contracts, the push, the pie, forced passes, and which maps have lines.

use super::*;

#[test]
fn a_lone_stone_moves_exactly_its_liberties_along_each_line() {
    // Four liberties: exactly four steps in each of the four directions.
    let (g, want) = diagram::<gobeyond_rules::way_of_go::WayOfGo>(
        &[
            "....+....",
            ".........",
            ".........",
            ".........",
            "+...X...+",
            ".........",
            ".........",
            ".........",
            "....+....",
        ],
        WayOfGoRules::default(),
        BLACK,
    );
    assert_eq!(g.board().range(node(g.map(), "E5"), 1), 4);
    assert_eq!(destinations(&g, "E5", 1), want);
    // A group's range is the group's liberties: two stones, six liberties, six steps.
    let (g, want) = diagram::<gobeyond_rules::way_of_go::WayOfGo>(
        &[
            "......+......",
            ".............",
            ".............",
            ".............",
            ".............",
            "......X......",
            "+.....X.....+",
            ".............",
            ".............",
            ".............",
            ".............",
            ".............",
            "......+......",
        ],
        WayOfGoRules::default(),
        BLACK,
    );
    assert_eq!(g.board().range(node(g.map(), "G7"), 1), 6);
    assert_eq!(destinations(&g, "G7", 1), want);
}

#[test]
fn the_edge_of_the_board_ends_a_line() {
    // B5: range 4, but only one column to its left: no move that way.
    let (g, want) = diagram::<gobeyond_rules::way_of_go::WayOfGo>(
        &[
            ".+.......",
            ".........",
            ".........",
            ".........",
            ".X...+...",
            ".........",
            ".........",
            ".........",
            ".+.......",
        ],
        WayOfGoRules::default(),
        BLACK,
    );
    assert_eq!(destinations(&g, "B5", 1), want);
    // A1 in the corner: two liberties, two steps up or right.
    let (g, want) = diagram::<gobeyond_rules::way_of_go::WayOfGo>(
        &["....", "+...", "....", "X.+."],
        WayOfGoRules::default(),
        BLACK,
    );
    assert_eq!(destinations(&g, "A1", 1), want);
}

#[test]
fn moves_jump_over_anything_and_land_by_what_is_there() {
    // White G5 is in the way of E5's move to the right; it is jumped, and untouched.
    let (mut g, _) = diagram::<gobeyond_rules::way_of_go::WayOfGo>(
        &[".........", ".........", "....X.O..", ".........", "........."],
        WayOfGoRules::default(),
        BLACK,
    );
    let a = mv(&g, "E3", 1, "J3");
    g.play(a).unwrap();
    assert_eq!(stack(&g, "J3"), (Some(BLACK), 1));
    assert_eq!(stack(&g, "G3"), (Some(WHITE), 1));
    assert_eq!(stack(&g, "E3"), (None, 0));
}

#[test]
fn landing_on_an_enemy_captures_it_and_sacrifices_the_mover() {
    let mut g = way("square:9", &[("E5", BLACK, 1), ("J5", WHITE, 1)], BLACK);
    let a = mv(&g, "E5", 1, "J5");
    g.play(a).unwrap();
    assert_eq!(stack(&g, "J5"), (None, 0), "the captured piece is removed");
    assert_eq!(stack(&g, "E5"), (None, 0), "and the capturing piece sacrificed");
    assert_eq!((g.captures(Player(0)), g.captures(Player(1))), (1, 0), "only the mover scores");
    // A capture is the whole turn: White is to move.
    assert_eq!(g.to_move(), Some(g.seat_of(WHITE)));
    assert!(g.events().iter().any(|e| matches!(e, Event::Captured { removed: 1, lost: 1, .. })));
}

#[test]
fn one_cannot_capture_ones_own_pieces() {
    let g = way("square:9", &[("E5", BLACK, 1), ("J5", BLACK, 1)], BLACK);
    let (e5, j5) = (node(g.map(), "E5"), node(g.map(), "J5"));
    assert_eq!(g.find_move(e5, 1, j5, None).unwrap_err(), Illegal::OwnPiece { to: j5 });
}

#[test]
fn a_drop_next_to_an_enemy_shrinks_its_range_and_no_liberty_means_no_move() {
    let mut g = way("square:9", &[("E5", WHITE, 1)], BLACK);
    let e5 = node(g.map(), "E5");
    assert_eq!(g.board().range(e5, 1), 4);
    let a = drop_at(&g, "E4");
    g.play(a).unwrap();
    assert_eq!(g.board().range(e5, 1), 3, "the drop took a liberty");
    // Surrounded: no liberties, so no move, and the stone stays on the board (rule 18).
    let g = way(
        "square:9",
        &[("E5", WHITE, 1), ("E4", BLACK, 1), ("E6", BLACK, 1), ("D5", BLACK, 1), ("F5", BLACK, 1)],
        WHITE,
    );
    assert_eq!(g.board().range(e5, 1), 0);
    assert_eq!(stack(&g, "E5"), (Some(WHITE), 1));
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert!(!legal.iter().any(|a| matches!(a, Action::Move { from, .. } if *from == e5)));
}

#[test]
fn the_four_kinds_of_turn() {
    // (b) A move, then the drop is mandatory: ending the turn is refused.
    let mut g = way("square:9", &[("E5", BLACK, 1), ("C3", WHITE, 1)], BLACK);
    let a = mv(&g, "E5", 1, "A5");
    g.play(a).unwrap();
    assert_eq!(g.to_move(), Some(g.seat_of(BLACK)), "the same player drops next");
    assert!(matches!(g.play(Action::EndTurn), Err(Illegal::WrongStep { .. })));
    // The drop may go on the node just left (A7).
    let a = drop_at(&g, "E5");
    g.play(a).unwrap();
    assert_eq!(g.to_move(), Some(g.seat_of(WHITE)));

    // (c) A drop, then a move of a different piece; the dropped one may not move.
    let mut g = way("square:9", &[("E5", BLACK, 1), ("C3", WHITE, 1)], BLACK);
    let a = drop_at(&g, "H8");
    g.play(a).unwrap();
    let h8 = node(g.map(), "H8");
    let any_move_of_h8 =
        Action::Move { from: h8, count: 1, dir: 0, to: g.board().walk(h8, 0, 4).map_or(h8, |(n, _)| n) };
    assert_eq!(g.check(any_move_of_h8), Err(Illegal::DroppedPiece { node: h8 }));
    let a = mv(&g, "E5", 1, "E1");
    g.play(a).unwrap();
    assert_eq!(g.to_move(), Some(g.seat_of(WHITE)));

    // (a) A drop alone: drop, then end the turn.
    let mut g = way("square:9", &[("E5", BLACK, 1), ("C3", WHITE, 1)], BLACK);
    let a = drop_at(&g, "H8");
    g.play(a).unwrap();
    g.play(Action::EndTurn).unwrap();
    assert_eq!(g.to_move(), Some(g.seat_of(WHITE)));

    // (d) No capture after a drop: a capture is the whole turn.
    let mut g = way("square:9", &[("E5", BLACK, 1), ("J5", WHITE, 1)], BLACK);
    let a = drop_at(&g, "B8");
    g.play(a).unwrap();
    let (e5, j5) = (node(g.map(), "E5"), node(g.map(), "J5"));
    let (step, landing) = g.find_move(e5, 1, j5, None).unwrap();
    assert_eq!(landing, Landing::Capture);
    let capture = Action::Move { from: e5, count: 1, dir: step.dir, to: j5 };
    assert_eq!(g.check(capture), Err(Illegal::CaptureNotNow { to: j5 }));
    // Nor a drop after a capture: the turn is over at once (checked above).
}

#[test]
fn contracts_are_judged_by_round_and_raised_when_both_reach_them() {
    let rules = WayOfGoRules { contracts: [1, 1], pie: false, ..WayOfGoRules::default() };
    // White E1 (three liberties on the edge) captures E4 on its move.
    let stacks = [("E1", WHITE, 1), ("E4", BLACK, 1), ("J9", BLACK, 1), ("J6", WHITE, 1)];
    let mut g: WayOfGoGame = position("square:9", rules.clone(), &stacks, WHITE);
    let a = mv(&g, "E1", 1, "E4");
    g.play(a).unwrap();
    assert!(g.outcome().is_none(), "White reached its contract, but Black still has the round's move");
    // Black has no capture: it drops, and White wins at the end of the round.
    let mut w = g.clone();
    let a = drop_at(&w, "A9");
    w.play(a).unwrap();
    w.play(Action::EndTurn).unwrap();
    let o = w.outcome().expect("the round ended with White alone at its contract");
    assert_eq!(o.reason, EndReason::Contract);
    assert_eq!(o.winner(), Some(w.seat_of(WHITE)));

    // Both in one round: Black's J8 (three liberties on the edge) answers by capturing J5.
    let stacks = [("E1", WHITE, 1), ("E4", BLACK, 1), ("J8", BLACK, 1), ("J5", WHITE, 1)];
    let mut g: WayOfGoGame = position("square:9", rules, &stacks, WHITE);
    let a = mv(&g, "E1", 1, "E4");
    g.play(a).unwrap();
    let a = mv(&g, "J8", 1, "J5");
    g.play(a).unwrap();
    assert!(g.outcome().is_none(), "both reached: the game goes on");
    assert_eq!((g.contract(Player(0)), g.contract(Player(1))), (Some(2), Some(2)));
    assert!(g.events().iter().any(|e| matches!(e, Event::ContractsRaised { contracts: [2, 2] })));
}

#[test]
fn the_push_variant_pushes_an_own_piece_and_may_capture_with_it() {
    // The document's figure: White M8-M5 pushes M5 to M4, capturing the Black stone there.
    let rules = WayOfGoRules { push: true, pie: false, ..WayOfGoRules::default() };
    // M8 needs range 3: a Black stone on N8 takes one of its four liberties.
    let stacks = [("M8", WHITE, 1), ("N8", BLACK, 1), ("M5", WHITE, 1), ("M4", BLACK, 1)];
    let mut g: WayOfGoGame = position("square:13", rules.clone(), &stacks, WHITE);
    let (m8, m5) = (node(g.map(), "M8"), node(g.map(), "M5"));
    assert_eq!(g.board().range(m8, 1), 3);
    let (step, landing) = g.find_move(m8, 1, m5, None).unwrap();
    assert_eq!(landing, Landing::PushCapture);
    g.play(Action::Move { from: m8, count: 1, dir: step.dir, to: m5 }).unwrap();
    assert_eq!(stack(&g, "M8"), (None, 0));
    assert_eq!(stack(&g, "M5"), (Some(WHITE), 1), "the mover stands on M5");
    assert_eq!(stack(&g, "M4"), (None, 0), "the pushed piece captured M4 and was sacrificed");
    assert_eq!(g.captures(g.seat_of(WHITE)), 1);
    assert_eq!(g.to_move(), Some(g.seat_of(BLACK)), "a push capture is a whole turn");

    // Pushing onto an empty node moves both pieces: a non-capturing move, then a drop.
    let stacks = [("M8", WHITE, 1), ("N8", BLACK, 1), ("M5", WHITE, 1)];
    let mut g: WayOfGoGame = position("square:13", rules.clone(), &stacks, WHITE);
    let (step, landing) = g.find_move(m8, 1, m5, None).unwrap();
    assert_eq!(landing, Landing::Push);
    g.play(Action::Move { from: m8, count: 1, dir: step.dir, to: m5 }).unwrap();
    assert_eq!((stack(&g, "M5"), stack(&g, "M4")), ((Some(WHITE), 1), (Some(WHITE), 1)));
    assert_eq!(g.to_move(), Some(g.seat_of(WHITE)), "the drop follows");

    // Without the option, the same move is refused.
    let g = way("square:13", &stacks, WHITE);
    assert_eq!(g.find_move(m8, 1, m5, None).unwrap_err(), Illegal::OwnPiece { to: m5 });
}

#[test]
fn the_pie_two_black_one_white_then_a_choice_then_white_moves() {
    let m = map("square:9");
    let mut g = WayOfGoGame::new(m.clone(), WayOfGoRules::default()).unwrap();
    assert_eq!(g.to_move(), Some(Player(0)));
    assert_eq!(g.turn().phase, "pie");
    assert!(matches!(g.play(Action::Drop(0)), Err(Illegal::WrongStep { .. })));
    g.play(Action::PieStone { node: node(&m, "C3"), colour: BLACK }).unwrap();
    g.play(Action::PieStone { node: node(&m, "G7"), colour: WHITE }).unwrap();
    assert_eq!(
        g.play(Action::PieStone { node: node(&m, "C7"), colour: WHITE }),
        Err(Illegal::PieColour { colour: WHITE })
    );
    g.play(Action::PieStone { node: node(&m, "G3"), colour: BLACK }).unwrap();
    assert_eq!(g.to_move(), Some(Player(1)), "seat 1 chooses");
    assert_eq!(g.turn().phase, "choose_side");
    g.play(Action::ChooseSide(WHITE)).unwrap();
    assert_eq!(g.colour_of(Player(1)), WHITE);
    assert_eq!(g.colour_of(Player(0)), BLACK);
    assert_eq!(g.to_move(), Some(Player(1)), "White makes the first regular move");
    assert_eq!(g.turns(), 0, "the pie is not a turn");

    // Choosing Black hands White, and the first move, to seat 0.
    let mut h = WayOfGoGame::new(m.clone(), WayOfGoRules::default()).unwrap();
    for (l, c) in [("C3", BLACK), ("G3", BLACK), ("G7", WHITE)] {
        h.play(Action::PieStone { node: node(&m, l), colour: c }).unwrap();
    }
    h.play(Action::ChooseSide(BLACK)).unwrap();
    assert_eq!((h.colour_of(Player(0)), h.to_move()), (WHITE, Some(Player(0))));
}

#[test]
fn with_no_possible_turn_a_player_passes_and_two_passes_end_the_game() {
    // rect:2x1 full: no empty node, and neither stone has a liberty.
    let rules = WayOfGoRules { contracts: [1, 2], pie: false, ..WayOfGoRules::default() };
    let mut g: WayOfGoGame = position("rect:2x1", rules, &[("A1", BLACK, 1), ("B1", WHITE, 1)], WHITE);
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert_eq!(legal, [Action::Pass]);
    g.play(Action::Pass).unwrap();
    g.play(Action::Pass).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, EndReason::NoLegalMove);
    // Shortfalls 1 (seat 0) and 2 (seat 1): the smaller wins.
    assert_eq!(o.winner(), Some(Player(0)));
    // A pass while a turn exists is refused.
    let g = way("square:9", &[], WHITE);
    assert_eq!(g.check(Action::Pass), Err(Illegal::PassNotForced));
}

#[test]
fn maps_without_lines_are_refused_by_name() {
    for spec in ["honeycomb:3", "random:40:seed=1", "goldberg:2,0"] {
        let e = WayOfGoGame::new(map(spec), WayOfGoRules::default()).unwrap_err().to_string();
        assert!(e.contains("straight lines"), "{spec}: {e}");
        let e = BesiegeGame::new(map(spec), BesiegeRules::default()).unwrap_err().to_string();
        assert!(e.contains("straight lines"), "{spec}: {e}");
    }
}

#[test]
fn lines_continue_across_the_torus_and_the_cube() {
    // On a 5×5 torus a lone stone has range 4: one short of going round, on every line.
    let g = way("torus:5", &[("C3", BLACK, 1)], BLACK);
    assert_eq!(destinations(&g, "C3", 1).len(), 4);
    // On the cube surface every node has four liberties in the open, and the lines cross edges.
    let g: WayOfGoGame = {
        let m = map("cube:3");
        WayGame::from_position(m, WayOfGoRules::default(), &[(0, BLACK, 1)], BLACK).unwrap()
    };
    let mut n = 0;
    g.board().steps(0, 1, |_| n += 1);
    assert_eq!(n, 4, "four directions from a cube node, all continuing across edges");
    // Hex: six liberties, six directions.
    let m = map("hex:4");
    let centre = m.nodes().find(|&v| m.degree(v) == 6).unwrap();
    let g = WayOfGoGame::from_position(m, WayOfGoRules::default(), &[(centre, BLACK, 1)], BLACK).unwrap();
    assert_eq!(g.board().range(centre, 1), 6);
}
