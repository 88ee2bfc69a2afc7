//! The registry: the one list of rule systems. Everything that works on "a game of any system"
//! — records, the server, the terminal, matches, benchmarks, the web client's settings forms —
//! goes through [`AnyGame`], [`dispatch!`](crate::dispatch) or [`SYSTEMS`], all three made
//! from the list in the `registry!` invocation below. Adding a system is one line there (plus
//! its `mod` line in `systems/mod.rs`); see `docs/architecture.md`.

use std::sync::Arc;

use gobeyond_maps::Map;
use serde::{Deserialize, Serialize};
use serde_json::{Value, value::RawValue};

pub use crate::wire::{Object, to_object};
use crate::{
    BesiegeGame, CaptureGame, ClassicGame, GengoGame, GoBeyondGame, Outcome, Player, PlayerInfo, TribalGame,
    WayOfGoGame,
    system::{Preset, Refusal, RuleSystem, SettingInfo, SettingsError, Start, Turn, TurnClock, Viewer},
};

/// The rule system and its settings, in the system's own terms:
/// `{"system": "classic", "ko": "simple", ...}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "{ system: string, [key: string]: unknown }"))]
pub struct RulesSpec {
    pub system: String,
    #[serde(flatten)]
    pub settings: Object,
}

impl RulesSpec {
    /// The rules of a system with these settings.
    pub fn of<S: RuleSystem>(settings: &S::Settings) -> RulesSpec {
        RulesSpec { system: S::NAME.to_string(), settings: to_object(settings) }
    }

    /// The settings, if these are rules of `S`.
    pub fn settings_of<S: RuleSystem>(&self) -> Result<S::Settings, RulesError> {
        if self.system != S::NAME {
            return Err(RulesError::WrongSystem {
                expected: S::NAME.to_string(),
                found: self.system.clone(),
            });
        }
        serde_json::from_value(Value::Object(self.settings.clone()))
            .map_err(|e| RulesError::Settings(e.to_string()))
    }

    /// The registered system these rules belong to.
    pub fn info(&self) -> Result<&'static SystemInfo, RulesError> {
        SystemInfo::get(&self.system).ok_or_else(|| RulesError::UnknownSystem {
            name: self.system.clone(),
            known: SystemInfo::names(),
        })
    }
}

/// Why rules could not be used, or a game not started from them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    #[error("unknown rule system {name:?} (known: {known})")]
    UnknownSystem { name: String, known: String },
    #[error("the rules are for {found}, not {expected}")]
    WrongSystem { expected: String, found: String },
    #[error("{0}")]
    Settings(String),
    #[error("{0}")]
    Setup(String),
}

macro_rules! registry {
    ($($variant:ident: $ty:ty),* $(,)?) => {
        // `$` passed in as a token, so that the inner macro can have metavariables of its own.
        registry!(@dispatch ($) $($variant)*);

        /// A game of any registered rule system.
        #[derive(Debug, Clone)]
        #[allow(clippy::large_enum_variant)] // one per table or replay: boxing only adds noise
        pub enum AnyGame {
            $($variant($ty),)*
        }

        $(impl From<$ty> for AnyGame {
            fn from(g: $ty) -> AnyGame {
                AnyGame::$variant(g)
            }
        }

        impl TryFrom<AnyGame> for $ty {
            type Error = AnyGame;
            fn try_from(g: AnyGame) -> Result<$ty, AnyGame> {
                match g {
                    AnyGame::$variant(g) => Ok(g),
                    #[allow(unreachable_patterns)]
                    other => Err(other),
                }
            }
        })*

        /// Every rule system, in the order menus list them.
        pub static SYSTEMS: &[SystemInfo] = &[$(SystemInfo::of::<$ty>(),)*];
    };
    (@dispatch ($d:tt) $($variant:ident)*) => {
        /// Runs `$body` with `$g` bound to the game inside an [`AnyGame`] (by reference or by
        /// value, as `$game` is given), whatever its system: generic code written once for every
        /// system. Generated from the registry's list.
        #[macro_export]
        macro_rules! dispatch {
            ($d game:expr, $d g:ident => $d body:expr) => {
                match $d game {
                    $($crate::AnyGame::$variant($d g) => $d body,)*
                }
            };
        }
    };
}

registry! {
    GoBeyond: GoBeyondGame,
    Classic: ClassicGame,
    Tribal: TribalGame,
    Gengo: GengoGame,
    WayOfGo: WayOfGoGame,
    Besiege: BesiegeGame,
    Capture: CaptureGame,
}

/// A rule system as the rest of the program sees it, by name: description, settings, presets,
/// and a constructor. Built from the [`RuleSystem`] implementation, never by hand.
#[derive(Debug, Clone, Copy)]
pub struct SystemInfo {
    pub name: &'static str,
    pub title: &'static str,
    pub about: &'static str,
    /// The rules as implemented, in Markdown.
    pub document: &'static str,
    presets: fn() -> &'static [Preset],
    describe: fn() -> Vec<SettingInfo>,
    default_settings: fn() -> Object,
    preset: fn(&str) -> Option<Object>,
    check: fn(&Object, usize) -> Result<(), SettingsError>,
    clock: fn(&Object) -> Option<TurnClock>,
    start: fn(Arc<Map>, usize, &Object, &Start) -> Result<AnyGame, RulesError>,
    needs_history: fn(&Object) -> bool,
    settings_from_history: fn(&Object, &[crate::system::SeatHistory]) -> Option<Object>,
    /// The system's state, input and event types in TypeScript, for the web client.
    #[cfg(feature = "ts")]
    pub typescript: fn(&ts_rs::Config) -> crate::typescript::SystemDeclarations,
}

/// The settings of `S` from a JSON object, the error naming the setting when it can.
fn parse_settings<S: RuleSystem>(settings: &Object) -> Result<S::Settings, SettingsError> {
    serde_json::from_value(Value::Object(settings.clone())).map_err(|e| {
        let text = e.to_string();
        // serde names unknown fields; otherwise say which settings were given.
        let setting = text
            .split('`')
            .nth(1)
            .filter(|_| text.starts_with("unknown field"))
            .unwrap_or("settings")
            .to_string();
        SettingsError::new(setting, text)
    })
}

impl SystemInfo {
    const fn of<S: RuleSystem>() -> SystemInfo
    where
        AnyGame: From<S>,
    {
        SystemInfo {
            name: S::NAME,
            title: S::TITLE,
            about: S::ABOUT,
            document: S::DOCUMENT,
            presets: S::presets,
            describe: S::describe_settings,
            default_settings: || to_object(&S::Settings::default()),
            preset: |name| S::preset(name).map(|s| to_object(&s)),
            check: |o, players| S::validate(&parse_settings::<S>(o)?, players),
            clock: |o| parse_settings::<S>(o).ok().and_then(|s| S::clock(&s)),
            start: |map, players, o, start| {
                let settings = parse_settings::<S>(o).map_err(|e| RulesError::Settings(e.to_string()))?;
                S::validate(&settings, players).map_err(|e| RulesError::Settings(e.to_string()))?;
                S::start(map, players, settings, start)
                    .map(AnyGame::from)
                    .map_err(|e| RulesError::Setup(e.to_string()))
            },
            needs_history: S::needs_history,
            settings_from_history: S::settings_from_history,
            #[cfg(feature = "ts")]
            typescript: crate::typescript::SystemDeclarations::of::<S>,
        }
    }

    /// The system called `name` (case-insensitive).
    pub fn get(name: &str) -> Option<&'static SystemInfo> {
        SYSTEMS.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// Every system's name, for messages.
    pub fn names() -> String {
        SYSTEMS.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
    }

    pub fn presets(&self) -> &'static [Preset] {
        (self.presets)()
    }

    pub fn describe_settings(&self) -> Vec<SettingInfo> {
        (self.describe)()
    }

    pub fn default_settings(&self) -> Object {
        (self.default_settings)()
    }

    pub fn preset(&self, name: &str) -> Option<RulesSpec> {
        (self.preset)(name).map(|settings| RulesSpec { system: self.name.to_string(), settings })
    }

    /// The default rules of this system.
    pub fn default_rules(&self) -> RulesSpec {
        RulesSpec { system: self.name.to_string(), settings: self.default_settings() }
    }

    /// Checks settings for a game of `players`, naming the setting that is wrong.
    pub fn validate(&self, settings: &Object, players: usize) -> Result<(), SettingsError> {
        (self.check)(settings, players)
    }

    /// Whether a game with these settings takes settings from its players' history.
    pub fn needs_history(&self, given: &Object) -> bool {
        (self.needs_history)(given)
    }

    /// Settings to add from the seats' histories (see [`RuleSystem::settings_from_history`]).
    pub fn settings_from_history(
        &self,
        given: &Object,
        history: &[crate::system::SeatHistory],
    ) -> Option<Object> {
        (self.settings_from_history)(given, history)
    }

    /// The system's own clock for these settings, if it has one.
    pub fn clock(&self, settings: &Object) -> Option<TurnClock> {
        (self.clock)(settings)
    }

    pub fn start(
        &self,
        map: Arc<Map>,
        players: usize,
        settings: &Object,
        start: &Start,
    ) -> Result<AnyGame, RulesError> {
        (self.start)(map, players, settings, start)
    }
}

/// Rules by name: a system (`gobeyond`, `classic`: its defaults) or any system's preset
/// (`japanese`, `tromp-taylor`, ...). Presets are looked up in registry order.
pub fn rules_by_name(name: &str) -> Result<RulesSpec, String> {
    if let Some(s) = SystemInfo::get(name) {
        return Ok(s.default_rules());
    }
    SYSTEMS.iter().find_map(|s| s.preset(name)).ok_or_else(|| {
        let presets: Vec<&str> = SYSTEMS.iter().flat_map(|s| s.presets().iter().map(|p| p.name)).collect();
        format!(
            "unknown rules {name:?}: use a rule system ({}) or a preset ({})",
            SystemInfo::names(),
            presets.join(", ")
        )
    })
}

/// Rules by name with `NAME=VALUE` overrides (values in JSON; a bare word is a string).
pub fn rules_with(name: &str, overrides: &[String]) -> Result<RulesSpec, String> {
    let mut rules = rules_by_name(name)?;
    for s in overrides {
        let (key, raw) = s.split_once('=').ok_or_else(|| format!("a setting is NAME=VALUE, not {s:?}"))?;
        let v = serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.into()));
        rules.settings.insert(key.trim().to_string(), v);
    }
    Ok(rules)
}

fn raw<T: Serialize + ?Sized>(value: &T) -> Box<RawValue> {
    serde_json::value::to_raw_value(value)
        .unwrap_or_else(|_| serde_json::value::to_raw_value(&Value::Null).unwrap_or_default())
}

impl AnyGame {
    /// The system's name.
    pub fn system(&self) -> &'static str {
        fn name<S: RuleSystem>(_: &S) -> &'static str {
            S::NAME
        }
        dispatch!(self, g => name(g))
    }

    pub fn map(&self) -> &Arc<Map> {
        dispatch!(self, g => crate::Game::map(g))
    }

    pub fn player_count(&self) -> usize {
        dispatch!(self, g => crate::Game::player_count(g))
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        dispatch!(self, g => crate::Game::outcome(g))
    }

    pub fn turn(&self) -> Turn {
        dispatch!(self, g => RuleSystem::turn(g))
    }

    /// The seats that may act now (empty once the game is over).
    pub fn waiting_for(&self) -> Vec<Player> {
        self.turn().seats
    }

    pub fn rules(&self) -> RulesSpec {
        fn spec<S: RuleSystem>(g: &S) -> RulesSpec {
            RulesSpec { system: S::NAME.to_string(), settings: to_object(g.settings()) }
        }
        dispatch!(self, g => spec(g))
    }

    /// The system's own clock, if its settings define one.
    pub fn clock(&self) -> Option<TurnClock> {
        fn clock<S: RuleSystem>(g: &S) -> Option<TurnClock> {
            S::clock(g.settings())
        }
        dispatch!(self, g => clock(g))
    }

    pub fn start_position(&self) -> Start {
        dispatch!(self, g => g.start_position())
    }

    /// Plays one input in wire form, checked: a refusal leaves the game unchanged.
    pub fn submit(&mut self, seat: Player, input: &Object) -> Result<(), Refusal> {
        fn submit<S: RuleSystem>(g: &mut S, seat: Player, input: &Object) -> Result<(), Refusal> {
            if seat.index() >= crate::Game::player_count(g) {
                return Err(Refusal::new("unknown_player", format!("there is no player {}", seat.0)));
            }
            let m: S::Move = serde_json::from_value(Value::Object(input.clone())).map_err(|e| {
                let text = e.to_string();
                let kind = input.get("type").and_then(Value::as_str).unwrap_or_default();
                let message = match text.split_once("expected one of ") {
                    Some((_, known)) if text.starts_with("unknown variant") => {
                        format!("{} has no {kind:?} action (it has {known})", S::TITLE)
                    }
                    _ => format!("not a {} action: {text}", S::TITLE),
                };
                Refusal::new("bad_action", message)
            })?;
            g.submit(seat, &m)
        }
        dispatch!(self, g => submit(g, seat, input))
    }

    /// Seats whose decision a computer makes for them (their player is gone).
    pub fn decided_for(&self) -> Vec<Player> {
        dispatch!(self, g => RuleSystem::decided_for(g))
    }

    /// The system's time for the decision now, in ms (see [`RuleSystem::decision_seconds`]).
    pub fn decision_ms(&self) -> Option<i64> {
        dispatch!(self, g => RuleSystem::decision_seconds(g)).map(|s| (s * 1000.0) as i64)
    }

    /// The seats waiting, as every viewer may be told (see [`RuleSystem::public_seats`]).
    pub fn public_waiting_for(&self) -> Vec<Player> {
        dispatch!(self, g => RuleSystem::public_seats(g))
    }

    /// The seats waiting, as `viewer` may be told: the public list, less the viewer's own seat
    /// once it has answered (its own answer is no secret to it).
    pub fn waiting_for_viewer(&self, viewer: Viewer) -> Vec<Player> {
        let mut seats = self.public_waiting_for();
        if let Viewer::Seat(me) = viewer
            && !self.turn().seats.contains(&me)
        {
            seats.retain(|&p| p != me);
        }
        seats
    }

    /// `seat`'s input as `viewer` may see it: hidden parts (a drawn card, a secret answer) left
    /// out. None: unchanged.
    pub fn redact(&self, seat: Player, input: &Object, viewer: Viewer) -> Option<Object> {
        fn redact<S: RuleSystem>(g: &S, seat: Player, input: &Object, viewer: Viewer) -> Option<Object> {
            let m: S::Move = serde_json::from_value(Value::Object(input.clone())).ok()?;
            g.redact(seat, &m, viewer).map(|m| to_object(&m))
        }
        if !self.hidden_information() {
            return None;
        }
        dispatch!(self, g => redact(g, seat, input, viewer))
    }

    /// Whether a seat may send this input itself (time-outs and chance are the server's).
    pub fn seat_may_send(&self, input: &Object) -> bool {
        fn may<S: RuleSystem>(_: &S, input: &Object) -> bool {
            serde_json::from_value::<S::Move>(Value::Object(input.clone()))
                .map_or(true, |m| S::seat_may_send(&m))
        }
        dispatch!(self, g => may(g, input))
    }

    /// What the clock plays for `seat`.
    pub fn timeout_input(&self, seat: Player) -> Object {
        dispatch!(self, g => to_object(&g.timeout_move(seat)))
    }

    /// The mildest input for a computer seat that could not decide.
    pub fn fallback_input(&self, seat: Player) -> Object {
        dispatch!(self, g => to_object(&g.fallback_move(seat)))
    }

    /// An input for `seat` to try, in wire form (fuzzing, tests): mostly one of the legal
    /// actions of the player to move, else what the clock or a failed computer would send.
    pub fn sample_input(&self, seat: Player, rng: &mut crate::Rng) -> Object {
        fn sample<S: RuleSystem>(g: &S, seat: Player, rng: &mut crate::Rng) -> Object {
            let mut actions = Vec::new();
            if crate::Game::to_move(g) == Some(seat) {
                crate::Game::legal_actions(g, &mut actions);
            }
            match rng.below(8) {
                0 => to_object(&g.timeout_move(seat)),
                _ if !actions.is_empty() => {
                    to_object(&g.to_wire(actions[rng.below(actions.len() as u32) as usize]))
                }
                _ => to_object(&g.fallback_move(seat)),
            }
        }
        dispatch!(self, g => sample(g, seat, rng))
    }

    /// The pending chance event drawn with `rng`, with the seat it belongs to.
    pub fn draw_chance(&self, rng: &mut crate::Rng) -> Option<(Player, Object)> {
        let seat = self.turn().chance?;
        dispatch!(self, g => g.draw_chance(rng).map(|m| (seat, to_object(&m))))
    }

    /// How many inputs have been played.
    pub fn input_count(&self) -> usize {
        dispatch!(self, g => g.input_count())
    }

    /// Input `i` (from 0) in wire form, nodes with both number and label.
    pub fn input(&self, i: usize) -> Option<(Player, Object)> {
        dispatch!(self, g => g.input(i).map(|(p, m)| (p, to_object(&m))))
    }

    pub fn event_count(&self) -> usize {
        dispatch!(self, g => g.events().len())
    }

    /// Events from `from` on, as one JSON array.
    pub fn events_json(&self, from: usize) -> Box<RawValue> {
        dispatch!(self, g => raw(g.events().get(from..).unwrap_or_default()))
    }

    /// Every event so far, as JSON values (records).
    pub fn events(&self) -> Vec<Value> {
        dispatch!(self, g => g.events().iter().map(|e| serde_json::to_value(e).unwrap_or_default()).collect())
    }

    /// Whether seats see different states (then each gets its own view).
    pub fn hidden_information(&self) -> bool {
        dispatch!(self, g => g.hidden_information())
    }

    /// The state as `viewer` sees it; `history` adds every event so far.
    pub fn view(&self, viewer: Viewer, names: &[PlayerInfo], history: bool) -> Box<RawValue> {
        dispatch!(self, g => raw(&g.view(viewer, names, history)))
    }

    /// The state as pretty JSON (`gobeyond replay`).
    pub fn state_json(&self, names: &[PlayerInfo]) -> String {
        dispatch!(self, g => serde_json::to_string_pretty(&g.view(Viewer::Spectator, names, true)).unwrap_or_default())
    }

    /// The game in SGF, for systems SGF describes.
    pub fn sgf(&self, players: &[PlayerInfo], date: Option<&str>) -> Result<String, String> {
        let name = self.system();
        dispatch!(self, g => g.sgf(players, date))
            .unwrap_or_else(|| Err(format!("SGF cannot describe {name} games: use the JSON record")))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn every_system_is_listed_once_with_its_document() {
        let mut names: Vec<&str> = SYSTEMS.iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), SYSTEMS.len());
        for s in SYSTEMS {
            assert!(s.document.starts_with('#'), "{} has no rules document", s.name);
            assert!(!s.describe_settings().is_empty(), "{} describes no settings", s.name);
            // The defaults are valid, and every described setting is one of them.
            s.validate(&s.default_settings(), 2).unwrap();
            for d in s.describe_settings() {
                let mut o = s.default_settings();
                o.insert(d.name.to_string(), d.default.clone());
                s.validate(&o, 2).unwrap_or_else(|e| panic!("{}.{}: {e}", s.name, d.name));
            }
            for p in s.presets() {
                let rules = s.preset(p.name).unwrap();
                s.validate(&rules.settings, 2).unwrap();
            }
        }
    }

    /// A choice offered in a form is a value the settings accept (choices come from the enums).
    #[test]
    fn every_described_choice_is_accepted() {
        for s in SYSTEMS {
            for d in s.describe_settings().iter().filter(|d| d.kind == "choice") {
                assert!(!d.choices.is_empty(), "{}.{} offers no choice", s.name, d.name);
                assert!(d.choices.contains(&d.default.as_str().unwrap_or_default()), "{}.{}", s.name, d.name);
                for choice in d.choices {
                    let mut o = s.default_settings();
                    o.insert(d.name.to_string(), Value::from(*choice));
                    s.validate(&o, 2).unwrap_or_else(|e| panic!("{}.{} = {choice}: {e}", s.name, d.name));
                }
            }
        }
    }

    #[test]
    fn rules_by_name_finds_systems_and_presets() {
        assert_eq!(rules_by_name("gobeyond").unwrap().system, "gobeyond");
        assert_eq!(rules_by_name("Japanese").unwrap().system, "classic");
        let e = rules_by_name("chess").unwrap_err();
        assert!(e.contains("gobeyond") && e.contains("tromp-taylor"), "{e}");
        let r = rules_with("gobeyond", &["turn_seconds=0".into()]).unwrap();
        assert_eq!(r.settings["turn_seconds"], 0);
    }

    #[test]
    fn a_bad_setting_is_named() {
        let s = SystemInfo::get("gobeyond").unwrap();
        let mut o = s.default_settings();
        o.insert("occupy_cost".into(), Value::from(-1));
        assert_eq!(s.validate(&o, 3).unwrap_err().setting, "occupy_cost");
        let mut o = s.default_settings();
        o.insert("colour".into(), Value::from(1));
        assert_eq!(s.validate(&o, 3).unwrap_err().setting, "colour");
    }
}
