//! Tribal Go's cards (`docs/rules/spec/tribal.md`, rules 17–21, 34–48): draws on a pass and on a
//! pair, the hand limit, each card's effect, the reaction window with Reject and Reject and
//! Replace (a full undo), hidden hands, and refusals with their reasons.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use gobeyond_maps::{NodeId, generate};
use gobeyond_rules::{
    Game, Player, Rng, RuleSystem, Viewer,
    tribal::{
        Action, Card, Event, Illegal, Input, Move, Phase, RangeRule, Reaction, TribalGame, TribalRules,
    },
};

const B: Player = Player(0);
const W: Player = Player(1);
const R: Player = Player(2);

/// Cards without dice (a fixed range), so that turns need no roll; starts chosen.
fn game(spec: &str, players: usize, range: u32) -> TribalGame {
    let rules = TribalRules {
        range: RangeRule::Fixed,
        fixed_range: range,
        cards: true,
        stones_per_player: Some(100),
        ..TribalRules::default()
    };
    let mut g = TribalGame::new(Arc::new(generate(spec).unwrap()), players, rules, None).unwrap();
    while let Phase::ChooseStart { .. } = g.phase() {
        let seat = g.acting()[0];
        act(&mut g, seat, Action::Timeout);
    }
    g
}

fn at(g: &TribalGame, label: &str) -> NodeId {
    g.map().node_by_label(label).unwrap()
}

fn act(g: &mut TribalGame, seat: Player, a: Action) {
    g.apply(seat, &Input::Action(a)).unwrap_or_else(|e| panic!("{seat:?} {a:?} in {:?}: {e}", g.phase()));
}

fn put(g: &mut TribalGame, seat: Player, label: &str) {
    let v = at(g, label);
    act(g, seat, Action::Place(v));
}

fn try_put(g: &mut TribalGame, seat: Player, label: &str) -> Result<(), Illegal> {
    let v = at(g, label);
    try_act(g, seat, Action::Place(v))
}

fn try_act(g: &mut TribalGame, seat: Player, a: Action) -> Result<(), Illegal> {
    g.apply(seat, &Input::Action(a))
}

/// Every player still asked lets the move stand.
fn decline_all(g: &mut TribalGame) {
    while let Phase::Reaction { .. } = g.phase() {
        let seat = g.acting()[0];
        act(g, seat, Action::React(Reaction::Decline));
    }
}

/// `seat` (to move) places at `label`; nobody rejects.
fn play(g: &mut TribalGame, seat: Player, label: &str) {
    assert_eq!(g.to_move(), Some(seat), "{:?}", g.phase());
    let v = at(g, label);
    act(g, seat, Action::Place(v));
    decline_all(g);
}

/// `seat` places its first legal stone; nobody rejects.
fn any_move(g: &mut TribalGame, seat: Player) {
    assert_eq!(g.to_move(), Some(seat), "{:?}", g.phase());
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    let a = legal.into_iter().find(|a| matches!(a, Action::Place(_))).unwrap();
    act(g, seat, a);
    decline_all(g);
}

/// `seat` passes and the server draws `card` for it.
fn pass_and_draw(g: &mut TribalGame, seat: Player, card: Card) {
    act(g, seat, Action::Pass);
    assert_eq!(g.chance_seat(), Some(seat), "a pass draws a card");
    assert_eq!(g.to_move(), None, "the draw is the server's");
    act(g, seat, Action::Drawn(card));
}

fn discards(g: &TribalGame, card: Card) -> u8 {
    g.deck().discards()[card.index()]
}

#[test]
fn a_pass_draws_and_a_fourth_card_goes_back_under_the_pile() {
    let mut g = game("square:9", 3, 20);
    assert_eq!(
        try_act(&mut g, B, Action::Drawn(Card::Reject)),
        Err(Illegal::NotNow("a card draw", "no draw is pending"))
    );
    for card in [Card::Points3, Card::NoMove, Card::ExtraMove] {
        pass_and_draw(&mut g, B, card);
        any_move(&mut g, W);
        any_move(&mut g, R);
    }
    assert_eq!(g.hand(B), &[Card::Points3, Card::NoMove, Card::ExtraMove]);
    act(&mut g, B, Action::Pass);
    // A card that is not (or no longer) in the pile cannot be drawn.
    assert_eq!(try_act(&mut g, B, Action::Drawn(Card::Points5)), Ok(()));
    assert_eq!(*g.phase(), Phase::Return { player: B }, "four cards after a pass: one goes back");
    assert_eq!(try_act(&mut g, B, Action::Return(Card::Reject)), Err(Illegal::NotInHand(Card::Reject)));
    act(&mut g, B, Action::Return(Card::NoMove));
    assert_eq!(g.hand(B).len(), 3);
    assert_eq!(g.deck().under().iter().copied().collect::<Vec<_>>(), vec![Card::NoMove]);
    assert_eq!(g.to_move(), Some(W));
    assert_eq!(g.deck().to_draw(), 50 - 4 + 1);
    // The one 5 Game Points card is in B's hand: it cannot be drawn again.
    act(&mut g, W, Action::Pass);
    assert_eq!(try_act(&mut g, W, Action::Drawn(Card::Points5)), Err(Illegal::NotInDeck(Card::Points5)));
}

#[test]
fn a_pair_of_dice_draws_a_card_playable_at_once_and_the_hand_limit_discards() {
    let rules = TribalRules { stones_per_player: Some(100), ..TribalRules::default() };
    let mut g = TribalGame::new(Arc::new(generate("square:9").unwrap()), 2, rules, None).unwrap();
    act(&mut g, B, Action::Dice(6, 6));
    act(&mut g, W, Action::Dice(1, 1));
    while let Phase::ChooseStart { .. } = g.phase() {
        let seat = g.acting()[0];
        act(&mut g, seat, Action::Timeout);
    }
    assert_eq!(g.to_move(), Some(B));
    act(&mut g, B, Action::Roll);
    act(&mut g, B, Action::Dice(1, 1));
    assert_eq!(g.chance_seat(), Some(B), "a pair draws a card");
    act(&mut g, B, Action::Drawn(Card::MoveAnywhere));
    assert_eq!(g.current_range(), Some(1));
    let far =
        g.map().nodes().find(|&v| !g.reachable(B, Some(1))[v as usize] && g.stone_at(v).is_none()).unwrap();
    assert_eq!(
        try_act(&mut g, B, Action::Place(far)),
        Err(Illegal::OutOfRange { node: far, range: 1 }),
        "a target out of range is refused"
    );
    // The card drawn in this round is played in it: Move Anywhere ignores the range.
    act(&mut g, B, Action::PlayCard(Card::MoveAnywhere));
    act(&mut g, B, Action::Place(far));
    assert_eq!(g.stone_at(far), Some(B));
    assert_eq!(g.acting(), vec![W], "the other player may reject");
    act(&mut g, W, Action::React(Reaction::Decline));
    assert_eq!(discards(&g, Card::MoveAnywhere), 1, "a played card is discarded");
}

#[test]
fn extra_move_places_two_stones_five_steps_apart_in_different_groups() {
    let mut g = game("square:13", 2, 30);
    pass_and_draw(&mut g, B, Card::ExtraMove);
    play(&mut g, W, "M13");
    // A chain D5–D8 of Black.
    for (b, w) in [("D5", "L13"), ("D6", "K13"), ("D7", "J13")] {
        play(&mut g, B, b);
        play(&mut g, W, w);
    }
    act(&mut g, B, Action::PlayCard(Card::ExtraMove));
    assert_eq!(g.hand(B), &[] as &[Card]);
    put(&mut g, B, "D4");
    assert_eq!(try_put(&mut g, B, "D8"), Err(Illegal::TooClose(at(&g, "D4"), at(&g, "D8"))), "4 steps apart");
    // D9 is 5 steps from D4, but D8... is empty: D9 alone is a separate group.
    play(&mut g, B, "D9");
    assert_eq!(g.stone_at(at(&g, "D9")), Some(B));
    assert_eq!(g.to_move(), Some(W));
}

#[test]
fn extra_move_refuses_a_second_stone_joining_the_first_stones_group() {
    let mut g = game("square:13", 2, 30);
    pass_and_draw(&mut g, B, Card::ExtraMove);
    play(&mut g, W, "M13");
    for (b, w) in [("E4", "L13"), ("F4", "K13"), ("G4", "J13"), ("H4", "H13")] {
        play(&mut g, B, b);
        play(&mut g, W, w);
    }
    act(&mut g, B, Action::PlayCard(Card::ExtraMove));
    put(&mut g, B, "D4");
    // J4 is 5 steps from D4, and it joins D4 through E4–H4.
    assert_eq!(try_put(&mut g, B, "J4"), Err(Illegal::SameGroup(at(&g, "J4"))));
    act(&mut g, B, Action::Forgo);
    assert_eq!(g.stone_at(at(&g, "J4")), None);
    assert!(matches!(g.phase(), Phase::Reaction { .. }), "a card play can still be rejected");
}

#[test]
fn pair_place_move_two_and_points() {
    let mut g = game("square:13", 2, 3);
    pass_and_draw(&mut g, B, Card::PairPlace);
    any_move(&mut g, W);
    pass_and_draw(&mut g, B, Card::MoveTwo);
    any_move(&mut g, W);
    pass_and_draw(&mut g, B, Card::Points3);
    any_move(&mut g, W);
    let start = g.start_point(B).unwrap();
    let label = |v: NodeId| g.map().label(v).to_string();
    let start_label = label(start);

    // Pair Place: two neighbours, one of them in range.
    act(&mut g, B, Action::PlayCard(Card::PairPlace));
    let a = g.map().neighbors(start)[0];
    let far = g.map().nodes().find(|&v| g.map().distances_from(a)[v as usize] == 2).unwrap();
    act(&mut g, B, Action::Place(a));
    assert_eq!(try_act(&mut g, B, Action::Place(far)), Err(Illegal::NotAdjacent(a, far)));
    let b = g.map().neighbors(a).iter().copied().find(|&v| v != start && g.stone_at(v).is_none()).unwrap();
    act(&mut g, B, Action::Place(b));
    assert_eq!((g.stone_at(a), g.stone_at(b)), (Some(B), Some(B)), "both stones at once");
    decline_all(&mut g);
    any_move(&mut g, W);

    // Move Two: only one's own stones, within range; a Forgo stops after one.
    act(&mut g, B, Action::PlayCard(Card::MoveTwo));
    let white = g.map().nodes().find(|&v| g.stone_at(v) == Some(W)).unwrap();
    let dest = g
        .map()
        .nodes()
        .find(|&v| g.stone_at(v).is_none() && g.map().distances_from(a)[v as usize] == 5)
        .unwrap();
    assert_eq!(try_act(&mut g, B, Action::Move(white, dest)), Err(Illegal::NotYourStone(white)));
    let near =
        g.map().nodes().find(|&v| g.stone_at(v).is_none() && g.map().distances_from(start)[v as usize] >= 7);
    if let Some(near) = near {
        assert!(matches!(try_act(&mut g, B, Action::Move(b, near)), Err(Illegal::OutOfRange { .. })));
    }
    let dest = g
        .map()
        .nodes()
        .find(|&v| {
            g.stone_at(v).is_none()
                && g.map().distances_from(a)[v as usize] == 3
                && g.reachable(B, Some(3))[v as usize]
        })
        .unwrap();
    act(&mut g, B, Action::Move(b, dest));
    assert_eq!((g.stone_at(b), g.stone_at(dest)), (None, Some(B)));
    assert!(g.events().contains(&Event::Moved { player: B, from: b, to: dest }));
    act(&mut g, B, Action::Forgo);
    decline_all(&mut g);
    any_move(&mut g, W);

    // 3 Game Points: banked for the end.
    act(&mut g, B, Action::PlayCard(Card::Points3));
    assert_eq!(g.banked(B), 3);
    decline_all(&mut g);
    assert_eq!(g.deck().banked()[Card::Points3.index()], 1);
    assert!(!start_label.is_empty());
}

#[test]
fn trade_prisoners_and_own_colour_goes_back_to_the_supply() {
    let mut g = game("square:9", 2, 20);
    pass_and_draw(&mut g, B, Card::Trade1For2);
    // A trade needs prisoners on both sides.
    play(&mut g, W, "A1");
    assert_eq!(
        try_act(&mut g, B, Action::PlayCard(Card::Trade1For2)),
        Err(Illegal::CardNotPlayable(Card::Trade1For2, "you hold too few prisoners"))
    );
    for (b, w) in [("J9", "B1"), ("J8", "H9"), ("A2", "H8")] {
        play(&mut g, B, b);
        play(&mut g, W, w);
    }
    // ... White's A1 is not captured (B1 is White): build the captures plainly.
    let _ = g.prisoners(B);
    play(&mut g, B, "C1");
    play(&mut g, W, "G9");
    play(&mut g, B, "B2");
    // B2 + C1 + A2 surround A1–B1: two White prisoners for Black.
    assert_eq!(g.prisoners(B)[W.index()], 2);
    play(&mut g, W, "J7");
    // J7 + H8 + H9 surround J8–J9: two Black prisoners for White.
    assert_eq!(g.prisoners(W)[B.index()], 2);
    let (b_supply, w_supply) = (g.supply(B).unwrap(), g.supply(W).unwrap());
    act(&mut g, B, Action::PlayCard(Card::Trade1For2));
    assert!(matches!(try_act(&mut g, B, Action::TradeWith(B)), Err(Illegal::Trade(_))));
    act(&mut g, B, Action::TradeWith(W));
    // Black gave a White prisoner (back to White's supply) and took two Black ones (back to
    // Black's supply): nobody holds their own colour.
    assert_eq!(g.prisoners(B), &[0, 1]);
    assert_eq!(g.prisoners(W), &[0, 0]);
    assert_eq!((g.supply(B).unwrap(), g.supply(W).unwrap()), (b_supply + 2, w_supply + 1));
}

#[test]
fn every_other_player_is_asked_and_a_reject_undoes_the_whole_move() {
    let mut g = game("square:9", 3, 20);
    pass_and_draw(&mut g, B, Card::Reject);
    play(&mut g, W, "A1");
    pass_and_draw(&mut g, R, Card::RejectAndReplace);
    play(&mut g, B, "B1");
    // White's move: both others are asked, in turn order after White, cards or not.
    put(&mut g, W, "E5");
    assert_eq!(g.acting(), vec![R, B]);
    assert_eq!(
        try_act(&mut g, W, Action::React(Reaction::Decline)),
        Err(Illegal::NotYourTurn(W)),
        "the mover is not asked"
    );
    assert_eq!(try_act(&mut g, R, Action::React(Reaction::Reject)), Err(Illegal::NotInHand(Card::Reject)));
    act(&mut g, R, Action::React(Reaction::Decline));
    assert_eq!(
        try_act(&mut g, R, Action::React(Reaction::Decline)),
        Err(Illegal::NotYourTurn(R)),
        "one answer each"
    );
    act(&mut g, B, Action::React(Reaction::Decline));
    assert!(g.events().contains(&Event::NotRejected { mover: W }));

    // Red captures A1 (B1 Black, A2 Red): rejected by Black; everything goes back.
    let before = (g.prisoners(R).to_vec(), g.supply(W), g.supply(R));
    put(&mut g, R, "A2");
    assert_eq!(g.stone_at(at(&g, "A1")), None, "captured");
    assert_eq!(g.prisoners(R)[W.index()], 1, "the killer takes the balance");
    act(&mut g, B, Action::React(Reaction::Reject));
    act(&mut g, W, Action::React(Reaction::Decline));
    assert!(g.events().contains(&Event::Rejected { player: B, mover: R, card: Card::Reject }));
    assert_eq!(g.stone_at(at(&g, "A1")), Some(W));
    assert_eq!(g.stone_at(at(&g, "A2")), None);
    assert_eq!((g.prisoners(R).to_vec(), g.supply(W), g.supply(R)), before);
    assert!(g.hand(B).is_empty(), "the Reject is spent");
    assert_eq!(discards(&g, Card::Reject), 1);
    assert_eq!(g.to_move(), Some(B), "Red's turn ended with no move");

    // The capture may be made again later.
    play(&mut g, B, "J9");
    play(&mut g, W, "J1");
    pass_and_draw(&mut g, R, Card::NoMove);
    play(&mut g, B, "H9");
    play(&mut g, W, "H1");
    put(&mut g, R, "A2");
    assert_eq!(g.stone_at(at(&g, "A1")), None, "the capture is not a repetition");
    act(&mut g, B, Action::React(Reaction::Decline));
    act(&mut g, W, Action::React(Reaction::Decline));
    assert_eq!(g.to_move(), Some(B));
}

/// What the answers to a move decide: the position, whose turn, prisoners, supplies and hands.
fn after_answers(g: &TribalGame) -> impl PartialEq + std::fmt::Debug {
    let stones: Vec<Option<Player>> = g.map().nodes().map(|v| g.stone_at(v)).collect();
    let seats = [B, W, R];
    (
        format!("{:?}", g.phase()),
        g.to_move(),
        stones,
        seats.map(|p| (g.prisoners(p).to_vec(), g.supply(p), g.hand(p).to_vec())),
    )
}

/// The playouts' shortcut: every seat still asked declines at once, as their answers one by one
/// would — the move stands, or an earlier Reject still undoes it — with the same events and
/// log, and the same outcome in a copy that records neither.
#[test]
fn declining_every_answer_at_once_is_each_seat_declining() {
    for reject_first in [false, true] {
        let mut g = game("square:9", 3, 20);
        pass_and_draw(&mut g, B, Card::Reject);
        play(&mut g, W, "A1");
        play(&mut g, R, "J9");
        play(&mut g, B, "B1");
        put(&mut g, W, "E5");
        if reject_first {
            act(&mut g, B, Action::React(Reaction::Reject));
        }
        let (mut one_by_one, mut at_once, mut silent) = (g.clone(), g.clone(), g.without_events());
        decline_all(&mut one_by_one);
        assert!(at_once.decline_all_answers());
        assert!(silent.decline_all_answers());
        assert_eq!(after_answers(&at_once), after_answers(&one_by_one), "reject first: {reject_first}");
        assert_eq!(after_answers(&silent), after_answers(&one_by_one), "reject first: {reject_first}");
        assert_eq!(at_once.events(), one_by_one.events());
        assert_eq!(at_once.log(), one_by_one.log());
        assert_eq!(one_by_one.stone_at(at(&g, "E5")), (!reject_first).then_some(W));
        assert!(!at_once.decline_all_answers(), "no move waits for answers now");
    }
}

#[test]
fn reject_and_replace_puts_the_rejecters_stone_where_the_move_was() {
    let mut g = game("square:9", 3, 20);
    pass_and_draw(&mut g, B, Card::RejectAndReplace);
    play(&mut g, W, "E5");
    play(&mut g, R, "A9");
    play(&mut g, B, "J1");
    put(&mut g, W, "E6");
    act(&mut g, R, Action::React(Reaction::Decline));
    act(&mut g, B, Action::React(Reaction::RejectAndReplace));
    assert_eq!(*g.phase(), Phase::Replace { player: B, mover: W, nodes: vec![at(&g, "E6")] });
    assert_eq!(
        try_put(&mut g, B, "E7"),
        Err(Illegal::NotNow("replacing there", "only where the rejected move placed a stone"))
    );
    put(&mut g, B, "E6");
    assert_eq!(g.stone_at(at(&g, "E6")), Some(B), "the rejecter's stone, out of range or not");
    assert_eq!(g.to_move(), Some(R), "White's turn is over; Red is next");
    assert_eq!(discards(&g, Card::RejectAndReplace), 1);
}

#[test]
fn a_rejected_points_card_is_spent_and_banks_nothing() {
    let mut g = game("square:9", 2, 20);
    pass_and_draw(&mut g, B, Card::Points5);
    play(&mut g, W, "E5");
    play(&mut g, B, "A1");
    pass_and_draw(&mut g, W, Card::Reject);
    act(&mut g, B, Action::PlayCard(Card::Points5));
    assert_eq!(g.banked(B), 5);
    act(&mut g, W, Action::React(Reaction::Reject));
    assert_eq!(g.banked(B), 0);
    assert_eq!(g.deck().banked()[Card::Points5.index()], 0);
    assert_eq!(discards(&g, Card::Points5), 1, "the rejected card is spent");
}

#[test]
fn hands_are_hidden_from_other_seats_and_draws_are_redacted() {
    let mut g = game("square:9", 3, 20);
    pass_and_draw(&mut g, B, Card::Reject);
    let own = g.view(Viewer::Seat(B), &[], false);
    assert_eq!(own.hand, Some(vec![Card::Reject]));
    let other = g.view(Viewer::Seat(W), &[], false);
    assert_eq!(other.hand, Some(vec![]));
    assert_eq!(other.players[0].cards, 1, "others see how many cards, not which");
    assert_eq!(g.view(Viewer::Spectator, &[], false).hand, None);
    let text = serde_json::to_string(&other).unwrap();
    assert!(!text.contains("reject"), "no card name leaks: {text}");
    let drawn = g.input(g.input_count() - 1).unwrap();
    assert_eq!(drawn, (B, Move::Draw { card: Some(Card::Reject) }));
    assert_eq!(RuleSystem::redact(&g, B, &drawn.1, Viewer::Seat(W)), Some(Move::Draw { card: None }));
    assert_eq!(RuleSystem::redact(&g, B, &drawn.1, Viewer::Seat(B)), None);
    // A window shows nobody who has answered.
    play(&mut g, W, "E5");
    put(&mut g, R, "A1");
    act(&mut g, B, Action::React(Reaction::Decline));
    assert_eq!(RuleSystem::public_seats(&g), vec![B, W]);
    assert_eq!(g.view(Viewer::Seat(B), &[], false).to_move, None);
    assert_eq!(g.view(Viewer::Seat(W), &[], false).to_move, None, "White holds no Reject: not prompted");
    assert_eq!(g.view(Viewer::Spectator, &[], false).to_move, None);
    let answer = g.input(g.input_count() - 1).unwrap();
    assert_eq!(RuleSystem::redact(&g, B, &answer.1, Viewer::Spectator), Some(Move::React { answer: None }));
    // A redacted input cannot be sent back.
    assert!(RuleSystem::submit(&mut g, W, &Move::React { answer: None }).is_err());
}

#[test]
fn a_determinization_keeps_the_viewers_hand_and_every_count() {
    let mut g = game("square:9", 3, 20);
    pass_and_draw(&mut g, B, Card::Reject);
    pass_and_draw(&mut g, W, Card::ExtraMove);
    play(&mut g, R, "E5");
    let mut rng = Rng::new(5);
    let mut seen_other = false;
    for _ in 0..40 {
        let d = g.determinize(B, &mut rng);
        assert_eq!(d.hand(B), &[Card::Reject]);
        assert_eq!(d.hand(W).len(), 1);
        seen_other |= d.hand(W) != [Card::ExtraMove];
        let total: u32 =
            (0..3).map(|p| d.hand(Player(p)).len() as u32).sum::<u32>() + d.deck().outside_hands();
        assert_eq!(total, 50);
    }
    assert!(seen_other, "White's hidden card is sampled");
}

#[test]
fn refusals_of_cards_name_the_reason() {
    let mut g = game("square:9", 2, 3);
    assert_eq!(
        try_act(&mut g, B, Action::PlayCard(Card::ExtraMove)),
        Err(Illegal::NotInHand(Card::ExtraMove))
    );
    pass_and_draw(&mut g, B, Card::NoMove);
    any_move(&mut g, W);
    any_move(&mut g, B);
    pass_and_draw(&mut g, W, Card::Reject);
    assert_eq!(
        try_act(&mut g, B, Action::PlayCard(Card::NoMove)),
        Err(Illegal::CardNotPlayable(Card::NoMove, "it does nothing"))
    );
    any_move(&mut g, B);
    assert_eq!(
        try_act(&mut g, W, Action::PlayCard(Card::Reject)),
        Err(Illegal::CardNotPlayable(Card::Reject, "it answers another player's move"))
    );
    assert!(
        matches!(
            try_act(&mut g, W, Action::React(Reaction::Reject)),
            Err(Illegal::NotNow("answering a move", _))
        ),
        "no window is open"
    );
    let m = Move::PlayCard { card: Card::Points5 };
    let r = RuleSystem::submit(&mut g, W, &m).unwrap_err();
    assert_eq!(r.code, "not_in_hand");
    assert_eq!(r.message, "5 Game Points is not in your hand");
}

/// Issue 41: every window has `reaction_seconds`, whatever was answered, until a Reject ends it
/// at once; only a holder is prompted; a decline is what the window's end gives anyway.
#[test]
fn a_window_runs_its_length_until_a_reject_and_prompts_only_holders() {
    use gobeyond_rules::{PlayerInfo, RuleSystem, Viewer, tribal::Answer};
    let mut g = game("square:9", 3, 20);
    pass_and_draw(&mut g, B, Card::Reject);
    play(&mut g, W, "A1");
    play(&mut g, R, "J9");
    play(&mut g, B, "B1");
    put(&mut g, W, "E5");
    assert_eq!(g.window_seconds(), Some(5.0));
    let names = vec![PlayerInfo { name: String::new() }; 3];
    let seen = |g: &TribalGame, p: Player| g.view(Viewer::Seat(p), &names, false).reaction.map(|r| r.asked);
    assert_eq!(seen(&g, B), Some(true), "Black holds a Reject: prompted");
    assert_eq!(seen(&g, R), Some(false), "Red holds none: nothing to click");
    assert!(g.left_to_the_window(&Move::React { answer: Some(Answer::Decline) }));
    assert!(!g.left_to_the_window(&Move::React { answer: Some(Answer::Reject) }));
    act(&mut g, R, Action::React(Reaction::Decline));
    assert_eq!(g.window_seconds(), Some(5.0), "an answer does not shorten the window");
    act(&mut g, B, Action::React(Reaction::Reject));
    assert!(g.window_seconds().is_none_or(|s| s == 0.0), "a Reject ends it at once");
}
