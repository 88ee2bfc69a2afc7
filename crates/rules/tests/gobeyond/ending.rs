//! The end of the game: passes, resignations, ties, Clean-Up, time-outs and limits.

use super::*;

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
