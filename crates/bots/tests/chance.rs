//! The search over a game with chance (a dice game, not a Go board): chance events are sampled
//! in the tree and in playouts through `Searchable::sample_chance`, and the search still finds
//! the sure win.
#![allow(clippy::unwrap_used)]

use std::sync::{
    Arc,
    atomic::{AtomicUsize, Ordering},
};

use gobeyond_bots::{Prior, Rewards, SearchConfig, Searchable, Searcher, rank_rewards};
use gobeyond_maps::{Map, NodeId};
use gobeyond_rules::{EndReason, Game, MAX_PLAYERS, Outcome, Player, Rng, playout::PlayoutTables};

static ROLLS: AtomicUsize = AtomicUsize::new(0);
const GOAL: u32 = 20;

/// Pig: roll a die as often as you like, adding to the turn's total, or hold to bank it; a 1
/// loses the turn's total. First to 20 wins.
#[derive(Debug, Clone)]
struct Pig {
    map: Arc<Map>,
    scores: [u32; 2],
    turn_total: u32,
    to_move: u8,
    rolling: bool,
    actions: Vec<Act>,
    outcome: Option<Outcome>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Act {
    Roll,
    Hold,
}

impl Pig {
    fn new(scores: [u32; 2], turn_total: u32) -> Pig {
        let map = Arc::new(gobeyond_maps::generate("square:2").unwrap());
        Pig { map, scores, turn_total, to_move: 0, rolling: false, actions: Vec::new(), outcome: None }
    }

    fn end_turn(&mut self) {
        self.turn_total = 0;
        self.to_move = 1 - self.to_move;
    }
}

impl Game for Pig {
    type Action = Act;
    type Illegal = std::fmt::Error;

    fn map(&self) -> &Arc<Map> {
        &self.map
    }
    fn player_count(&self) -> usize {
        2
    }
    fn to_move(&self) -> Option<Player> {
        self.outcome.is_none().then_some(Player(self.to_move))
    }
    fn legal_actions(&self, out: &mut Vec<Act>) {
        out.clear();
        if self.outcome.is_none() && !self.rolling {
            out.extend([Act::Roll, Act::Hold]);
        }
    }
    fn check(&self, _: Act) -> Result<(), std::fmt::Error> {
        if self.outcome.is_some() || self.rolling { Err(std::fmt::Error) } else { Ok(()) }
    }
    fn play(&mut self, a: Act) -> Result<(), std::fmt::Error> {
        self.check(a)?;
        self.actions.push(a);
        match a {
            // The die is cast by chance.
            Act::Roll => self.rolling = true,
            Act::Hold => {
                let me = self.to_move as usize;
                self.scores[me] += self.turn_total;
                if self.scores[me] >= GOAL {
                    let winner = Player(self.to_move);
                    let ranking = vec![winner, Player(1 - self.to_move)];
                    let scores = self.scores.iter().map(|&s| s as f64).collect();
                    self.outcome = Some(Outcome::new(scores, ranking, &[], EndReason::Passes));
                }
                self.end_turn();
            }
        }
        Ok(())
    }
    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}

impl Searchable for Pig {
    /// Nothing to keep between playouts, and no board to own.
    type Scratch = ();
    fn scratch(&self, _: &Arc<PlayoutTables>, _: &SearchConfig) {}
    fn amaf_key(_: Act) -> Option<NodeId> {
        None
    }
    fn sample_chance(&mut self, rng: &mut Rng) -> bool {
        if !self.rolling {
            return false;
        }
        ROLLS.fetch_add(1, Ordering::Relaxed);
        self.rolling = false;
        match rng.below(6) + 1 {
            1 => self.end_turn(),
            n => self.turn_total += n,
        }
        true
    }
    fn final_rewards(&self) -> Rewards {
        self.outcome.as_ref().map_or([0.0; MAX_PLAYERS], |o| rank_rewards(&o.ranking))
    }
    fn playout(&mut self, _: &mut (), rng: &mut Rng, _: &mut Vec<(Player, NodeId)>) -> Rewards {
        let g = self;
        for _ in 0..1000 {
            while g.sample_chance(rng) {}
            if g.outcome.is_some() {
                break;
            }
            // Hold at 10 or more this turn, as a simple player would.
            let a = if g.turn_total >= 10 { Act::Hold } else { Act::Roll };
            let _ = g.play(a);
        }
        g.final_rewards()
    }
    fn prior(&self, _: Act, _: &mut ()) -> Prior {
        Prior { visits: 0.0, value: 0.5 }
    }
    fn action_count(&self) -> usize {
        self.actions.len()
    }
    fn action_at(&self, i: usize) -> Option<Act> {
        self.actions.get(i).copied()
    }
}

#[test]
fn search_samples_chance_and_takes_the_sure_win() {
    // 18 banked and 3 this turn: holding wins now; rolling risks a 1.
    let game = Pig::new([18, 0], 3);
    let before = ROLLS.load(Ordering::Relaxed);
    // Plain UCT: this game has no AMAF keys for RAVE to explore with.
    let config = SearchConfig { playouts: 3000, seed: 7, exploration: Some(1.0), ..SearchConfig::default() };
    let a = Searcher::new(config.clone()).search(&game);
    assert_eq!(a.best, Some(Act::Hold), "{:?}", a.actions);
    assert!(ROLLS.load(Ordering::Relaxed) > before + 1000, "chance was sampled in the search");
    let hold = a.actions.iter().find(|s| s.action == Act::Hold).unwrap();
    assert!(hold.value > 0.99, "holding wins every time: {}", hold.value);
    // Far from the goal, rolling on a small total is the better choice.
    let early = Pig::new([0, 0], 2);
    let a = Searcher::new(config).search(&early);
    assert_eq!(a.best, Some(Act::Roll), "{:?}", a.actions);
}
