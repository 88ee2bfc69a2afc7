//! The Way of Go and BeSiege (`docs/rules/spec/way-of-go.md` and `docs/rules/spec/besiege.md`,
//! whose rule and reading numbers the comments cite), one situation each: exact range, jumping, the
//! board's edge, a drop shrinking an enemy's range, the sacrifice, the four kinds of turn,
//! contracts reached in one round, the push, the pie, forced passes; BeSiege's neutral drops, the
//! document's stack example (4, 6 and 5), stacks built, split and captured with the difference
//! left, the end with no turn — then random games on four map families whose stones are conserved,
//! whose refusals change nothing and whose records replay.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId, generate};
use gobeyond_rules::{
    AnyGame, EndReason, Game, Player, Rng, RuleSystem,
    record::{MapSource, PlayerInfo, Record},
    way_of_go::{
        Action, BesiegeGame, BesiegeRules, Colour, Event, Illegal, Landing, Variant, WayGame, WayOfGoGame,
        WayOfGoRules,
    },
};

const BLACK: Colour = Colour::Black;
const WHITE: Colour = Colour::White;

fn map(spec: &str) -> Arc<Map> {
    Arc::new(generate(spec).unwrap())
}

fn node(map: &Map, label: &str) -> NodeId {
    map.node_by_label(label).unwrap_or_else(|| panic!("no {label} on {}", map.spec()))
}

/// A position on `spec`: stacks by label (`("E5", BLACK, 1)`), `to_move` to start a turn.
fn position<V: Variant>(
    spec: &str,
    rules: V::Settings,
    stacks: &[(&str, Colour, u8)],
    to_move: Colour,
) -> WayGame<V> {
    let m = map(spec);
    let stacks: Vec<_> = stacks.iter().map(|&(l, c, h)| (node(&m, l), c, h)).collect();
    WayGame::<V>::from_position(m, rules, &stacks, to_move).unwrap()
}

fn way(spec: &str, stacks: &[(&str, Colour, u8)], to_move: Colour) -> WayOfGoGame {
    position(spec, WayOfGoRules::default(), stacks, to_move)
}

fn besiege(spec: &str, stacks: &[(&str, Colour, u8)], to_move: Colour) -> BesiegeGame {
    position(spec, BesiegeRules::default(), stacks, to_move)
}

/// A position from a diagram (the top line is the top row, GTP labels): `X` a Black stone,
/// `O` a White one, `2`–`9` a Black stack of that height, `.` empty; `+` marks an empty node
/// the test expects something of (returned, sorted).
fn diagram<V: Variant>(rows: &[&str], rules: V::Settings, to_move: Colour) -> (WayGame<V>, Vec<String>) {
    let rows: Vec<Vec<char>> =
        rows.iter().map(|r| r.chars().filter(|c| !c.is_whitespace()).collect()).collect();
    let (w, h) = (rows[0].len(), rows.len());
    let m = map(&format!("rect:{w}x{h}"));
    let mut stacks = Vec::new();
    let mut marked = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            let n = m.grid_node(x as u32, y as u32).unwrap();
            match c {
                'X' => stacks.push((n, BLACK, 1)),
                'O' => stacks.push((n, WHITE, 1)),
                '2'..='9' => stacks.push((n, BLACK, c as u8 - b'0')),
                '+' => marked.push(m.label(n).to_string()),
                _ => {}
            }
        }
    }
    marked.sort();
    (WayGame::<V>::from_position(m, rules, &stacks, to_move).unwrap(), marked)
}

/// The destinations (labels, sorted) of the top `count` stones on `from`, any landing.
fn destinations<V: Variant>(g: &WayGame<V>, from: &str, count: u8) -> Vec<String> {
    let m = g.map();
    let mut out = Vec::new();
    g.board().steps(node(m, from), count, |s| out.push(m.label(s.to).to_string()));
    out.sort();
    out
}

fn mv<V: Variant>(g: &WayGame<V>, from: &str, count: u8, to: &str) -> Action {
    let m = g.map();
    let (step, _) = g
        .find_move(node(m, from), count, node(m, to), None)
        .unwrap_or_else(|e| panic!("{from}-{to}: {}", e.describe(m)));
    Action::Move { from: step.from, count, dir: step.dir, to: step.to }
}

fn drop_at<V: Variant>(g: &WayGame<V>, label: &str) -> Action {
    Action::Drop(node(g.map(), label))
}

fn stack<V: Variant>(g: &WayGame<V>, label: &str) -> (Option<Colour>, u8) {
    let n = node(g.map(), label);
    (g.board().colour(n), g.board().height(n))
}

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

// --- BeSiege -------------------------------------------------------------------------------

#[test]
fn besiege_the_documents_stack_example_ranges_4_6_and_5() {
    // B3: a Black stack of three; C3: a Black stack of two; B2: a White stone. Level 3: B3
    // alone (4); level 2: B3 with C3 (6); level 1: B3 with C3, B2 blocking (5).
    let (g, _) = diagram::<gobeyond_rules::way_of_go::Besiege>(
        &[
            ".....", //
            ".....", ".32..", ".O...", ".....",
        ],
        BesiegeRules::default(),
        BLACK,
    );
    let b3 = node(g.map(), "B3");
    assert_eq!(g.board().range(b3, 1), 4, "the top piece");
    assert_eq!(g.board().range(b3, 2), 6, "the top two together");
    assert_eq!(g.board().range(b3, 3), 5, "the whole stack");
}

#[test]
fn besiege_drops_only_on_neutral_points() {
    let mut g = besiege("square:9", &[("E5", BLACK, 1)], WHITE);
    // E5 (range 4) attacks A5, J5, E1 and E9.
    for l in ["A5", "J5", "E1", "E9"] {
        let n = node(g.map(), l);
        assert_eq!(g.check(Action::Drop(n)), Err(Illegal::NotNeutral { node: n }), "{l}");
    }
    let a = drop_at(&g, "C7");
    g.play(a).unwrap();
    assert_eq!(stack(&g, "C7"), (Some(WHITE), 1));
}

#[test]
fn besiege_stacks_are_built_split_and_capture_with_the_difference_left() {
    // Build: E5 (range 4) onto its own A5.
    let mut g = besiege("square:9", &[("E5", BLACK, 1), ("A5", BLACK, 1), ("H2", WHITE, 1)], BLACK);
    let a = mv(&g, "E5", 1, "A5");
    g.play(a).unwrap();
    assert_eq!(stack(&g, "A5"), (Some(BLACK), 2));
    let drop = {
        let mut d = Vec::new();
        g.drops(&mut d);
        d[0]
    };
    g.play(Action::Drop(drop)).unwrap();

    // Split: the top stone of a stack of three moves, two stay.
    let mut g = besiege("square:9", &[("E5", BLACK, 3), ("H2", WHITE, 1)], BLACK);
    let e5 = node(g.map(), "E5");
    assert_eq!(g.board().range(e5, 1), 4);
    let a = mv(&g, "E5", 1, "E9");
    g.play(a).unwrap();
    assert_eq!((stack(&g, "E5"), stack(&g, "E9")), ((Some(BLACK), 2), (Some(BLACK), 1)));

    // Capture, 3 onto 1: two of the mover's stones remain, one capture.
    let mut g = besiege("square:9", &[("E5", BLACK, 3), ("E9", WHITE, 1)], BLACK);
    let a = mv(&g, "E5", 3, "E9");
    g.play(a).unwrap();
    assert_eq!(stack(&g, "E9"), (Some(BLACK), 2));
    assert_eq!(stack(&g, "E5"), (None, 0));
    assert_eq!(g.captures(Player(0)), 1);

    // Capture, 1 onto 2: one defender remains; the mover still scores the one it took.
    let mut g = besiege("square:9", &[("E5", BLACK, 1), ("E9", WHITE, 2)], BLACK);
    let a = mv(&g, "E5", 1, "E9");
    g.play(a).unwrap();
    assert_eq!(stack(&g, "E9"), (Some(WHITE), 1));
    assert_eq!(g.captures(Player(0)), 1);
    assert!(g.events().iter().any(|e| matches!(e, Event::Captured { removed: 1, lost: 1, .. })));
}

#[test]
fn besiege_ends_when_the_player_to_move_has_no_turn_and_most_captures_wins() {
    // Full and frozen from the start: the game is over before anyone moves, a draw.
    let g = besiege("rect:2x1", &[("A1", BLACK, 1), ("B1", WHITE, 1)], BLACK);
    let o = g.outcome().expect("no turn for Black");
    assert_eq!(o.reason, EndReason::NoLegalMove);
    assert!(o.is_draw());
}

// --- Properties ----------------------------------------------------------------------------

/// Stones on the board = pie stones + drops − stones removed by captures (both sides).
fn conserved<V: Variant>(g: &WayGame<V>) -> Result<(), String> {
    let (mut placed, mut removed) = (0i64, 0i64);
    for e in g.events() {
        match e {
            Event::PieStone { .. } | Event::Dropped { .. } => placed += 1,
            Event::Captured { removed: r, lost: l, .. } => removed += (*r + *l) as i64,
            _ => {}
        }
    }
    let on_board = (g.board().stones(BLACK) + g.board().stones(WHITE)) as i64;
    if on_board == placed - removed {
        Ok(())
    } else {
        Err(format!("{on_board} stones on the board, {placed} placed, {removed} removed"))
    }
}

fn random_games<V: Variant>(rules: V::Settings)
where
    AnyGame: From<WayGame<V>>,
    WayGame<V>: TryFrom<AnyGame>,
{
    let mut tallest = 0;
    for (k, spec) in ["square:7", "torus:6", "hex:4", "cube:3"].iter().enumerate() {
        let m = map(spec);
        let mut g = WayGame::<V>::new(m.clone(), rules.clone()).unwrap();
        let mut rng = Rng::new(k as u64 + 11);
        let mut legal = Vec::new();
        let mut steps = 0;
        while g.outcome().is_none() && steps < 400 {
            steps += 1;
            // A refused action changes nothing.
            let junk = Action::Drop(rng.below(m.len() as u32));
            if g.check(junk).is_err() {
                let (hash, inputs, phase) = (g.board().hash(), g.inputs().len(), g.phase());
                assert!(g.play(junk).is_err());
                assert_eq!((g.board().hash(), g.inputs().len(), g.phase()), (hash, inputs, phase));
            }
            g.legal_actions(&mut legal);
            assert!(!legal.is_empty(), "{spec}: a game not over has an action");
            // Captures are rarer than drops; prefer them now and then so that games have some.
            let captures: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|a| match *a {
                    Action::Move { from, count, dir, to } => {
                        g.find_move(from, count, to, Some(dir)).is_ok_and(|(_, l)| l.captures())
                    }
                    _ => false,
                })
                .collect();
            let a = if !captures.is_empty() && rng.below(2) == 0 {
                captures[rng.below(captures.len() as u32) as usize]
            } else {
                legal[rng.below(legal.len() as u32) as usize]
            };
            g.check(a).unwrap_or_else(|e| panic!("{spec}: {a:?} was listed: {e}"));
            g.play(a).unwrap_or_else(|e| panic!("{spec}: {a:?} was listed: {e}"));
            conserved(&g).unwrap_or_else(|e| panic!("{spec} after {a:?}: {e}"));
            // The level-by-level attack table equals one BFS per stack and top part.
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            g.board().attacked(&mut fast);
            g.board().attacked_slowly(&mut slow);
            assert_eq!(fast, slow, "{spec} after {a:?}");
            tallest = tallest.max(m.nodes().map(|n| g.board().height(n)).max().unwrap_or(0));
        }
        let names = vec![PlayerInfo { name: "a".into() }, PlayerInfo { name: "b".into() }];
        let record = Record::of(&g, MapSource::Spec((*spec).into()), names);
        let json = serde_json::to_string(&record).unwrap();
        let again: Record = serde_json::from_str(&json).unwrap();
        let Ok(r) = WayGame::<V>::try_from(again.replay().unwrap()) else { panic!("{spec}: same system") };
        assert_eq!(r.board().hash(), g.board().hash(), "{spec}: the record replays");
        assert_eq!(
            (r.captures(Player(0)), r.captures(Player(1))),
            (g.captures(Player(0)), g.captures(Player(1)))
        );
        assert_eq!(r.outcome(), g.outcome());
        let mut u = g.clone();
        if !g.inputs().is_empty() {
            assert!(u.undo());
            assert_eq!(u.inputs().len(), g.inputs().len() - 1);
        }
    }
    if WayGame::<V>::from_position(map("square:5"), rules, &[], BLACK).unwrap().config().stacks {
        assert!(tallest >= 3, "stacks were built (the tallest had {tallest} stones)");
    }
}

#[test]
fn random_way_of_go_games_conserve_stones_and_replay() {
    random_games::<gobeyond_rules::way_of_go::WayOfGo>(WayOfGoRules::default());
    random_games::<gobeyond_rules::way_of_go::WayOfGo>(WayOfGoRules {
        push: true,
        contracts: [2, 3],
        ..WayOfGoRules::default()
    });
}

#[test]
fn random_besiege_games_conserve_stones_and_replay() {
    random_games::<gobeyond_rules::way_of_go::Besiege>(BesiegeRules::default());
}

#[test]
fn both_systems_are_in_the_registry() {
    for name in ["way-of-go", "besiege"] {
        let info = gobeyond_rules::SystemInfo::get(name).unwrap();
        assert_eq!(info.name, name);
    }
    assert_eq!(<WayOfGoGame as RuleSystem>::NAME, "way-of-go");
    assert_eq!(<BesiegeGame as RuleSystem>::NAME, "besiege");
}

#[test]
fn custom_maps_play_with_declared_or_derived_lines_and_are_refused_without() {
    use gobeyond_maps::{CustomLines, CustomMap, Derived};
    let plain = CustomMap::from_map(&generate("square:9").unwrap());
    let mut named = plain.clone();
    named.name = "My nine".into();
    let e =
        WayOfGoGame::new(Arc::new(named.build().unwrap()), WayOfGoRules::default()).unwrap_err().to_string();
    assert!(e.contains("My nine") && e.contains("straight lines"), "{e}");
    // Derived: in the open, a lone stone moves as on the generated board.
    let mut d = plain.clone();
    d.lines = Some(CustomLines::Derived(Derived::Derived));
    let m = Arc::new(d.build().unwrap());
    let e5 = node(&m, "E5");
    let g = WayOfGoGame::from_position(m.clone(), WayOfGoRules::default(), &[(e5, BLACK, 1)], BLACK).unwrap();
    let mut got = Vec::new();
    g.board().steps(e5, 1, |s| got.push(m.label(s.to).to_string()));
    got.sort();
    assert_eq!(got, ["A5", "E1", "E9", "J5"]);
    // Declared: a ring of eight nodes, closed. A lone stone has two liberties, so it moves two
    // steps either way round, across the ring's join.
    let ring = CustomMap {
        name: "Ring".into(),
        nodes: (0..8)
            .map(|i| {
                let a = i as f64 * std::f64::consts::PI / 4.0;
                gobeyond_maps::CustomNode { x: Some(a.cos()), y: Some(a.sin()), ..Default::default() }
            })
            .collect(),
        edges: (0..8u64).map(|i| [i, (i + 1) % 8]).collect(),
        lines: Some(CustomLines::Declared(vec![vec![0, 1, 2, 3, 4, 5, 6, 7, 0]])),
        ..Default::default()
    };
    let m = Arc::new(ring.build().unwrap());
    let g = WayOfGoGame::from_position(m, WayOfGoRules::default(), &[(1, BLACK, 1)], BLACK).unwrap();
    let mut got = Vec::new();
    g.board().steps(1, 1, |s| got.push(s.to));
    got.sort();
    assert_eq!(got, [3, 7]);
}
