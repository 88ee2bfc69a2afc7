//! The Gengo game engine: turns, captures in two steps, the ko, the end by passes and the
//! outcome, over the incremental [`GengoBoard`]. Readings (A3) are those of
//! `docs/rules/spec/gengo.md`.

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId};

use super::{Effects, Event, GengoBoard, GengoKo, GengoRules, GengoScoring, RegionTables, regions, scoring};
use crate::{
    EndReason, Game, Outcome, Player, kit::InputLog, rank, setup::SetupError, system::SettingsError,
};

/// What the player to move may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Place(NodeId),
    Pass,
    Resign,
}

/// One input of the game: an action, or a seat's clock running out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    Act(Action),
    Timeout,
}

/// Why a play was refused. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Illegal {
    #[error("node {node} is not on the map")]
    UnknownNode { node: u64 },
    #[error("there is a stone on node {node}")]
    Occupied { node: NodeId },
    #[error("node {node} is inside the overlap of a stone of player {by}")]
    #[strum(serialize = "overlap")]
    Overlapped { node: NodeId, by: u8 },
    #[error("node {node} would recapture the ko stone at once")]
    Ko { node: NodeId },
    #[error("node {node} would repeat an earlier position")]
    Superko { node: NodeId },
    #[error("node {node} would be suicide")]
    Suicide { node: NodeId },
    #[error("node {node} would kill another group of the mover's")]
    FriendlyFire { node: NodeId },
    #[error("it is not player {player}'s turn")]
    NotYourTurn { player: u8 },
    #[error("the game is over")]
    GameOver,
}

impl Illegal {
    /// A sentence for people, with node labels and colour names.
    pub fn describe(&self, map: &Map) -> String {
        let label = |n: NodeId| map.label(n).to_string();
        let colour = |p: u8| Player(p).color_name(2);
        match *self {
            Illegal::UnknownNode { node } => format!("node {node} is not on this map ({} nodes)", map.len()),
            Illegal::Occupied { node } => format!("{} already holds a stone", label(node)),
            Illegal::Overlapped { node, by } => {
                format!("{} is inside the overlap region of a {} stone", label(node), colour(by))
            }
            Illegal::Ko { node } => format!(
                "{} would recapture the single stone that just captured a single stone (ko): play \
                 elsewhere first",
                label(node)
            ),
            Illegal::Superko { node } => {
                format!("{} would repeat an earlier position (superko)", label(node))
            }
            Illegal::Suicide { node } => {
                format!("{} would leave its own group without liberties (suicide is off)", label(node))
            }
            Illegal::FriendlyFire { node } => {
                format!("{} would kill another of your groups (friendly fire is off)", label(node))
            }
            Illegal::NotYourTurn { player } => format!("it is not {}'s turn", colour(player)),
            Illegal::GameOver => "the game is over".into(),
        }
    }
}

/// A game of Gengo.
#[derive(Debug)]
pub struct GengoGame {
    map: Arc<Map>,
    rules: GengoRules,
    board: GengoBoard,
    /// Scratch board for plays whose legality depends on their result (ko, options).
    trial: GengoBoard,
    /// Scratch list of removed stones.
    removed: Vec<NodeId>,
    setup: Vec<(NodeId, Player)>,
    first: Player,
    inputs: InputLog<Input>,
    /// Turns played (plays and passes).
    turns: u32,
    passes: u32,
    /// The stone just played and its owner, when its play removed exactly one stone.
    ko: Option<(NodeId, Player)>,
    /// Positions after each play, for positional superko.
    history: Vec<u64>,
    /// Opposing stones each player's plays captured (step 1).
    captures: [u32; 2],
    /// Each player's stones removed, by either player (suicide and friendly fire included).
    lost: [u32; 2],
    resigned: Vec<Player>,
    outcome: Option<Outcome>,
    events: Vec<Event>,
    recording: bool,
}

clone_reusing!(GengoGame {
    map,
    rules,
    board,
    trial,
    removed,
    setup,
    first,
    inputs,
    turns,
    passes,
    ko,
    history,
    captures,
    lost,
    resigned,
    outcome,
    events,
    recording,
});

impl GengoGame {
    /// A new game; `setup` stones are put on the board first (each on an open space, none
    /// captured), and `first` moves first (Black unless said; Black with a handicap).
    pub fn new(
        map: Arc<Map>,
        rules: GengoRules,
        setup: &[(NodeId, Player)],
        first: Player,
    ) -> Result<GengoGame, SetupError> {
        regions::validate(&rules.regions).map_err(|e| SetupError::Rules(e.to_string()))?;
        let tables =
            Arc::new(RegionTables::new(&map, &rules.regions).map_err(|e| SetupError::Rules(e.to_string()))?);
        let own = rules.own_overlap.allowed();
        let mut board = GengoBoard::new(tables.clone(), own);
        for (index, &(node, player)) in setup.iter().enumerate() {
            if !map.contains(node as u64) {
                return Err(SetupError::UnknownNode { index, node: node as u64 });
            }
            if player.index() >= 2 {
                return Err(SetupError::UnknownPlayer { index, player: player.0, players: 2 });
            }
            if !board.open_for(node, player) {
                return Err(SetupError::Occupied { index, node });
            }
            board.put(node, player);
        }
        for &(node, _) in setup {
            if !board.has_liberty(node) {
                return Err(SetupError::NoLiberties { node });
            }
        }
        if first.index() >= 2 || (rules.handicap > 0 && first != Player(0)) {
            return Err(SetupError::Handicap(format!(
                "player {} cannot move first{}",
                first.0,
                if rules.handicap > 0 { " with a handicap (Black takes it)" } else { "" }
            )));
        }
        let history = if rules.ko == GengoKo::PositionalSuperko { vec![board.hash()] } else { Vec::new() };
        Ok(GengoGame {
            trial: GengoBoard::new(tables, own),
            board,
            map,
            rules,
            removed: Vec::with_capacity(64),
            setup: setup.to_vec(),
            first,
            inputs: InputLog::default(),
            turns: 0,
            passes: 0,
            ko: None,
            history,
            captures: [0; 2],
            lost: [0; 2],
            resigned: Vec::new(),
            outcome: None,
            events: Vec::new(),
            recording: true,
        })
    }

    /// Checks settings for a game of `players` (regions are checked against the map at start).
    pub fn validate(rules: &GengoRules, players: usize) -> Result<(), SettingsError> {
        if players != 2 {
            return Err(SettingsError::new("players", format!("Gengo is for two players, not {players}")));
        }
        regions::validate(&rules.regions)?;
        if !rules.komi.is_finite() || rules.komi.abs() > 1000.0 {
            return Err(SettingsError::new(
                "komi",
                format!("must be from -1000 to 1000, not {}", rules.komi),
            ));
        }
        if rules.handicap == 1 || rules.handicap > 50 {
            return Err(SettingsError::new(
                "handicap",
                format!("is 0 (none) or 2 to 50 consecutive Black plays, not {}", rules.handicap),
            ));
        }
        if rules.max_turns == Some(0) {
            return Err(SettingsError::new("max_turns", "must be at least 1"));
        }
        Ok(())
    }

    pub fn rules(&self) -> &GengoRules {
        &self.rules
    }

    pub fn board(&self) -> &GengoBoard {
        &self.board
    }

    pub fn setup(&self) -> &[(NodeId, Player)] {
        &self.setup
    }

    pub fn first_player(&self) -> Player {
        self.first
    }

    pub fn inputs(&self) -> &[(Player, Input)] {
        self.inputs.as_slice()
    }

    pub fn turns(&self) -> u32 {
        self.turns
    }

    pub fn consecutive_passes(&self) -> u32 {
        self.passes
    }

    /// The stone that may not be recaptured alone right now, with its owner.
    pub fn ko_stone(&self) -> Option<(NodeId, Player)> {
        self.ko
    }

    /// Opposing stones `player`'s plays captured.
    pub fn captures(&self, player: Player) -> u32 {
        self.captures[player.index()]
    }

    /// `player`'s stones removed from the board: captured by the opponent, or by their own
    /// suicide and friendly fire.
    pub fn lost(&self, player: Player) -> u32 {
        self.lost[player.index()]
    }

    pub fn resigned(&self) -> &[Player] {
        &self.resigned
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Search copies record no events.
    pub fn set_recording(&mut self, on: bool) {
        self.recording = on;
        if !on {
            self.events.clear();
        }
    }

    /// The player whose turn it is by the turn count (also after the end).
    pub fn next_player(&self) -> Player {
        let h = self.rules.handicap;
        if h >= 2 {
            if self.turns < h { Player(0) } else { Player(((self.turns - h + 1) % 2) as u8) }
        } else {
            Player(((self.first.0 as u32 + self.turns) % 2) as u8)
        }
    }

    /// Stone counts with komi (White's), per player.
    pub fn stone_scores(&self) -> Vec<f64> {
        (0..2u8)
            .map(|i| self.board.stones(Player(i)) as f64 + if i == 1 { self.rules.komi } else { 0.0 })
            .collect()
    }

    /// Area counts with komi, per player.
    pub fn area_scores(&self) -> Vec<f64> {
        let a = scoring::area(&self.board, &self.map).counts;
        (0..2).map(|i| a[i] as f64 + if i == 1 { self.rules.komi } else { 0.0 }).collect()
    }

    /// The scores that decide the game.
    pub fn scores(&self) -> Vec<f64> {
        match self.rules.scoring {
            GengoScoring::Stones => self.stone_scores(),
            GengoScoring::Area => self.area_scores(),
        }
    }

    fn needs_trial(&self, p: NodeId, mover: Player) -> bool {
        let r = &self.rules;
        !r.suicide.allowed()
            || !r.friendly_fire.allowed()
            || r.ko == GengoKo::PositionalSuperko
            || (r.ko == GengoKo::Singleton
                && self.ko.is_some_and(|(k, owner)| {
                    owner != mover && self.board.tables().reach(p).binary_search(&k).is_ok()
                }))
    }

    /// The checks that need no trial: turn, node, overlap.
    fn precheck(&self, action: Action) -> Result<Player, Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        let mover = self.next_player();
        if let Action::Place(p) = action {
            if !self.map.contains(p as u64) {
                return Err(Illegal::UnknownNode { node: p as u64 });
            }
            if self.board.stone_at(p).is_some() {
                return Err(Illegal::Occupied { node: p });
            }
            if !self.board.open_for(p, mover) {
                let c = self.board.cover(p);
                let by = if c[1 - mover.index()] > 0 { 1 - mover.index() } else { mover.index() };
                return Err(Illegal::Overlapped { node: p, by: by as u8 });
            }
        }
        Ok(mover)
    }

    /// Whether a trial play's effects are allowed.
    fn judge(&self, p: NodeId, mover: Player, fx: &Effects, after: &GengoBoard) -> Result<(), Illegal> {
        let r = &self.rules;
        if fx.suicide && !r.suicide.allowed() {
            return Err(Illegal::Suicide { node: p });
        }
        if fx.friendly_fire && !r.friendly_fire.allowed() {
            return Err(Illegal::FriendlyFire { node: p });
        }
        match r.ko {
            GengoKo::Singleton => {
                if let Some((k, owner)) = self.ko
                    && owner != mover
                    && fx.removed() == 1
                    && fx.single == Some(k)
                {
                    return Err(Illegal::Ko { node: p });
                }
            }
            GengoKo::PositionalSuperko => {
                if self.history.contains(&after.hash()) {
                    return Err(Illegal::Superko { node: p });
                }
            }
            GengoKo::None => {}
        }
        Ok(())
    }

    /// Plays `action` for the player whose turn it is.
    fn apply(&mut self, action: Action) -> Result<(), Illegal> {
        let mover = self.precheck(action)?;
        match action {
            Action::Place(p) => {
                self.removed.clear();
                let order = self.rules.self_capture_order;
                let fx = if self.needs_trial(p, mover) {
                    self.trial.clone_from(&self.board);
                    let fx = self.trial.play(p, mover, order, &mut self.removed);
                    self.judge(p, mover, &fx, &self.trial)?;
                    std::mem::swap(&mut self.board, &mut self.trial);
                    fx
                } else {
                    self.board.play(p, mover, order, &mut self.removed)
                };
                self.captures[mover.index()] += fx.captured;
                self.lost[1 - mover.index()] += fx.captured;
                self.lost[mover.index()] += fx.lost;
                self.ko = (fx.removed() == 1 && self.board.stone_at(p).is_some()).then_some((p, mover));
                if self.rules.ko == GengoKo::PositionalSuperko {
                    self.history.push(self.board.hash());
                }
                self.passes = 0;
                if self.recording {
                    self.events.push(Event::Placed { player: mover, node: p });
                    let (theirs, own) = self.removed.split_at(fx.captured as usize);
                    for (owner, nodes) in [(Player(1 - mover.0), theirs), (mover, own)] {
                        if !nodes.is_empty() {
                            self.events.push(Event::Captured { player: mover, owner, nodes: nodes.to_vec() });
                        }
                    }
                }
            }
            Action::Pass => {
                self.passes += 1;
                // A3: a pass lifts the ko.
                self.ko = None;
                if self.recording {
                    self.events.push(Event::Passed { player: mover, consecutive: self.passes });
                }
            }
            Action::Resign => {
                self.inputs.push(mover, Input::Act(action));
                self.resigned.push(mover);
                if self.recording {
                    self.events.push(Event::Resigned { player: mover });
                }
                self.finish(EndReason::Resignation);
                return Ok(());
            }
        }
        self.inputs.push(mover, Input::Act(action));
        self.turns += 1;
        if self.passes >= 3 {
            self.finish(EndReason::Passes);
        } else if self.turns >= self.rules.turn_limit(self.map.len()) {
            self.finish(EndReason::TurnLimit);
        }
        Ok(())
    }

    /// `seat` ran out of time and loses.
    pub fn time_out(&mut self, seat: Player) -> Result<(), Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        self.inputs.push(seat, Input::Timeout);
        self.resigned.push(seat);
        if self.recording {
            self.events.push(Event::TimedOut { player: seat });
        }
        self.finish(EndReason::Time);
        Ok(())
    }

    /// Plays `action` as `seat`, which must be the player to move.
    pub fn play_as(&mut self, seat: Player, action: Action) -> Result<(), Illegal> {
        if self.outcome.is_none() && seat != self.next_player() && action != Action::Resign {
            return Err(Illegal::NotYourTurn { player: seat.0 });
        }
        if action == Action::Resign && seat != self.next_player() {
            // Resigning out of turn: the game ends all the same.
            if self.outcome.is_some() {
                return Err(Illegal::GameOver);
            }
            self.inputs.push(seat, Input::Act(action));
            self.resigned.push(seat);
            if self.recording {
                self.events.push(Event::Resigned { player: seat });
            }
            self.finish(EndReason::Resignation);
            return Ok(());
        }
        self.apply(action)
    }

    /// Takes back the last input (replaying the rest); false when there is none.
    pub fn undo(&mut self) -> bool {
        crate::kit::undo_last(self)
    }

    fn finish(&mut self, reason: EndReason) {
        let scores = self.scores();
        let ranking = rank(&scores, &self.resigned);
        let outcome = Outcome::new(scores, ranking, &self.resigned, reason);
        if self.recording {
            self.events.push(Event::GameOver { outcome: outcome.clone() });
        }
        self.outcome = Some(outcome);
    }
}

impl Game for GengoGame {
    type Action = Action;
    type Illegal = Illegal;

    fn map(&self) -> &Arc<Map> {
        &self.map
    }

    fn player_count(&self) -> usize {
        2
    }

    fn to_move(&self) -> Option<Player> {
        self.outcome.is_none().then(|| self.next_player())
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let mover = self.next_player();
        for p in self.map.nodes() {
            if self.board.open_for(p, mover)
                && (!self.needs_trial(p, mover) || self.check(Action::Place(p)).is_ok())
            {
                out.push(Action::Place(p));
            }
        }
        out.push(Action::Pass);
    }

    fn check(&self, action: Action) -> Result<(), Illegal> {
        let mover = self.precheck(action)?;
        if let Action::Place(p) = action
            && self.needs_trial(p, mover)
        {
            let mut trial = self.board.clone();
            let mut removed = Vec::new();
            let fx = trial.play(p, mover, self.rules.self_capture_order, &mut removed);
            return self.judge(p, mover, &fx, &trial);
        }
        Ok(())
    }

    fn play(&mut self, action: Action) -> Result<(), Illegal> {
        self.apply(action)
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}
