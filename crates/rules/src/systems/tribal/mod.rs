//! Tribal multiplayer Go (`shared/seeds/001_7beb4a4fffdf7ea4.txt`, numbered in
//! `shared/specs/tribal.md`): 2 to 8 tribes, stones placed within a range of the player's start
//! point or stones (the higher of two dice, or a fixed range in the Pro variant), captured groups
//! shared among every player touching them, alliances by surrender, handicap from history, and
//! the end by passes, a Clean-Up and prisoners filled into territory.
//!
//! The board is kept as an owner per node; groups are formed by *team* (a faction and those it
//! occupies), so allied stones group together and never capture each other, and a group may sit
//! without liberties after an alliance changes (rule 57): no invariant of the Go board holds,
//! so this system has its own small board. Interpretations: `docs/rules/tribal.md`.
//!
//! Not yet here: the cards (the deck, hands, Reject windows); the dice are.

mod event;
mod scoring;
pub mod settings;
pub mod state;
mod system;

use std::{collections::HashSet, sync::Arc};

use gobeyond_maps::{Map, NodeId};

pub use event::Event;
pub use settings::{RangeRule, TribalKo, TribalRules, handicap_order, handicap_value};
pub use state::TribalState;
pub use system::Move;

use crate::{EndReason, Game, Outcome, Player, setup::SetupError, zobrist};

/// What a seat (or the server, for dice and time-outs) does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// A stone: a handicap stone, or the turn's placement.
    Place(NodeId),
    /// Pass the turn (ends the game when everyone passes in a row).
    Pass,
    /// Play: roll the dice for the range (casual game).
    Roll,
    /// Do nothing after the roll, or give up a handicap stone (breaks a run of passes).
    Forgo,
    /// Choose a start point (in the order of the roll-off).
    ChooseStart(NodeId),
    /// Offer to surrender to a player (3 or more players).
    Surrender(Player),
    /// Answer a surrender offer.
    Accept,
    Decline,
    /// Leave one's occupier.
    Independence,
    /// The clock ran out (sent by the server): see [`TribalGame::timeout_action`].
    Timeout,
    /// Two dice, as the server rolled them.
    Dice(u8, u8),
}

/// Everything a seat can send, as kept in the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Action(Action),
    /// Clean-Up: the player's own stones they agree are dead.
    Dead(Vec<NodeId>),
    /// Clean-Up time ran out: nothing named.
    CleanUpTimeout,
}

/// Where the game is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    /// The dice roll-off for the order (casual): these seats must roll.
    RollOff {
        pending: Vec<Player>,
    },
    /// Players choose start points in the roll-off's order.
    ChooseStart {
        next: usize,
    },
    /// Handicap stones: `next` indexes the order.
    Handicap {
        next: usize,
    },
    /// A normal turn: before the roll (or, in Pro, the whole turn), or after it.
    Turn {
        rolled: Option<Roll>,
    },
    /// `from` offered to surrender to `to`, who answers.
    Offer {
        from: Player,
        to: Player,
    },
    /// The end: each player names their dead stones.
    CleanUp,
    Finished,
}

/// A Play's roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Roll {
    pub dice: (u8, u8),
    pub range: u32,
    pub doubles: bool,
}

/// Why an action was refused. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    #[error("the game is over")]
    GameOver,
    #[error("it is not {0}'s turn")]
    NotYourTurn(Player),
    #[error("{0} is not possible now ({1})")]
    NotNow(&'static str, &'static str),
    #[error("node {0} is not on the map")]
    UnknownNode(NodeId),
    #[error("{0} is occupied")]
    Occupied(NodeId),
    #[error("{node} is more than {range} steps from the start point and stones")]
    OutOfRange { node: NodeId, range: u32 },
    #[error("{0} would leave the stone's group without liberties")]
    Suicide(NodeId),
    #[error("{0} would repeat an earlier position (ko)")]
    Ko(NodeId),
    #[error("no stones left in the supply")]
    NoStones,
    #[error("{0} is not a free start point")]
    NotAStartPoint(NodeId),
    #[error("surrender: {0}")]
    Surrender(String),
    #[error("dice must be 1 to 6")]
    BadDice,
    #[error("{0} is not your stone")]
    NotYourStone(NodeId),
    #[error("{0} is named twice")]
    Duplicate(NodeId),
    #[error("already chose")]
    AlreadyChose,
    #[error("resignation is not permitted: a tribe may pass at every turn")]
    NoResignation,
}

/// A Tribal Go game.
#[derive(Debug, Clone)]
pub struct TribalGame {
    map: Arc<Map>,
    rules: TribalRules,
    players: usize,
    /// Owner per node: 0 empty, p + 1 a stone of player p.
    owner: Vec<u8>,
    /// Per player: who occupies them.
    occupier: Vec<Option<Player>>,
    /// Candidate start points (as far apart as possible) and each player's choice.
    start_candidates: Vec<NodeId>,
    start: Vec<Option<NodeId>>,
    /// Roll-off totals per player, in order (re-rolls appended).
    rolloff: Vec<Vec<u8>>,
    /// The roll-off's order (choice of start points); the first is the first player.
    order: Vec<Player>,
    first: Player,
    /// The first player the setup named (Pro), to rebuild the game.
    setup_first: Option<Player>,
    handicap: Vec<Player>,
    phase: Phase,
    to_move: Player,
    /// The player to move chose Play: the server rolls their dice next.
    awaiting_dice: bool,
    passes: u32,
    /// Players who ran out of time: they pass on every turn from then on.
    gone: Vec<bool>,
    /// Prisoners `[holder][colour]`.
    prisoners: Vec<Vec<u32>>,
    /// Stones left in supply, when limited.
    supply: Vec<Option<u32>>,
    /// Points banked by cards (none yet: the deck is not here).
    banked: Vec<i64>,
    hash: u64,
    /// Every position so far (superko), and the one before the last action (simple ko).
    history: HashSet<u64>,
    previous_hash: u64,
    dead: Vec<Option<Vec<NodeId>>>,
    log: Vec<(Player, Input)>,
    events: Vec<Event>,
    record_events: bool,
    outcome: Option<Outcome>,
}

impl TribalGame {
    pub fn new(
        map: Arc<Map>,
        players: usize,
        rules: TribalRules,
        first: Option<Player>,
    ) -> Result<TribalGame, SetupError> {
        rules.validate(players).map_err(|(name, m)| SetupError::Rules(format!("{name}: {m}")))?;
        if map.len() < players {
            return Err(SetupError::Rules(format!("{} nodes cannot hold {players} start points", map.len())));
        }
        let first = first.unwrap_or(Player(0));
        if first.index() >= players {
            return Err(SetupError::Rules(format!("seat {} is not in a {players}-player game", first.0)));
        }
        let start_candidates = gobeyond_maps::start_points(&map, players);
        let n = map.len();
        let mut g = TribalGame {
            map,
            players,
            owner: vec![0; n],
            occupier: vec![None; players],
            start_candidates,
            start: vec![None; players],
            rolloff: vec![Vec::new(); players],
            order: Vec::new(),
            first,
            setup_first: Some(first).filter(|f| *f != Player(0)),
            handicap: Vec::new(),
            phase: Phase::Finished,
            to_move: first,
            awaiting_dice: false,
            passes: 0,
            gone: vec![false; players],
            prisoners: vec![vec![0; players]; players],
            supply: vec![rules.stones_per_player; players],
            banked: vec![0; players],
            hash: 0,
            history: HashSet::from([0]),
            previous_hash: 0,
            dead: vec![None; players],
            log: Vec::new(),
            events: Vec::new(),
            record_events: true,
            outcome: None,
            rules,
        };
        if g.rules.range == RangeRule::Dice {
            g.phase = Phase::RollOff { pending: (0..players as u8).map(Player).collect() };
        } else {
            // Pro: no roll-off; start points are chosen in turn order from the first player.
            g.order = (0..players).map(|k| Player(((first.index() + k) % players) as u8)).collect();
            g.phase = Phase::ChooseStart { next: 0 };
        }
        Ok(g)
    }

    // --- Reading the game -------------------------------------------------------------

    pub fn rules(&self) -> &TribalRules {
        &self.rules
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    pub fn log(&self) -> &[(Player, Input)] {
        &self.log
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The stone on a node.
    pub fn stone_at(&self, node: NodeId) -> Option<Player> {
        self.owner.get(node as usize).and_then(|&o| o.checked_sub(1)).map(Player)
    }

    pub fn start_point(&self, p: Player) -> Option<NodeId> {
        self.start.get(p.index()).copied().flatten()
    }

    pub fn start_candidates(&self) -> &[NodeId] {
        &self.start_candidates
    }

    pub fn occupier(&self, p: Player) -> Option<Player> {
        self.occupier.get(p.index()).copied().flatten()
    }

    /// The root of `p`'s team: their occupier, or themselves.
    pub fn team(&self, p: Player) -> Player {
        self.occupier(p).unwrap_or(p)
    }

    pub fn prisoners(&self, holder: Player) -> &[u32] {
        &self.prisoners[holder.index()]
    }

    pub fn supply(&self, p: Player) -> Option<u32> {
        self.supply[p.index()]
    }

    pub fn passes(&self) -> u32 {
        self.passes
    }

    pub fn is_gone(&self, p: Player) -> bool {
        self.gone[p.index()]
    }

    pub fn first_player(&self) -> Player {
        self.first
    }

    pub fn order(&self) -> &[Player] {
        &self.order
    }

    pub fn rolloff(&self, p: Player) -> &[u8] {
        &self.rolloff[p.index()]
    }

    /// The handicap stones still to come, in order.
    pub fn handicap_left(&self) -> &[Player] {
        match self.phase {
            Phase::Handicap { next } => &self.handicap[next.min(self.handicap.len())..],
            _ => &[],
        }
    }

    /// Who must act now: one seat, or the seats still to name dead stones.
    pub fn acting(&self) -> Vec<Player> {
        match &self.phase {
            Phase::RollOff { pending } => pending.first().copied().into_iter().collect(),
            Phase::ChooseStart { next } => self.order.get(*next).copied().into_iter().collect(),
            Phase::Handicap { next } => self.handicap.get(*next).copied().into_iter().collect(),
            Phase::Turn { .. } => vec![self.to_move],
            Phase::Offer { to, .. } => vec![*to],
            Phase::CleanUp => {
                (0..self.players).filter(|&p| self.dead[p].is_none()).map(|p| Player(p as u8)).collect()
            }
            Phase::Finished => Vec::new(),
        }
    }

    /// The seat whose dice the server must roll now (roll-off, or a Play's roll).
    pub fn chance_seat(&self) -> Option<Player> {
        match &self.phase {
            Phase::RollOff { pending } => pending.first().copied(),
            Phase::Turn { rolled: None } if self.awaiting_dice => Some(self.to_move),
            _ => None,
        }
    }

    /// The range of a placement by the player to move now (None: no limit).
    pub fn current_range(&self) -> Option<u32> {
        match (&self.phase, self.rules.range) {
            (Phase::Handicap { .. }, _) => Some(self.rules.handicap_distance),
            (_, RangeRule::Unlimited) => None,
            (_, RangeRule::Fixed) => Some(self.rules.fixed_range),
            (Phase::Turn { rolled: Some(r) }, RangeRule::Dice) => Some(r.range),
            (_, RangeRule::Dice) => Some(0),
        }
    }

    /// Nodes `p` may reach with `range` (every node for no limit): within `range` steps, along
    /// the map, of `p`'s start point or stones (stones do not block the path).
    pub fn reachable(&self, p: Player, range: Option<u32>) -> Vec<bool> {
        let n = self.map.len();
        let Some(range) = range else { return vec![true; n] };
        let mut dist = vec![u32::MAX; n];
        let mut queue = std::collections::VecDeque::new();
        let code = p.0 + 1;
        for (v, d) in dist.iter_mut().enumerate() {
            if self.owner[v] == code || self.start_point(p) == Some(v as NodeId) {
                *d = 0;
                queue.push_back(v as NodeId);
            }
        }
        while let Some(v) = queue.pop_front() {
            let d = dist[v as usize];
            if d >= range {
                continue;
            }
            for &w in self.map.neighbors(v) {
                if dist[w as usize] == u32::MAX {
                    dist[w as usize] = d + 1;
                    queue.push_back(w);
                }
            }
        }
        dist.into_iter().map(|d| d <= range).collect()
    }

    fn within(&self, p: Player, node: NodeId, range: u32) -> bool {
        // From the target outwards, stopping at the first source.
        let n = self.map.len();
        let code = p.0 + 1;
        let is_source = |v: NodeId| self.owner[v as usize] == code || self.start_point(p) == Some(v);
        if is_source(node) {
            return true;
        }
        let mut seen = vec![false; n];
        seen[node as usize] = true;
        let mut frontier = vec![node];
        for _ in 0..range {
            let mut next = Vec::new();
            for &v in &frontier {
                for &w in self.map.neighbors(v) {
                    if !seen[w as usize] {
                        if is_source(w) {
                            return true;
                        }
                        seen[w as usize] = true;
                        next.push(w);
                    }
                }
            }
            if next.is_empty() {
                return false;
            }
            frontier = next;
        }
        false
    }

    // --- Groups (by team) ---------------------------------------------------------------

    fn team_of_code(&self, code: u8) -> Option<Player> {
        code.checked_sub(1).map(|p| self.team(Player(p)))
    }

    /// The group (by team) containing `node`'s stone, and whether it has a liberty (only that
    /// matters: captures and suicide ask about none).
    fn group(&self, node: NodeId, seen: &mut [bool]) -> (Vec<NodeId>, u32) {
        let team = self.team_of_code(self.owner[node as usize]);
        let mut stones = vec![node];
        let mut libs = 0u32;
        seen[node as usize] = true;
        let mut i = 0;
        while i < stones.len() {
            let v = stones[i];
            i += 1;
            for &w in self.map.neighbors(v) {
                let code = self.owner[w as usize];
                if code == 0 {
                    libs = 1;
                } else if !seen[w as usize] && self.team_of_code(code) == team {
                    seen[w as usize] = true;
                    stones.push(w);
                }
            }
        }
        (stones, libs)
    }

    /// Players with a stone next to `stones` (not in it): the spoils' recipients (rule 30, A8),
    /// each with how many of their stones touch it.
    fn touching(&self, stones: &[NodeId]) -> Vec<(Player, u32)> {
        let inside: HashSet<NodeId> = stones.iter().copied().collect();
        let mut counted = HashSet::new();
        let mut contact = vec![0u32; self.players];
        for &v in stones {
            for &w in self.map.neighbors(v) {
                if let Some(p) = self.stone_at(w)
                    && !inside.contains(&w)
                    && counted.insert(w)
                {
                    contact[p.index()] += 1;
                }
            }
        }
        contact.iter().enumerate().filter(|(_, c)| **c > 0).map(|(p, c)| (Player(p as u8), *c)).collect()
    }

    fn set(&mut self, node: NodeId, code: u8) {
        let old = self.owner[node as usize];
        if old != 0 {
            self.hash ^= zobrist::stone_key(node, old);
        }
        if code != 0 {
            self.hash ^= zobrist::stone_key(node, code);
        }
        self.owner[node as usize] = code;
    }

    /// A prisoner of `colour` for `holder`; one's own colour goes back to the supply.
    fn give_prisoner(&mut self, holder: Player, colour: Player) {
        if holder == colour {
            if let Some(s) = self.supply[colour.index()].as_mut() {
                *s += 1;
            }
        } else {
            self.prisoners[holder.index()][colour.index()] += 1;
        }
    }

    fn back_to_supply(&mut self, colour: Player) {
        if let Some(s) = self.supply[colour.index()].as_mut() {
            *s += 1;
        }
    }

    /// Shares a removed group's stones (rules 30–31): ⌊|g|/k⌋ each to the `k` touching players,
    /// the balance to `lead` (the killer), dealt by (owner, node) to `lead` first, then the
    /// others in turn order after `lead`. Returns the shares.
    fn share(
        &mut self,
        stones: &[NodeId],
        owners: &[Player],
        lead: Player,
        recipients: &[Player],
    ) -> Vec<(Player, u32)> {
        let mut dealt: Vec<(Player, NodeId)> = owners.iter().copied().zip(stones.iter().copied()).collect();
        dealt.sort_by_key(|&(p, v)| (p.0, v));
        if recipients.is_empty() {
            for &(p, _) in &dealt {
                self.back_to_supply(p);
            }
            return Vec::new();
        }
        let k = recipients.len() as u32;
        let each = dealt.len() as u32 / k;
        let balance = dealt.len() as u32 % k;
        let mut order: Vec<Player> = vec![lead];
        for i in 1..=self.players {
            let p = Player(((lead.index() + i) % self.players) as u8);
            if p != lead && recipients.contains(&p) {
                order.push(p);
            }
        }
        let mut shares = Vec::new();
        let mut it = dealt.into_iter();
        for (i, &r) in order.iter().enumerate() {
            let count = each + if i == 0 { balance } else { 0 };
            for _ in 0..count {
                if let Some((colour, _)) = it.next() {
                    self.give_prisoner(r, colour);
                }
            }
            shares.push((r, count));
        }
        shares
    }

    // --- Placing ---------------------------------------------------------------------

    /// Places `p`'s stone on `node` with `range` (None: anywhere): captures with spoils, then
    /// suicide and ko. On a refusal nothing changes.
    fn place(&mut self, p: Player, node: NodeId, range: Option<u32>, handicap: bool) -> Result<(), Illegal> {
        if !self.map.contains(node as u64) {
            return Err(Illegal::UnknownNode(node));
        }
        if self.owner[node as usize] != 0 {
            return Err(Illegal::Occupied(node));
        }
        if let Some(r) = range
            && !self.within(p, node, r)
        {
            return Err(Illegal::OutOfRange { node, range: r });
        }
        if self.supply[p.index()] == Some(0) {
            return Err(Illegal::NoStones);
        }
        let before_hash = self.hash;
        self.set(node, p.0 + 1);
        let team = self.team(p);
        // Other teams' groups next to the stone left without liberties: all removed together.
        // (Prisoners and supply change only once the placement stands.)
        let has_empty_neighbour =
            |g: &TribalGame, v: NodeId| g.map.neighbors(v).iter().any(|&w| g.owner[w as usize] == 0);
        let mut seen: Option<Vec<bool>> = None;
        let mut captured: Vec<Vec<NodeId>> = Vec::new();
        for &w in self.map.neighbors(node) {
            let code = self.owner[w as usize];
            if code == 0 || self.team_of_code(code) == Some(team) || has_empty_neighbour(self, w) {
                continue;
            }
            let seen = seen.get_or_insert_with(|| vec![false; self.map.len()]);
            if seen[w as usize] {
                continue;
            }
            let (stones, libs) = self.group(w, seen);
            if libs == 0 {
                captured.push(stones);
            }
        }
        let mut removed = Vec::new();
        let mut spoils = Vec::new();
        for stones in &captured {
            let owners: Vec<Player> = stones.iter().filter_map(|&v| self.stone_at(v)).collect();
            let recipients: Vec<Player> = self.touching(stones).into_iter().map(|(q, _)| q).collect();
            spoils.push((stones.clone(), owners, recipients));
        }
        for (stones, _, _) in &spoils {
            for &v in stones {
                self.set(v, 0);
                removed.push(v);
            }
        }
        // A stone with an empty neighbour has a liberty: no search needed.
        let libs = if has_empty_neighbour(self, node) {
            1
        } else {
            self.group(node, &mut vec![false; self.map.len()]).1
        };
        let repeated = match self.rules.ko {
            TribalKo::PositionalSuperko => self.history.contains(&self.hash),
            TribalKo::Simple => self.hash == self.previous_hash,
        };
        if libs == 0 || repeated {
            // Undo: the stone and the captures.
            for (stones, owners, _) in &spoils {
                for (&v, o) in stones.iter().zip(owners) {
                    self.set(v, o.0 + 1);
                }
            }
            self.set(node, 0);
            debug_assert_eq!(self.hash, before_hash);
            return Err(if libs == 0 { Illegal::Suicide(node) } else { Illegal::Ko(node) });
        }
        if let Some(s) = self.supply[p.index()].as_mut() {
            *s -= 1;
        }
        self.previous_hash = before_hash;
        self.history.insert(self.hash);
        self.emit(Event::Placed { player: p, node, handicap });
        for (stones, owners, recipients) in spoils {
            let shares = self.share(&stones, &owners, p, &recipients);
            self.emit(Event::Captured { player: Some(p), nodes: stones, owners, shares });
        }
        Ok(())
    }

    fn emit(&mut self, e: Event) {
        if self.record_events {
            self.events.push(e);
        }
    }

    /// Takes back the last input of a seat (with the dice rolled after it): the game is
    /// rebuilt from its log. False when nothing is left to take back.
    pub fn undo(&mut self) -> bool {
        let mut log = self.log.clone();
        while matches!(log.last(), Some((_, Input::Action(Action::Dice(..))))) {
            log.pop();
        }
        if log.pop().is_none() {
            return false;
        }
        let Ok(mut g) = TribalGame::new(self.map.clone(), self.players, self.rules.clone(), self.setup_first)
        else {
            return false;
        };
        for (seat, input) in &log {
            if g.apply(*seat, input).is_err() {
                return false;
            }
        }
        *self = g;
        true
    }

    /// A copy that records no events (search).
    pub fn without_events(&self) -> TribalGame {
        let mut g = self.clone();
        g.events.clear();
        g.log.clear();
        g.record_events = false;
        g
    }

    // --- Alliances -------------------------------------------------------------------

    /// c(q, p): how many of `q`'s stones touch at least one of `p`'s (rule 49).
    pub fn contact(&self, q: Player, p: Player) -> u32 {
        let (qc, pc) = (q.0 + 1, p.0 + 1);
        self.map
            .nodes()
            .filter(|&v| {
                self.owner[v as usize] == qc
                    && self.map.neighbors(v).iter().any(|&w| self.owner[w as usize] == pc)
            })
            .count() as u32
    }

    /// Whether `p` may offer to surrender to `q` (rules 50, 53, 55).
    pub fn check_surrender(&self, p: Player, q: Player) -> Result<(), Illegal> {
        let bad = |m: String| Err(Illegal::Surrender(m));
        if self.players < 3 {
            return bad("alliances need 3 or more players".into());
        }
        if q == p || q.index() >= self.players {
            return bad("name another player".into());
        }
        if self.occupier(q).is_some() {
            return bad(format!("player {} is occupied: only an independent faction accepts", q.0 + 1));
        }
        if self.occupier.contains(&Some(p)) {
            return bad("a faction that occupies others cannot surrender".into());
        }
        let c = self.contact(q, p);
        if c == 0 {
            return bad(format!("player {} has no stone in contact with yours", q.0 + 1));
        }
        let most = (0..self.players as u8)
            .map(Player)
            .filter(|&o| o != p)
            .map(|o| self.contact(o, p))
            .max()
            .unwrap_or(0);
        if c < most {
            return bad(format!(
                "only to a player with the most stones in contact ({most}); player {} has {c}",
                q.0 + 1
            ));
        }
        if let Some(a) = self.occupier(p) {
            if a == q {
                return bad("already occupied by that player".into());
            }
            if c <= self.contact(a, p) {
                return bad("switching needs more stones in contact than the current occupier has".into());
            }
        }
        Ok(())
    }

    // --- The flow of turns -----------------------------------------------------------

    /// The next player's turn; players who ran out of time pass by themselves.
    fn next_turn(&mut self, after: Player) {
        let mut p = after;
        loop {
            p = Player(((p.index() + 1) % self.players) as u8);
            self.to_move = p;
            self.phase = Phase::Turn { rolled: None };
            self.awaiting_dice = false;
            if !self.gone[p.index()] {
                return;
            }
            self.passes += 1;
            let consecutive = self.passes;
            self.emit(Event::Passed { player: p, automatic: true, consecutive });
            if self.end_if_passed() {
                return;
            }
        }
    }

    fn end_if_passed(&mut self) -> bool {
        if self.passes as usize >= self.players {
            self.begin_counting();
            true
        } else {
            false
        }
    }

    fn after_handicap_or_start(&mut self) {
        // Setup done: the first player's turn.
        self.to_move = self.first;
        self.phase = Phase::Turn { rolled: None };
        self.awaiting_dice = false;
        if self.gone[self.first.index()] {
            let before = Player(((self.first.index() + self.players - 1) % self.players) as u8);
            self.next_turn(before);
        }
    }

    fn begin_handicap(&mut self) {
        let values: Vec<i32> = (0..self.players).map(|p| self.rules.handicap_of(p)).collect();
        self.handicap =
            handicap_order(&values, self.first.index()).into_iter().map(|s| Player(s as u8)).collect();
        if self.handicap.is_empty() {
            self.after_handicap_or_start();
        } else {
            self.phase = Phase::Handicap { next: 0 };
        }
    }

    /// The roll-off is settled when every total sequence differs; ties roll again.
    fn settle_rolloff(&mut self) {
        let mut tied = Vec::new();
        for p in 0..self.players {
            if (0..self.players).any(|q| q != p && self.rolloff[q] == self.rolloff[p]) {
                tied.push(Player(p as u8));
            }
        }
        if !tied.is_empty() {
            self.phase = Phase::RollOff { pending: tied };
            return;
        }
        let mut order: Vec<Player> = (0..self.players as u8).map(Player).collect();
        order.sort_by(|a, b| self.rolloff[b.index()].cmp(&self.rolloff[a.index()]));
        self.first = order[0];
        self.order = order.clone();
        self.emit(Event::Order { order });
        self.phase = Phase::ChooseStart { next: 0 };
    }

    // --- Applying inputs -------------------------------------------------------------

    /// Plays one input of `seat`, checked: on a refusal nothing changes.
    pub fn apply(&mut self, seat: Player, input: &Input) -> Result<(), Illegal> {
        if seat.index() >= self.players {
            return Err(Illegal::NotYourTurn(seat));
        }
        match input {
            Input::Action(a) => self.act(seat, *a)?,
            Input::Dead(nodes) => self.choose_dead(seat, nodes)?,
            Input::CleanUpTimeout => self.choose_dead(seat, &[])?,
        }
        if self.record_events {
            self.log.push((seat, input.clone()));
        }
        Ok(())
    }

    fn act(&mut self, seat: Player, action: Action) -> Result<(), Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        if matches!(action, Action::Dice(..)) {
            if self.chance_seat() != Some(seat) {
                return Err(Illegal::NotNow("dice", "no roll is pending for this seat"));
            }
        } else if !self.acting().contains(&seat) {
            return Err(Illegal::NotYourTurn(seat));
        }
        match (self.phase.clone(), action) {
            (Phase::RollOff { pending }, Action::Dice(a, b)) => {
                if pending.first() != Some(&seat) {
                    return Err(Illegal::NotYourTurn(seat));
                }
                check_dice(a, b)?;
                self.rolloff[seat.index()].push(a + b);
                self.emit(Event::RolledOff { player: seat, dice: [a, b], total: a + b });
                let rest: Vec<Player> = pending[1..].to_vec();
                if rest.is_empty() {
                    self.settle_rolloff();
                } else {
                    self.phase = Phase::RollOff { pending: rest };
                }
            }
            (Phase::ChooseStart { next }, Action::ChooseStart(node) | Action::Place(node)) => {
                if !self.start_candidates.contains(&node) || self.start.contains(&Some(node)) {
                    return Err(Illegal::NotAStartPoint(node));
                }
                self.choose_start(next, seat, node);
            }
            (Phase::ChooseStart { next }, Action::Timeout) => {
                let free = self.start_candidates.iter().copied().find(|v| !self.start.contains(&Some(*v)));
                if let Some(node) = free {
                    self.choose_start(next, seat, node);
                }
            }
            (Phase::Handicap { next }, Action::Place(node)) => {
                self.place(seat, node, Some(self.rules.handicap_distance), true)?;
                self.advance_handicap(next);
            }
            (Phase::Handicap { next }, Action::Forgo | Action::Timeout) => {
                self.emit(Event::Forgone { player: seat, handicap: true });
                self.advance_handicap(next);
            }
            (Phase::Turn { rolled }, action) => self.turn_action(seat, rolled, action)?,
            (Phase::Offer { from, to }, Action::Accept) => {
                let previous = self.occupier(from);
                self.occupier[from.index()] = Some(to);
                self.emit(Event::SurrenderAccepted { player: from, to, previous });
                self.next_turn(from);
            }
            (Phase::Offer { from, to }, Action::Decline | Action::Timeout) => {
                self.emit(Event::SurrenderDeclined { player: from, to });
                self.next_turn(from);
            }
            (_, Action::Dice(..)) => return Err(Illegal::NotNow("dice", "no roll is pending")),
            _ => return Err(Illegal::NotNow(action_name(action), self.phase_name())),
        }
        Ok(())
    }

    fn choose_start(&mut self, next: usize, seat: Player, node: NodeId) {
        self.start[seat.index()] = Some(node);
        self.emit(Event::StartChosen { player: seat, node });
        if next + 1 < self.order.len() {
            self.phase = Phase::ChooseStart { next: next + 1 };
        } else {
            self.begin_handicap();
        }
    }

    fn advance_handicap(&mut self, next: usize) {
        if next + 1 < self.handicap.len() {
            self.phase = Phase::Handicap { next: next + 1 };
        } else {
            self.after_handicap_or_start();
        }
    }

    fn turn_action(&mut self, seat: Player, rolled: Option<Roll>, action: Action) -> Result<(), Illegal> {
        let dice = self.rules.range == RangeRule::Dice;
        match (rolled, action) {
            (None, Action::Dice(a, b)) if self.awaiting_dice => {
                check_dice(a, b)?;
                let roll = Roll { dice: (a, b), range: u32::from(a.max(b)), doubles: a == b };
                self.awaiting_dice = false;
                self.phase = Phase::Turn { rolled: Some(roll) };
                self.emit(Event::Rolled {
                    player: seat,
                    dice: [a, b],
                    range: roll.range,
                    doubles: roll.doubles,
                });
                return Ok(());
            }
            (None, _) if self.awaiting_dice => {
                return Err(Illegal::NotNow(action_name(action), "the dice are being rolled"));
            }
            (None, Action::Roll) if dice => {
                self.awaiting_dice = true;
                return Ok(());
            }
            (None, Action::Pass | Action::Timeout) => {
                if action == Action::Timeout {
                    self.gone[seat.index()] = true;
                    self.emit(Event::TimedOut { player: seat });
                }
                self.passes += 1;
                let consecutive = self.passes;
                self.emit(Event::Passed { player: seat, automatic: action == Action::Timeout, consecutive });
                if !self.end_if_passed() {
                    self.next_turn(seat);
                }
                return Ok(());
            }
            (None, Action::Surrender(q)) => {
                self.check_surrender(seat, q)?;
                self.passes = 0;
                self.emit(Event::SurrenderOffered { player: seat, to: q });
                self.phase = Phase::Offer { from: seat, to: q };
                return Ok(());
            }
            (None, Action::Independence) => {
                let Some(was) = self.occupier(seat) else {
                    return Err(Illegal::NotNow("independence", "you are independent"));
                };
                self.occupier[seat.index()] = None;
                self.passes = 0;
                self.emit(Event::Independent { player: seat, from: was });
                self.next_turn(seat);
                return Ok(());
            }
            (Some(r), Action::Place(node)) => self.place(seat, node, Some(r.range), false)?,
            (None, Action::Place(node)) if !dice => self.place(seat, node, self.current_range(), false)?,
            (Some(_), Action::Forgo | Action::Timeout) | (None, Action::Forgo)
                if rolled.is_some() || !dice =>
            {
                self.emit(Event::Forgone { player: seat, handicap: false });
            }
            _ => {
                return Err(Illegal::NotNow(
                    action_name(action),
                    if rolled.is_some() { "after the roll" } else { "before the roll" },
                ));
            }
        }
        self.passes = 0;
        self.next_turn(seat);
        Ok(())
    }

    fn phase_name(&self) -> &'static str {
        match self.phase {
            Phase::RollOff { .. } => "the roll-off",
            Phase::ChooseStart { .. } => "the choice of start points",
            Phase::Handicap { .. } => "the handicap stones",
            Phase::Turn { .. } => "this turn",
            Phase::Offer { .. } => "a surrender offer",
            Phase::CleanUp => "Clean-Up",
            Phase::Finished => "the end",
        }
    }

    /// What the clock does for `seat` when time runs out.
    pub fn timeout_input(&self) -> Input {
        if self.phase == Phase::CleanUp { Input::CleanUpTimeout } else { Input::Action(Action::Timeout) }
    }

    fn choose_dead(&mut self, seat: Player, nodes: &[NodeId]) -> Result<(), Illegal> {
        if self.phase != Phase::CleanUp {
            return Err(Illegal::NotNow("naming dead stones", self.phase_name()));
        }
        if self.dead[seat.index()].is_some() {
            return Err(Illegal::AlreadyChose);
        }
        let mut seen = HashSet::new();
        for &v in nodes {
            if !self.map.contains(v as u64) {
                return Err(Illegal::UnknownNode(v));
            }
            if self.stone_at(v) != Some(seat) {
                return Err(Illegal::NotYourStone(v));
            }
            if !seen.insert(v) {
                return Err(Illegal::Duplicate(v));
            }
        }
        self.dead[seat.index()] = Some(nodes.to_vec());
        self.emit(Event::DeadChosen { player: seat, nodes: nodes.to_vec() });
        if self.dead.iter().all(Option::is_some) {
            self.finish_counting();
        }
        Ok(())
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}

fn check_dice(a: u8, b: u8) -> Result<(), Illegal> {
    if (1..=6).contains(&a) && (1..=6).contains(&b) { Ok(()) } else { Err(Illegal::BadDice) }
}

fn action_name(a: Action) -> &'static str {
    match a {
        Action::Place(_) => "placing a stone",
        Action::Pass => "passing",
        Action::Roll => "rolling",
        Action::Forgo => "forgoing",
        Action::ChooseStart(_) => "choosing a start point",
        Action::Surrender(_) => "surrendering",
        Action::Accept | Action::Decline => "answering a surrender",
        Action::Independence => "declaring independence",
        Action::Timeout => "a time-out",
        Action::Dice(..) => "dice",
    }
}

impl Game for TribalGame {
    type Action = Action;
    type Illegal = Illegal;

    fn map(&self) -> &Arc<Map> {
        &self.map
    }

    fn player_count(&self) -> usize {
        self.players
    }

    fn to_move(&self) -> Option<Player> {
        if self.chance_seat().is_some() {
            return None;
        }
        match self.phase {
            Phase::CleanUp | Phase::Finished => None,
            _ => self.acting().first().copied(),
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        let Some(p) = self.to_move() else { return };
        match &self.phase {
            Phase::ChooseStart { .. } => {
                out.extend(
                    self.start_candidates
                        .iter()
                        .filter(|v| !self.start.contains(&Some(**v)))
                        .map(|&v| Action::ChooseStart(v)),
                );
            }
            Phase::Handicap { .. } | Phase::Turn { .. } => {
                let range = self.current_range();
                let placing = matches!(self.phase, Phase::Handicap { .. })
                    || matches!(self.phase, Phase::Turn { rolled: Some(_) })
                    || self.rules.range != RangeRule::Dice;
                if placing {
                    let reach = self.reachable(p, range);
                    let mut probe = self.without_events();
                    for v in self.map.nodes() {
                        if reach[v as usize]
                            && self.owner[v as usize] == 0
                            && probe.check_place(p, v, range).is_ok()
                        {
                            out.push(Action::Place(v));
                        }
                    }
                }
                match self.phase {
                    Phase::Handicap { .. } => out.push(Action::Forgo),
                    Phase::Turn { rolled: Some(_) } => out.push(Action::Forgo),
                    _ => {
                        out.push(Action::Pass);
                        if self.rules.range == RangeRule::Dice {
                            out.push(Action::Roll);
                        } else {
                            out.push(Action::Forgo);
                        }
                        if self.occupier(p).is_some() {
                            out.push(Action::Independence);
                        }
                        for q in 0..self.players as u8 {
                            if self.check_surrender(p, Player(q)).is_ok() {
                                out.push(Action::Surrender(Player(q)));
                            }
                        }
                    }
                }
            }
            Phase::Offer { .. } => out.extend([Action::Accept, Action::Decline]),
            _ => {}
        }
    }

    fn check(&self, action: Action) -> Result<(), Illegal> {
        let Some(p) = self.to_move() else { return Err(Illegal::GameOver) };
        let mut copy = self.without_events();
        copy.act(p, action)
    }

    fn play(&mut self, action: Action) -> Result<(), Illegal> {
        let Some(p) = self.to_move().or_else(|| self.chance_seat()) else { return Err(Illegal::GameOver) };
        self.apply(p, &Input::Action(action))
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}

impl TribalGame {
    /// Whether `p` could place a stone on `node` with `range` now (empty, in range, not suicide,
    /// not a repetition), whatever the phase.
    pub fn placeable(&self, p: Player, node: NodeId, range: Option<u32>) -> bool {
        self.owner.get(node as usize) == Some(&0) && self.without_events().check_place(p, node, range).is_ok()
    }

    /// Whether `p` could place on `node` with `range` (a trial on this copy, undone).
    fn check_place(&mut self, p: Player, node: NodeId, range: Option<u32>) -> Result<(), Illegal> {
        let saved =
            (self.owner.clone(), self.hash, self.previous_hash, self.prisoners.clone(), self.supply.clone());
        let inserted_before = self.history.len();
        let r = self.place(p, node, range, false);
        if r.is_ok() {
            self.history.remove(&self.hash);
            debug_assert_eq!(self.history.len(), inserted_before);
            (self.owner, self.hash, self.previous_hash, self.prisoners, self.supply) = saved;
        }
        r
    }

    /// An outcome from the final totals (rule 70): independents by team total, equal totals
    /// sharing a place; occupied factions below, in their occupiers' order, ties by seat.
    fn rank(&mut self, totals: Vec<f64>) {
        let n = self.players;
        let mut independents: Vec<Player> =
            (0..n as u8).map(Player).filter(|p| self.occupier(*p).is_none()).collect();
        independents.sort_by(|a, b| totals[b.index()].total_cmp(&totals[a.index()]).then(a.0.cmp(&b.0)));
        let mut places = vec![0u32; n];
        for (i, &p) in independents.iter().enumerate() {
            places[p.index()] = if i > 0 && totals[p.index()] == totals[independents[i - 1].index()] {
                places[independents[i - 1].index()]
            } else {
                i as u32 + 1
            };
        }
        let mut vassals: Vec<Player> =
            (0..n as u8).map(Player).filter(|p| self.occupier(*p).is_some()).collect();
        vassals.sort_by_key(|p| (self.occupier(*p).map_or(u32::MAX, |o| places[o.index()]), p.0));
        let mut ranking = independents.clone();
        for (i, &p) in vassals.iter().enumerate() {
            places[p.index()] = (independents.len() + i) as u32 + 1;
            ranking.push(p);
        }
        let scores: Vec<f64> = (0..n).map(|p| totals[self.team(Player(p as u8)).index()]).collect();
        self.emit(Event::GameOver { ranking: ranking.clone(), scores: scores.clone() });
        self.outcome =
            Some(Outcome { scores, ranking, places, reason: EndReason::Passes, tie_broken: false });
        self.phase = Phase::Finished;
    }
}
