//! Phases, captures and reservations with three players, and the settings.

use super::*;

/// One move captures groups of two opponents at once: both are removed, each stone pays.
#[test]
fn one_move_captures_two_opponents() {
    let mut g = from_diagram(
        "
        ABB.CCA
        .AA.AA.
        .......",
        3,
        GoBeyondRules::default(),
    );
    let (e, points) = (g.events().len(), g.points(A));
    occupy(&mut g, "D3");
    assert_eq!(g.board().stone_count(B), 0);
    assert_eq!(g.board().stone_count(C), 0);
    assert_eq!(g.points(A), points - 10 + 40);
    let caps: Vec<&Event> = since(&g, e).iter().filter(|ev| matches!(ev, Event::Captured { .. })).collect();
    assert_eq!(
        caps,
        vec![
            &Event::Captured { player: A, victim: B, nodes: vec![at(&g, "B3"), at(&g, "C3")], award: 20 },
            &Event::Captured { player: A, victim: C, nodes: vec![at(&g, "E3"), at(&g, "F3")], award: 20 },
        ]
    );
}

/// A reservation lasts until the start of its owner's next turn: both other players are refused
/// in between; then it is released and anyone may play there.
#[test]
fn reservation_lifetime_with_three_players() {
    let mut g = from_diagram(
        "
        .AB..
        AB.B.
        .AB..
        .....
        .....",
        3,
        GoBeyondRules::default(),
    );
    let key = at(&g, "B4");
    occupy(&mut g, "C4"); // A captures B's lone stone and reserves B4
    assert_eq!(g.reservation(A), Some(key));
    assert_eq!(g.play(Action::Occupy(key)), Err(Illegal::Reserved { node: key, by: A }), "B refused");
    occupy(&mut g, "E1");
    assert_eq!(g.play(Action::Occupy(key)), Err(Illegal::Reserved { node: key, by: A }), "C refused");
    occupy(&mut g, "A1");
    // A's turn: phase 1 releases the reservation before anything else.
    assert_eq!(g.reservation(A), None);
    let released = g.events().iter().position(|e| *e == Event::ReservationReleased { player: A, node: key });
    let turn = g.events().iter().rposition(|e| matches!(e, Event::TurnStarted { player: A, .. }));
    assert_eq!(released, turn.map(|t| t + 1), "released right at the start of A's turn");
    g.play(Action::Skip).unwrap();
    occupy(&mut g, "B4"); // B recaptures and reserves C4 in turn
    assert_eq!(g.reservation(B), Some(at(&g, "C4")));
}

/// A player who cannot pay the Occupy cost is refused and may still Skip or Pass.
#[test]
fn occupy_needs_the_points() {
    let rules = GoBeyondRules { starting_points: 15, ..GoBeyondRules::default() };
    let map = Arc::new(generate("square:5").unwrap());
    let mut g = GoBeyondGame::new(map, 2, rules).unwrap();
    occupy(&mut g, "C3");
    g.play(Action::Skip).unwrap();
    // White has no stone yet, so Black claims all 24 empty nodes: income 24.
    assert_eq!(g.points(X), 15 - 10 + 24);
    g.play(Action::Skip).unwrap();
    occupy(&mut g, "D3"); // White, 15 PP
    occupy(&mut g, "B3"); // Black
    let n = at(&g, "A1");
    assert_eq!(g.play(Action::Occupy(n)), Err(Illegal::CannotPay { player: O, points: 5, cost: 10 }));
    g.play(Action::Pass).unwrap();
}

/// Handicap points go to the listed seats; every setting is honoured.
#[test]
fn settings_are_honoured() {
    let rules = GoBeyondRules {
        starting_points: 100,
        handicap: vec![0, 20],
        occupy_cost: 3,
        capture_award: 7,
        claim_income: 2,
        ..GoBeyondRules::default()
    };
    let mut g = from_diagram(
        "
        .O...
        OX...
        .O...",
        2,
        rules,
    );
    assert_eq!(g.points(O), 120);
    g.play(Action::Skip).unwrap(); // Black
    let white = g.points(O);
    assert_eq!(white, 120 + 2 * g.claimed_count(O) as i64, "income 2 per node");
    occupy(&mut g, "C2"); // captures B2
    assert_eq!(g.points(O), white - 3 + 7);
    let bad = GoBeyondRules { occupy_cost: -1, ..GoBeyondRules::default() };
    let err = GoBeyondGame::new(Arc::new(generate("square:5").unwrap()), 2, bad).unwrap_err();
    assert!(err.to_string().contains("occupy_cost must not be negative"), "{err}");
    let bad = GoBeyondRules { handicap: vec![0, 0, 20], ..GoBeyondRules::default() };
    assert!(GoBeyondGame::new(Arc::new(generate("square:5").unwrap()), 2, bad).is_err());
}
