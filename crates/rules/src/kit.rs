//! What every rule system would otherwise write for itself: refusal codes derived from its
//! refusal enum, settings descriptions whose choices come from the settings' own enums, an
//! input log, and undo by replay through the trait.

use serde::Serialize;
use strum::VariantNames;

use crate::{
    Player,
    system::{Refusal, RuleSystem, SettingInfo},
};

impl Refusal {
    /// The refusal of `illegal`, its code the variant's name in `snake_case` (derive
    /// `strum::IntoStaticStr` with `serialize_all = "snake_case"` on the refusal enum; a
    /// `#[strum(serialize = "…")]` keeps an older code), with the system's sentence.
    pub fn of<E>(illegal: &E, message: impl Into<String>) -> Refusal
    where
        for<'a> &'a E: Into<&'static str>,
    {
        Refusal::new(illegal.into(), message)
    }
}

impl SettingInfo {
    fn with(
        name: &'static str,
        kind: &'static str,
        default: impl Serialize,
        help: &'static str,
    ) -> SettingInfo {
        SettingInfo {
            name,
            kind,
            default: serde_json::to_value(default).unwrap_or_default(),
            help,
            choices: &[],
            min: None,
            max: None,
        }
    }

    /// One of an enum's values; the choices are its serde names (derive `strum::VariantNames`
    /// with the same renaming as serde; the registry tests check that every choice is accepted).
    pub fn choice<E: VariantNames + Serialize>(
        name: &'static str,
        default: E,
        help: &'static str,
    ) -> SettingInfo {
        SettingInfo { choices: E::VARIANTS, ..SettingInfo::with(name, "choice", default, help) }
    }

    /// A whole number.
    pub fn integer(name: &'static str, default: impl Serialize, help: &'static str) -> SettingInfo {
        SettingInfo::with(name, "integer", default, help)
    }

    /// A number.
    pub fn number(name: &'static str, default: impl Serialize, help: &'static str) -> SettingInfo {
        SettingInfo::with(name, "number", default, help)
    }

    /// A whole number, or none.
    pub fn optional_integer(name: &'static str, default: impl Serialize, help: &'static str) -> SettingInfo {
        SettingInfo::with(name, "optional_integer", default, help)
    }

    /// A list of whole numbers.
    pub fn integers(name: &'static str, default: impl Serialize, help: &'static str) -> SettingInfo {
        SettingInfo::with(name, "integers", default, help)
    }

    pub fn boolean(name: &'static str, default: bool, help: &'static str) -> SettingInfo {
        SettingInfo::with(name, "boolean", default, help)
    }

    /// Values from `min` to `max`.
    pub fn range(self, min: f64, max: f64) -> SettingInfo {
        SettingInfo { min: Some(min), max: Some(max), ..self }
    }

    /// Values from `min` up.
    pub fn at_least(self, min: f64) -> SettingInfo {
        SettingInfo { min: Some(min), ..self }
    }

    /// Only some of the choices (a system that allows part of a shared enum).
    pub fn only(self, choices: &'static [&'static str]) -> SettingInfo {
        SettingInfo { choices, ..self }
    }
}

/// A game's inputs in the order they were played, each with its seat: what `input_count` and
/// `input(i)` read, and what undo replays.
#[derive(Debug, PartialEq, Eq)]
pub struct InputLog<I>(Vec<(Player, I)>);

/// `clone_from` reuses the buffer: search copies a game once per simulation.
impl<I: Clone> Clone for InputLog<I> {
    fn clone(&self) -> Self {
        InputLog(self.0.clone())
    }

    fn clone_from(&mut self, other: &Self) {
        self.0.clone_from(&other.0);
    }
}

impl<I> Default for InputLog<I> {
    fn default() -> Self {
        InputLog(Vec::new())
    }
}

impl<I: Clone> InputLog<I> {
    pub fn push(&mut self, seat: Player, input: I) {
        self.0.push((seat, input));
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn as_slice(&self) -> &[(Player, I)] {
        &self.0
    }

    /// Input `i` in wire form.
    pub fn wire<M>(&self, i: usize, to_wire: impl FnOnce(&I) -> M) -> Option<(Player, M)> {
        self.0.get(i).map(|(p, input)| (*p, to_wire(input)))
    }
}

/// The game as it was after its first `keep` inputs, replayed from its start through the trait
/// (`start`, `input`, `submit`): every system's undo. None if a replayed input is refused (a
/// system whose inputs do not replay is a bug the replay tests catch). The copy records its
/// events like any new game: undo is for games people play, not for search copies.
pub fn replay_first<S: RuleSystem>(game: &S, keep: usize) -> Option<S> {
    let mut fresh =
        S::start(game.map().clone(), game.player_count(), game.settings().clone(), &game.start_position())
            .ok()?;
    for i in 0..keep {
        let (seat, input) = game.input(i)?;
        fresh.submit(seat, &input).ok()?;
    }
    Some(fresh)
}

/// Takes back the last input (replaying the rest); false when there is none.
pub fn undo_last<S: RuleSystem>(game: &mut S) -> bool {
    let Some(keep) = game.input_count().checked_sub(1) else { return false };
    match replay_first(game, keep) {
        Some(g) => {
            *game = g;
            true
        }
        None => false,
    }
}
