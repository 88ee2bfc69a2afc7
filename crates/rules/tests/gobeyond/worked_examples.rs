//! The worked examples (`docs/rules/gobeyond.md`, "Worked examples").

use super::*;

/// "Surround to Capture" and "Only Emptiness remains": Black's L-shaped group of four has two
/// liberties, the lone White stone to its right one. Black fills it: the White stone is captured
/// (10 PlayPoints), its node is empty, surrounded by Black, and no White stone can stand there.
#[test]
fn doc_capture_example() {
    let mut g = from_diagram(
        "
        .O...
        OX...
        OX.X.
        OXXOX
        .OO..",
        2,
        GoBeyondRules::default(),
    );
    assert_eq!(g.board().liberties(at(&g, "B4")).len(), 2, "the L group has two liberties");
    assert_eq!(g.board().liberties(at(&g, "D2")), vec![at(&g, "D1")], "the White stone has one");
    let before = g.events().len();
    occupy(&mut g, "D1");
    assert_eq!(g.board().stone_at(at(&g, "D2")), None, "captured");
    assert_eq!(g.points(X), 200 - 10 + 10, "occupy cost, capture award");
    assert!(since(&g, before).contains(&Event::Captured {
        player: X,
        victim: O,
        nodes: vec![at(&g, "D2")],
        award: 10
    }));
    assert_eq!(g.claimant(at(&g, "D2")), Some(X), "surrounded by Black: claimed");
    assert_eq!(g.reserved_by(at(&g, "D2")), None, "the capturing stone has two liberties: no reservation");
    assert_eq!(
        g.check(Action::Occupy(at(&g, "D2"))),
        Err(Illegal::SelfCapture { node: at(&g, "D2") }),
        "no White stone can remain on that node"
    );
}

/// "Empty Region Claim Rule": Black surrounds two regions, White one; the nodes bordered by both
/// colours are disputed. Income at the start of a turn counts every claimed node (income from
/// several regions).
#[test]
fn doc_empty_region_example_and_income_from_several_regions() {
    let g = from_diagram(
        "
        .X.XO.O
        XXXXOOO
        .......",
        2,
        GoBeyondRules::default(),
    );
    let claimed = |label: &str| g.claimant(at(&g, label));
    assert_eq!(claimed("A3"), Some(X));
    assert_eq!(claimed("C3"), Some(X));
    assert_eq!(claimed("F3"), Some(O));
    for col in ["A", "B", "C", "D", "E", "F", "G"] {
        assert_eq!(claimed(&format!("{col}1")), None, "{col}1 touches both colours: disputed");
    }
    assert_eq!((g.claimed_count(X), g.claimed_count(O)), (2, 1));
    // Black's first turn has already started: phase 2 paid 1 PP per claimed node, both regions.
    assert_eq!(g.points(X), 202);
    assert!(g.events().contains(&Event::Income { player: X, claimed: 2, points: 2 }));
    let state = GoBeyondState::of(&g, &[]);
    assert_eq!(state.nodes[at(&g, "A3") as usize], NodeState::Claimed);
    assert_eq!(state.nodes[at(&g, "A1") as usize], NodeState::Disputed);
    assert_eq!(state.nodes[at(&g, "B3") as usize], NodeState::Occupied);
    // White's income comes at the start of White's turn.
    let mut g = g;
    g.play(Action::Skip).unwrap();
    assert_eq!(g.points(O), 201);
}

/// "No Self-Capture Rule": the Black group has one liberty left. Black may not fill it; White
/// may, because it captures the group.
#[test]
fn doc_no_self_capture_example() {
    let mut g = from_diagram(
        "
        OXXO.
        OX.O.
        .OO..
        .....",
        2,
        GoBeyondRules::default(),
    );
    let c3 = at(&g, "C3");
    assert_eq!(g.board().liberties(at(&g, "B4")), vec![c3]);
    let before = (g.points(X), g.events().len(), g.board().hash());
    assert_eq!(g.play(Action::Occupy(c3)), Err(Illegal::SelfCapture { node: c3 }));
    assert_eq!((g.points(X), g.events().len(), g.board().hash()), before, "refused: nothing changed");
    assert_eq!(g.to_move(), Some(X), "Black stays in phase 3");
    g.play(Action::Skip).unwrap();
    let white = g.points(O);
    occupy(&mut g, "C3");
    assert_eq!(g.board().stone_count(X), 0, "White captures the whole group");
    assert_eq!(g.points(O), white - 10 + 30);
}

/// "Reserved Node Rule", the ping-pong example: Black captures a lone White stone with a stone
/// that is a group of one whose only liberty is the emptied node, claimed by Black: the node is
/// Reserved. White cannot retake at once; after White plays elsewhere (and Black does not fill
/// the node), White can capture, and then White's capture makes a Reserved node.
#[test]
fn doc_reserved_node_ping_pong() {
    let mut g = from_diagram(
        "
        .XO.
        XO.O
        .XO.
        ....",
        2,
        GoBeyondRules::default(),
    );
    let (key, black_point) = (at(&g, "B3"), at(&g, "C3"));
    let e = g.events().len();
    occupy(&mut g, "C3");
    assert!(since(&g, e).contains(&Event::Captured { player: X, victim: O, nodes: vec![key], award: 10 }));
    assert!(since(&g, e).contains(&Event::Reserved { player: X, node: key }));
    assert_eq!(g.reserved_by(key), Some(X));
    assert_eq!(GoBeyondState::of(&g, &[]).nodes[key as usize], NodeState::Reserved);

    // White cannot immediately retake.
    assert_eq!(g.play(Action::Occupy(key)), Err(Illegal::Reserved { node: key, by: X }));
    occupy(&mut g, "D1"); // White plays elsewhere
    // Black's turn begins: the reservation is dropped, the node stays claimed by Black.
    assert_eq!(g.reserved_by(key), None);
    assert!(g.events().contains(&Event::ReservationReleased { player: X, node: key }));
    assert_eq!(g.claimant(key), Some(X));
    occupy(&mut g, "A1"); // Black chooses not to fill the key node
    let e = g.events().len();
    occupy(&mut g, "B3"); // White recaptures
    assert!(since(&g, e).contains(&Event::Captured {
        player: O,
        victim: X,
        nodes: vec![black_point],
        award: 10
    }));
    assert!(since(&g, e).contains(&Event::Reserved { player: O, node: black_point }));
    assert_eq!(g.play(Action::Occupy(black_point)), Err(Illegal::Reserved { node: black_point, by: O }));
}

/// The same shape, but Black fills the key node once the reservation is over: allowed.
#[test]
fn reserved_node_can_be_filled_by_its_owner_next_turn() {
    let mut g = from_diagram(
        "
        .XO.
        XO.O
        .XO.
        ....",
        2,
        GoBeyondRules::default(),
    );
    occupy(&mut g, "C3");
    occupy(&mut g, "D1");
    occupy(&mut g, "B3"); // Black connects: the node is released at the start of Black's turn
    assert_eq!(g.board().stone_at(at(&g, "B3")), Some(X));
}

/// No reservation when the emptied node is not claimed by the mover: here a Red stone also
/// borders it, so the lone capture can be answered at once.
#[test]
fn no_reservation_unless_the_emptied_node_is_claimed_by_the_mover() {
    let mut g = from_diagram(
        "
        .AB.
        CB.B
        .AB.
        ....",
        3,
        GoBeyondRules::default(),
    );
    let key = at(&g, "B3");
    let e = g.events().len();
    occupy(&mut g, "C3"); // A captures B's lone stone; the emptied node touches C's stone
    assert!(since(&g, e).iter().any(|ev| matches!(ev, Event::Captured { .. })));
    assert!(!since(&g, e).iter().any(|ev| matches!(ev, Event::Reserved { .. })));
    assert_eq!(g.reserved_by(key), None);
    occupy(&mut g, "B3"); // B recaptures immediately
    assert_eq!(g.board().stone_at(at(&g, "C3")), None);
}

/// No reservation when the capturing stone has another liberty (not a group of one with one
/// liberty), nor when it captures two stones.
#[test]
fn no_reservation_without_all_three_conditions() {
    // Capturing stone with two liberties.
    let mut g = from_diagram(
        "
        .XO.
        XO..
        .XO.
        ....",
        2,
        GoBeyondRules::default(),
    );
    occupy(&mut g, "C3");
    assert_eq!(g.reserved_by(at(&g, "B3")), None);
    // Two stones captured.
    let mut g = from_diagram(
        "
        .XXO.
        XOO.O
        .XXO.
        .....",
        2,
        GoBeyondRules::default(),
    );
    occupy(&mut g, "D3");
    assert_eq!(g.board().stone_count(O), 3);
    assert!(g.reservation(X).is_none());
}
