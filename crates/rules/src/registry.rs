//! The registry: the one list of rule systems. Everything that works on "a game of any system"
//! — records, the server, the terminal, matches, benchmarks, the web client's settings forms —
//! goes through [`AnyGame`], [`dispatch!`](crate::dispatch) or [`SYSTEMS`], all three made
//! from the list in the `registry!` invocation below. Adding a system is one line there (plus
//! its `mod` line in `systems/mod.rs`); see `docs/architecture.md`.

use std::sync::Arc;

use gobeyond_maps::Map;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use crate::wire::{Object, to_object};
use crate::{
    BesiegeGame, CaptureGame, ClassicGame, GengoGame, GoBeyondGame, TribalGame, WayOfGoGame,
    system::{Preset, RuleSystem, SettingInfo, SettingsError, Start, TurnClock},
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

// After the list: `dispatch!`, which the list makes, is in scope there.
mod any_game;

/// A rule system as the rest of the program sees it, by name: description, settings, presets,
/// and a constructor. Built from the [`RuleSystem`] implementation, never by hand.
#[derive(Debug, Clone, Copy)]
pub struct SystemInfo {
    pub name: &'static str,
    pub title: &'static str,
    pub about: &'static str,
    /// The rules as implemented, in Markdown.
    pub document: &'static str,
    /// See [`RuleSystem::STATE_BYTES_PER_NODE`].
    pub state_bytes_per_node: usize,
    /// See [`RuleSystem::RATED_IN_KYU_DAN`].
    pub rated_in_kyu_dan: bool,
    presets: fn() -> &'static [Preset],
    describe: fn() -> Vec<SettingInfo>,
    default_settings: fn() -> Object,
    defaults_for: fn(&Object) -> Object,
    result_notation: fn(&crate::Outcome, usize) -> Option<String>,
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
            state_bytes_per_node: S::STATE_BYTES_PER_NODE,
            rated_in_kyu_dan: S::RATED_IN_KYU_DAN,
            presets: S::presets,
            describe: S::describe_settings,
            default_settings: || to_object(&S::Settings::default()),
            defaults_for: |given| to_object(&S::defaults_for(given)),
            result_notation: S::result_notation,
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

    /// The defaults for the settings not `given` (see [`RuleSystem::defaults_for`]).
    pub fn defaults_for(&self, given: &Object) -> Object {
        (self.defaults_for)(given)
    }

    /// The result in the system's notation, if it has one (see
    /// [`RuleSystem::result_notation`]).
    pub fn result_notation(&self, outcome: &crate::Outcome, players: usize) -> Option<String> {
        (self.result_notation)(outcome, players)
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
