//! Tribal Go for the search and for computer seats: dice sampled as the server rolls them,
//! random playouts that place within the rolled range ([`playout`]), priors that see what
//! territory counting makes of a stone ([`priors`]), and a seat that answers reaction windows,
//! offers and discards at once, plays on when behind, accepts surrenders and names no dead
//! stones (the playouts' counting already removes groups without liberties; [`decisions`]).

mod decisions;
mod playout;
mod priors;

use std::sync::Arc;

use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Game, MAX_PLAYERS, Player, Rng, RuleSystem, TribalGame,
    playout::PlayoutTables,
    tribal::{Action, Card, Input, Move, Phase, Reaction},
};

use self::{
    decisions::{play_on_when_behind, quick_answer},
    playout::{play_to_end, random_action},
    priors::{gain, material, placement_prior},
};
use crate::{
    computer::Computer,
    search::{
        level::{Bot, Strategy},
        mcts::{Analysis, SearchConfig},
        searchable::{Prior, Rewards, Searchable},
    },
};

/// Share of a reward that is winning alone, the rest being the place. With place rewards
/// only, a search valued second place half a win and a three-way tie (every score 0 after
/// three early passes: the rules end the game there) as much as playing on, and against
/// greedy players, who pass half the time, it drew two games in three.
const WIN_WEIGHT: f32 = 0.6;

/// Rewards from the places: first 1, last 0; players sharing a place share the positions
/// they span (three tied for first all get ½, not a win each). A sole first place adds
/// [`WIN_WEIGHT`]; a shared one adds nothing, so a draw is worth less than its share of a win.
fn place_rewards(game: &TribalGame) -> Rewards {
    let mut r = [0.0; MAX_PLAYERS];
    let Some(o) = game.outcome() else { return r };
    let n = o.places.len();
    if n < 2 {
        return r;
    }
    for (i, &place) in o.places.iter().enumerate() {
        let tied = o.places.iter().filter(|&&q| q == place).count();
        let position = place as f32 + (tied as f32 - 1.0) / 2.0;
        let by_place = 1.0 - (position - 1.0) / (n as f32 - 1.0);
        let win = if place == 1 && tied == 1 { 1.0 } else { 0.0 };
        r[i] = WIN_WEIGHT * win + (1.0 - WIN_WEIGHT) * by_place;
    }
    r
}

impl Searchable for TribalGame {
    /// The final owner of each node after a playout: Tribal's playouts need nothing else.
    type Scratch = Vec<u8>;

    fn scratch(&self, _: &Arc<PlayoutTables>, _: &SearchConfig) -> Vec<u8> {
        vec![0; self.map().len()]
    }

    fn owners(scratch: &Vec<u8>) -> &[u8] {
        scratch
    }

    /// Playouts finish the game: its own count.
    fn final_scores(&self, _: &Vec<u8>, out: &mut [f32; MAX_PLAYERS]) -> bool {
        crate::search::searchable::outcome_scores(self, out)
    }

    fn amaf_key(action: Action) -> Option<NodeId> {
        match action {
            Action::Place(n) => Some(n),
            _ => None,
        }
    }

    fn search_copy(&self) -> Self {
        self.without_events()
    }

    fn has_hidden_information(&self) -> bool {
        self.rules().cards
    }

    fn determinize(&self, viewer: Player, rng: &mut Rng) -> Self {
        TribalGame::determinize(self, viewer, rng)
    }

    fn sample_chance(&mut self, rng: &mut Rng) -> bool {
        if self.chance_seat().is_none() {
            return false;
        }
        if let Some(card) = self.random_draw(rng) {
            return self.play(Action::Drawn(card)).is_ok();
        }
        let (a, b) = (1 + rng.below(6) as u8, 1 + rng.below(6) as u8);
        self.play(Action::Dice(a, b)).is_ok()
    }

    fn final_rewards(&self) -> Rewards {
        place_rewards(self)
    }
    fn playout(&mut self, owner: &mut Vec<u8>, rng: &mut Rng, played: &mut Vec<(Player, NodeId)>) -> Rewards {
        play_to_end(self, owner, rng, played);
        self.final_rewards()
    }

    fn prior(&self, action: Action, _: &mut Vec<u8>) -> Prior {
        match action {
            Action::Place(node) => match gain(self, node) {
                // What the count gains at once (territory closed, prisoners taken): the greedy
                // player's whole knowledge, which playouts that fill the board blur.
                Some(g) if g > 0.0 => {
                    let g = g.min(10.0) as f32;
                    Prior { visits: 20.0 + 2.0 * g, value: 0.6 + 0.03 * g }
                }
                _ => placement_prior(self, node),
            },
            // Passing early throws the game away; later it is how a game ends.
            Action::Pass if self.passes() == 0 => Prior { visits: 20.0, value: 0.3 },
            Action::Forgo | Action::Timeout => Prior { visits: 20.0, value: 0.2 },
            Action::Surrender(_) => Prior { visits: 30.0, value: 0.1 },
            // Points are points; the other cards are worth trying.
            Action::PlayCard(c) if c.points().is_some() => Prior { visits: 20.0, value: 0.7 },
            Action::PlayCard(Card::ExtraMove | Card::MoveAnywhere | Card::PairPlace) => {
                Prior { visits: 10.0, value: 0.6 }
            }
            _ => Prior { visits: 10.0, value: 0.5 },
        }
    }

    fn action_count(&self) -> usize {
        self.log().len()
    }

    fn action_at(&self, i: usize) -> Option<Action> {
        match self.log().get(i) {
            Some((_, Input::Action(a))) => Some(*a),
            _ => None,
        }
    }
}

/// Whether `bot` plays at a level (the baselines `random` and `greedy` do not): every level
/// answers the decisions that need no search the same way, as a server seat does.
fn at_a_level(bot: &Bot<TribalGame>) -> bool {
    matches!(bot.strategy, Strategy::Search(_) | Strategy::Plain(_))
}

/// The action `bot` chooses for `seat`, and the search's analysis when it searched: at a level,
/// the decisions that need no search first ([`quick_answer`]) and the search's choice second-
/// guessed ([`play_on_when_behind`]); level 1 and the baselines as they play anywhere.
fn decide_action(
    game: &TribalGame,
    seat: Player,
    bot: &mut Bot<TribalGame>,
) -> (Option<Action>, Option<Analysis<Action>>) {
    if let Some(answer) = at_a_level(bot).then(|| quick_answer(game, seat)).flatten() {
        return (Some(answer), None);
    }
    // Random play stays within the rules and out of the seat's own eyes.
    let (action, analysis) =
        bot.choose_with(game, |g, _, rng| Some(random_action(&mut g.without_events(), seat, rng)));
    match analysis {
        Some(a) => (action.map(|action| play_on_when_behind(game, seat, action)), Some(a)),
        None => (action, None),
    }
}

impl Computer for TribalGame {
    /// Wider than the default: the dice (and cards) make a position's value an expectation
    /// over many draws, which a review's budget estimates less exactly (`docs/analysis.md`).
    fn review_thresholds(&self) -> [f32; 3] {
        crate::review::default_thresholds(self.player_count()).map(|t| t * 1.5)
    }

    fn decide(&self, seat: Player, bot: &mut Bot<Self>) -> Option<Move> {
        match self.phase() {
            Phase::CleanUp => return Some(Move::dead(self.map(), &[])),
            Phase::Offer { to, .. } if *to == seat && at_a_level(bot) => return Some(Move::Accept),
            _ => {}
        }
        Some(match decide_action(self, seat, bot).0? {
            Action::Timeout => self.fallback_move(seat),
            a => self.to_wire(a),
        })
    }

    /// Passing, and where no pass is possible the other ways of doing nothing (after a roll, a
    /// handicap stone, an offer).
    fn is_pass(&self, action: Action) -> bool {
        matches!(action, Action::Pass | Action::Forgo | Action::Decline | Action::React(Reaction::Decline))
    }

    /// Territory (of the player's team) plus prisoners held.
    fn greedy_value(&self, player: Player) -> f64 {
        material(self, player)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use gobeyond_rules::tribal::{RangeRule, TribalRules};

    use super::{
        decisions::{play_on_when_behind, wins_if_everyone_passes},
        *,
    };
    use crate::search::level::Level;

    #[test]
    fn a_computer_seat_acts_in_every_phase() {
        play_out("square:7", 3, 1);
    }

    #[test]
    fn a_searching_seat_acts_in_every_phase() {
        play_out("square:5", 2, 2);
    }

    /// Reaction windows and discards are answered without a search, as a server seat answers
    /// them; the other decisions are searched.
    #[test]
    fn reactions_are_answered_at_once_as_a_server_seat_would() {
        let map = Arc::new(gobeyond_maps::generate("square:7").unwrap());
        let mut g = TribalGame::new(map, 3, TribalRules::default(), None).unwrap();
        let mut rng = Rng::new(5);
        let config = SearchConfig { playouts: 30, ..Default::default() };
        let mut bot: Bot<TribalGame> = Bot::with_config(config);
        let (mut quick, mut searched) = (0, 0);
        for _ in 0..400 {
            if g.outcome().is_some() {
                break;
            }
            if g.sample_chance(&mut rng) {
                continue;
            }
            let Some(seat) = g.to_move() else { break };
            let (action, analysis) = decide_action(&g, seat, &mut bot);
            let (action, playouts) = (action.unwrap(), analysis.map_or(0, |a| a.playouts));
            if matches!(g.phase(), Phase::Reaction { .. } | Phase::Discard { .. }) {
                assert_eq!(playouts, 0, "{:?}", g.phase());
                let served = g.computer_input(seat, Level::MAX, 1, None).unwrap();
                assert_eq!(Move::action(g.map(), action), served);
                quick += 1;
            } else {
                assert!(playouts > 0, "{:?} was not searched", g.phase());
                searched += 1;
            }
            g.play(action).unwrap();
        }
        assert!(quick > 5 && searched > 5, "{quick} quick answers, {searched} searches");
    }

    /// A playout reaches the end of the game, casual (where a turn is many inputs: the roll,
    /// the dice, the stone, every answer) as much as Pro, having filled the board.
    #[test]
    fn playouts_finish_the_game() {
        let map = Arc::new(gobeyond_maps::generate("square:13").unwrap());
        for rules in [TribalRules::default(), TribalRules::pro()] {
            let g = TribalGame::new(map.clone(), 4, rules, None).unwrap();
            let tables = Arc::new(PlayoutTables::new(&map));
            let mut c = g.without_events();
            let mut owner = c.scratch(&tables, &SearchConfig::default());
            let mut played = Vec::new();
            let rewards = c.playout(&mut owner, &mut Rng::new(1), &mut played);
            assert!(c.outcome().is_some(), "{:?}: the playout ended in {:?}", c.rules().range, c.phase());
            assert!(played.len() > map.len(), "{:?}: only {} stones", c.rules().range, played.len());
            assert!(rewards.iter().sum::<f32>() > 0.0);
        }
    }

    /// A seat plays on rather than pass while the game, ended now, would not be its win alone;
    /// a seat that would win passes as the search chose.
    #[test]
    fn a_seat_behind_plays_on_and_a_seat_ahead_may_pass() {
        let map = Arc::new(gobeyond_maps::generate("square:5").unwrap());
        let rules = TribalRules { range: RangeRule::Unlimited, cards: false, ..TribalRules::default() };
        let mut g = TribalGame::new(map, 2, rules, None).unwrap();
        while let Phase::ChooseStart { .. } = g.phase() {
            let seat = g.acting()[0];
            g.apply(seat, &Input::Action(Action::Timeout)).unwrap();
        }
        let (b, w) = (Player(0), Player(1));
        let at = |g: &TribalGame, l: &str| g.map().node_by_label(l).unwrap();
        // Nobody has anything: a tie, which is no win.
        assert!(!wins_if_everyone_passes(&g, b) && !wins_if_everyone_passes(&g, w));
        assert!(matches!(play_on_when_behind(&g, b, Action::Pass), Action::Place(_)));
        // Black walls off column A; White leaves its wall open at D5: Black's 5 points to 0.
        for (seat, what) in [
            (b, "B1"),
            (w, "D1"),
            (b, "B2"),
            (w, "D2"),
            (b, "B3"),
            (w, "D3"),
            (b, "B4"),
            (w, "D4"),
            (b, "B5"),
        ] {
            let v = at(&g, what);
            g.apply(seat, &Input::Action(Action::Place(v))).unwrap();
        }
        g.apply(w, &Input::Action(Action::Forgo)).unwrap();
        assert!(wins_if_everyone_passes(&g, b));
        assert!(!wins_if_everyone_passes(&g, w));
        assert_eq!(play_on_when_behind(&g, b, Action::Pass), Action::Pass);
        g.apply(b, &Input::Action(Action::Pass)).unwrap();
        // White is behind: neither a pass nor a forgo, and never a stone in Black's column A
        // or in its own territory.
        for choice in [Action::Pass, Action::Forgo] {
            let Action::Place(v) = play_on_when_behind(&g, w, choice) else { panic!("{choice:?} kept") };
            assert_ne!(g.map().label(v).chars().next(), Some('A'), "{}", g.map().label(v));
        }
        // Nothing was played by asking.
        assert_eq!(g.passes(), 1);
    }

    fn play_out(spec: &str, players: usize, level: u8) {
        let map = Arc::new(gobeyond_maps::generate(spec).unwrap());
        let mut g = TribalGame::new(map, players, TribalRules::default(), None).unwrap();
        let mut rng = Rng::new(3);
        let level = Level::new(level).unwrap();
        for step in 0..5000 {
            if g.outcome().is_some() {
                break;
            }
            if g.sample_chance(&mut rng) {
                continue;
            }
            let seat = g.acting()[0];
            let m = g
                .computer_input(seat, level, step, None)
                .unwrap_or_else(|| panic!("no input in {:?}", g.phase()));
            assert!(TribalGame::seat_may_send(&m), "{m:?} in {:?}", g.phase());
            RuleSystem::submit(&mut g, seat, &m).unwrap_or_else(|e| panic!("{m:?}: {e}"));
        }
        assert!(g.outcome().is_some(), "bots finish a game");
        let placed =
            g.events().iter().filter(|e| matches!(e, gobeyond_rules::tribal::Event::Placed { .. })).count();
        assert!(placed >= 6, "{spec}: {placed} stones");
    }
}
