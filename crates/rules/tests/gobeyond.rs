//! GoBeyond rules (`docs/rules/gobeyond.md`), one situation each: the worked examples first (its
//! section "Worked examples"), then the turn phases, end conditions, Clean-Up and ranking.
//! Positions come from diagrams (`X` seat 0, `O` seat 1, `A`..`H` seats 0..7 in many-player
//! diagrams, `.` empty; the top line is the top row, so with GTP labels the bottom line is row 1).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

mod diagram;

use std::sync::Arc;

use gobeyond_maps::{NodeId, generate};
use gobeyond_rules::{
    EndReason, Game, Player,
    gobeyond::{Action, Event, GoBeyondGame, GoBeyondRules, GoBeyondState, Illegal, NodeState, Phase},
};

const X: Player = Player(0);
const O: Player = Player(1);
const A: Player = Player(0);
const B: Player = Player(1);
const C: Player = Player(2);

fn from_diagram(diagram: &str, players: usize, rules: GoBeyondRules) -> GoBeyondGame {
    let (map, setup) = diagram::parse(diagram);
    GoBeyondGame::with_setup(map, players, rules, &setup).unwrap()
}

fn at(game: &GoBeyondGame, label: &str) -> NodeId {
    game.map().node_by_label(label).unwrap()
}

fn occupy(game: &mut GoBeyondGame, label: &str) {
    let node = at(game, label);
    game.play(Action::Occupy(node)).unwrap_or_else(|e| panic!("{label}: {e}"));
}

/// The events since index `from`.
fn since(game: &GoBeyondGame, from: usize) -> &[Event] {
    &game.events()[from..]
}

// ---------------------------------------------------------------------------------------------
// The worked examples (`docs/rules/gobeyond.md`, "Worked examples").

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

// ---------------------------------------------------------------------------------------------
// Phases, captures, reservations with three players.

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

// ---------------------------------------------------------------------------------------------
// The end of the game.

fn empty_game(spec: &str, players: usize) -> GoBeyondGame {
    GoBeyondGame::new(Arc::new(generate(spec).unwrap()), players, GoBeyondRules::default()).unwrap()
}

/// N + 1 passes in a row start Clean-Up; N do not; a Skip (or a timeout) breaks the chain.
#[test]
fn n_plus_one_passes_end_play() {
    let mut g = empty_game("square:5", 3);
    for _ in 0..3 {
        g.play(Action::Pass).unwrap();
    }
    assert_eq!(g.phase(), Phase::Playing, "three passes of three players are not enough");
    g.play(Action::Timeout).unwrap();
    for _ in 0..3 {
        g.play(Action::Pass).unwrap();
    }
    assert_eq!(g.phase(), Phase::Playing, "the timeout (a Skip) broke the chain");
    g.play(Action::Pass).unwrap();
    assert_eq!(g.phase(), Phase::CleanUp);
    assert_eq!(g.to_move(), None);
    assert_eq!(g.play(Action::Pass), Err(Illegal::InCleanUp));
}

/// Resigned players pass automatically (their turns count as passes, resigning included).
#[test]
fn resigned_players_pass_automatically() {
    let mut g = empty_game("square:5", 3);
    g.play(Action::Pass).unwrap(); // A: 1
    g.play(Action::Resign).unwrap(); // B resigns: 2
    g.play(Action::Pass).unwrap(); // C: 3
    assert_eq!(g.phase(), Phase::Playing);
    g.play(Action::Pass).unwrap(); // A: 4, then B passes automatically: 5 ≥ 4
    assert_eq!(g.phase(), Phase::CleanUp);
    assert_eq!(g.awaiting_cleanup(), vec![A, C], "a resigned player without stones has nothing to choose");
    assert_eq!(g.surrender(B, &[]), Err(Illegal::AlreadySubmitted { player: B }));
}

/// When every other player has resigned, the last one wins at once; the first to resign is last.
#[test]
fn last_player_standing_wins_and_resignation_order_ranks_the_rest() {
    let mut g = empty_game("hex:3", 4);
    occupy(&mut g, "C3");
    g.play_as(C, Action::Resign).unwrap(); // out of turn
    assert!(g.events().contains(&Event::Resigned { player: C, place: 4, absent: false }));
    assert_eq!(g.play_as(C, Action::Skip), Err(Illegal::Resigned { player: C }));
    g.play(Action::Resign).unwrap(); // B, in turn
    assert!(g.events().contains(&Event::Resigned { player: B, place: 3, absent: false }));
    assert_eq!(g.to_move(), Some(Player(3)), "C is skipped: resigned players pass automatically");
    g.play(Action::Resign).unwrap(); // D
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, EndReason::Resignation);
    assert_eq!(o.ranking, vec![A, Player(3), B, C]);
    assert_eq!(g.phase(), Phase::Finished);
    // No Clean-Up, but the last player standing gets the final bonus for what they claim (the
    // whole board but C3's stone... which belongs to A).
    let bonus: Vec<&Event> = g.events().iter().filter(|e| matches!(e, Event::FinalBonus { .. })).collect();
    let claimed = g.claimed_count(A);
    assert_eq!(bonus, vec![&Event::FinalBonus { player: A, claimed, points: claimed as i64 * 10 }]);
    assert!(claimed > 0);
}

/// A tie in PlayPoints goes to the later turn position (the tie-break komi); scores stay whole
/// PlayPoints and the outcome says the tie was broken.
#[test]
fn ties_go_to_the_later_turn_position() {
    let mut g = empty_game("square:5", 3);
    for _ in 0..4 {
        g.play(Action::Pass).unwrap();
    }
    for p in [A, B, C] {
        g.surrender(p, &[]).unwrap();
    }
    let o = g.outcome().unwrap();
    assert_eq!(o.ranking, vec![C, B, A]);
    assert_eq!(o.scores, vec![200.0, 200.0, 200.0], "whole PlayPoints");
    assert_eq!(o.places, vec![3, 2, 1], "no shared place");
    assert!(o.tie_broken);
}

/// Clean-Up: surrendered stones go, each paying its award to whoever claims its node afterwards
/// (nobody for a disputed node); claims are recomputed and pay the final bonus.
#[test]
fn cleanup_awards_and_final_bonus() {
    let mut g = from_diagram(
        "
        ..X.O..
        ..X.O..
        .OX.O..
        ..X.OX.
        ..X.O..",
        2,
        GoBeyondRules::default(),
    );
    // Black's B3 stone sits in Black's area, White's F2 in White's area; the column D between
    // the walls is disputed.
    for _ in 0..3 {
        g.play(Action::Pass).unwrap();
    }
    assert_eq!(g.phase(), Phase::CleanUp);
    let before = (g.points(X), g.points(O));
    // Surrendering someone else's stone, a duplicate or an empty node is refused.
    assert_eq!(g.surrender(X, &[at(&g, "B3")]), Err(Illegal::NotYourStone { node: at(&g, "B3"), player: X }));
    assert_eq!(g.surrender(O, &[at(&g, "B3"), at(&g, "B3")]), Err(Illegal::Duplicate { node: at(&g, "B3") }));
    assert_eq!(g.suggest_surrender(O), Vec::<NodeId>::new(), "B3 has liberties: nothing in atari");
    g.surrender(O, &[at(&g, "B3")]).unwrap();
    assert_eq!(g.surrender(O, &[]), Err(Illegal::AlreadySubmitted { player: O }));
    g.surrender(X, &[at(&g, "F2")]).unwrap();
    assert_eq!(g.phase(), Phase::Finished);
    // After removal Black claims columns A-B (10 nodes), White claims F-G (10 nodes).
    assert_eq!((g.claimed_count(X), g.claimed_count(O)), (10, 10));
    assert!(g.events().contains(&Event::StonesRemoved {
        owner: O,
        nodes: vec![at(&g, "B3")],
        claimant: Some(X),
        award: 10
    }));
    assert!(g.events().contains(&Event::FinalBonus { player: X, claimed: 10, points: 100 }));
    assert_eq!(g.points(X), before.0 + 10 + 100);
    assert_eq!(g.points(O), before.1 + 10 + 100);
    assert_eq!(g.outcome().unwrap().reason, EndReason::Passes);
}

/// A surrendered stone whose node ends up disputed pays nobody; Clean-Up time running out
/// surrenders nothing.
#[test]
fn disputed_surrender_pays_nobody_and_cleanup_timeout_surrenders_nothing() {
    let mut g = from_diagram(
        "
        .....
        ..X..
        .O.O.",
        2,
        GoBeyondRules::default(),
    );
    for _ in 0..3 {
        g.play(Action::Pass).unwrap();
    }
    let points = g.points(X);
    g.surrender(X, &[at(&g, "C2")]).unwrap();
    g.cleanup_time_out(O).unwrap();
    assert!(g.events().contains(&Event::Surrendered { player: O, nodes: vec![], timeout: true }));
    assert!(g.events().contains(&Event::StonesRemoved {
        owner: X,
        nodes: vec![at(&g, "C2")],
        claimant: Some(O),
        award: 10
    }));
    // With C2 gone every empty node borders only White: White claims them all.
    assert_eq!(g.claimed_count(O), 13);
    assert_eq!(g.points(X), points);
    // And a disputed one: both colours stay on the board around the removed stone.
    let mut g = from_diagram(
        "
        X.O
        .X.
        O.X",
        2,
        GoBeyondRules::default(),
    );
    for _ in 0..3 {
        g.play(Action::Pass).unwrap();
    }
    g.surrender(X, &[at(&g, "B2")]).unwrap();
    g.surrender(O, &[]).unwrap();
    assert!(g.events().contains(&Event::StonesRemoved {
        owner: X,
        nodes: vec![at(&g, "B2")],
        claimant: None,
        award: 0
    }));
}

/// Resigned players' stones stay on the board: they can be captured, and they keep regions
/// disputed; resigned players earn nothing more.
#[test]
fn resigned_players_stones_stay_and_can_be_captured() {
    let mut g = from_diagram(
        "
        .A...
        ABA..
        .....",
        3,
        GoBeyondRules::default(),
    );
    g.play(Action::Skip).unwrap(); // A
    g.play(Action::Resign).unwrap(); // B
    let b_points = g.points(B);
    g.play(Action::Skip).unwrap(); // C
    occupy(&mut g, "B1"); // A captures B's stone
    assert_eq!(g.board().stone_count(B), 0);
    assert_eq!(g.points(B), b_points);
}

/// The engine's Clean-Up suggestion lists groups in atari.
#[test]
fn suggestion_lists_groups_in_atari() {
    let mut g = from_diagram(
        "
        .XO..
        XOO..
        .X...",
        2,
        GoBeyondRules::default(),
    );
    for _ in 0..3 {
        g.play(Action::Pass).unwrap();
    }
    assert!(g.suggest_surrender(O).is_empty(), "B2 C2 C3 has liberties D2, D3, C1");
    let mut g = from_diagram(
        "
        ..OX.
        XOOX.
        .XXX.",
        2,
        GoBeyondRules::default(),
    );
    for _ in 0..3 {
        g.play(Action::Pass).unwrap();
    }
    let mut s = g.suggest_surrender(O);
    s.sort_unstable();
    let mut want = vec![at(&g, "C3"), at(&g, "B2"), at(&g, "C2")];
    want.sort_unstable();
    assert_eq!(s, want);
}

/// Issue 16's exploit: Black surrendering its own lone stone A3 inside Black's area once earned
/// +10 award and +10 bonus for the freed node. Stones in one's own territory are not doomed:
/// the surrender is refused with a reason, and nothing changes.
#[test]
fn surrendering_a_stone_in_ones_own_territory_is_refused() {
    let mut g = from_diagram(
        "
        ..XO.
        ..XO.
        X.XO.
        ..XO.
        ..XO.",
        2,
        GoBeyondRules::default(),
    );
    for _ in 0..3 {
        g.play(Action::Pass).unwrap();
    }
    assert_eq!(g.phase(), Phase::CleanUp);
    let (events, points) = (g.events().len(), g.points(X));
    let a3 = at(&g, "A3");
    assert_eq!(g.surrender(X, &[a3]), Err(Illegal::OwnTerritory { node: a3, player: X }));
    assert_eq!((g.events().len(), g.points(X)), (events, points), "a refusal changes nothing");
    g.surrender(X, &[]).unwrap();
    g.surrender(O, &[]).unwrap();
    // A3 stays; Black is paid its territory around it, no more.
    assert_eq!(g.board().stone_at(a3), Some(X));
    assert_eq!(g.points(X), points + 10 * i64::from(g.claimed_count(X)));
}

/// A player whose turn runs out `timeouts_to_resign` times in a row is resigned, passes from
/// then on, and the game ends; a move in between starts the count again.
#[test]
fn absent_players_are_resigned_and_the_game_ends() {
    let mut g = empty_game("square:5", 3);
    let rules = g.rules().clone();
    assert_eq!(rules.timeouts_to_resign, 3);
    // B times out twice, plays, times out twice: still in.
    for round in 0..2 {
        g.play(Action::Pass).unwrap(); // A
        g.play(Action::Timeout).unwrap(); // B
        g.play(Action::Skip).unwrap(); // C
        let _ = round;
    }
    g.play(Action::Pass).unwrap();
    occupy(&mut g, "C3"); // B plays: the count starts again
    g.play(Action::Skip).unwrap();
    for _ in 0..2 {
        g.play(Action::Skip).unwrap();
        g.play(Action::Timeout).unwrap();
        g.play(Action::Skip).unwrap();
    }
    assert!(!g.is_resigned(B));
    g.play(Action::Skip).unwrap();
    g.play(Action::Timeout).unwrap(); // the third in a row
    assert!(g.is_resigned(B));
    assert!(g.events().contains(&Event::Resigned { player: B, place: 3, absent: true }));
    // A and C pass: with B passing for itself, play ends; B's stone is decided for it.
    g.play(Action::Pass).unwrap();
    g.play(Action::Pass).unwrap();
    assert_eq!(g.phase(), Phase::CleanUp);
    assert_eq!(g.decided_for(), vec![B], "B still has a stone on the board");
    g.surrender(B, &[at(&g, "C3")]).unwrap();
    g.surrender(A, &[]).unwrap();
    g.surrender(C, &[]).unwrap();
    assert_eq!(g.phase(), Phase::Finished);
    assert_eq!(g.board().stone_at(at(&g, "C3")), None, "the resigned player's stone was removed");
}

/// The turn limit ends play like passes would: Clean-Up, the bonus, a normal ranking.
#[test]
fn the_turn_limit_ends_the_game_with_normal_scoring() {
    let rules = GoBeyondRules { turn_limit: 5, ..GoBeyondRules::default() };
    let map = Arc::new(generate("square:5").unwrap());
    let mut g = GoBeyondGame::new(map, 2, rules).unwrap();
    for _ in 0..5 {
        g.play(Action::Skip).unwrap();
    }
    assert_eq!(g.phase(), Phase::CleanUp);
    assert!(g.events().contains(&Event::TurnLimitReached { turns: 5 }));
    g.surrender(A, &[]).unwrap();
    g.surrender(B, &[]).unwrap();
    assert_eq!(g.outcome().unwrap().reason, EndReason::TurnLimit);
}

/// The projected score: PlayPoints plus the final bonus for what is claimed now.
#[test]
fn projected_scores_add_the_bonus_for_current_claims() {
    let mut g = from_diagram(
        "
        .X.
        X..
        ...",
        2,
        GoBeyondRules::default(),
    );
    assert_eq!(g.claimed_count(X), 7, "only Black's stones border the empty nodes");
    assert_eq!(g.projected(X), g.points(X) + 70);
    assert_eq!(g.projected(O), g.points(O));
    g.play(Action::Resign).unwrap();
    assert_eq!(g.projected(X), g.points(X), "a resigned player gets no bonus");
}

/// Records made before `timeouts_to_resign` and `turn_limit` existed replay as played: missing
/// settings read as "off".
#[test]
fn older_settings_without_the_new_limits_read_as_off() {
    let old: GoBeyondRules = serde_json::from_str(r#"{"starting_points": 200}"#).unwrap();
    assert_eq!((old.timeouts_to_resign, old.turn_limit), (0, 0));
    let new = GoBeyondRules::default();
    assert_eq!((new.timeouts_to_resign, new.turn_limit), (3, 1000));
}
