//! BeSiege: neutral drops, the document's stack example, stacks built, split and captured,
//! the end with no turn.

use super::*;

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
