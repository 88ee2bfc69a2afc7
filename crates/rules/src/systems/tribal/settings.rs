//! Tribal Go's settings (`docs/rules/spec/tribal.md`, rules 2, 10, 13, 33, 71–73; the rule and
//! reading numbers below are that spec's): every choice the document leaves open is a setting
//! with a default.

use serde::{Deserialize, Serialize};

use crate::MAX_PLAYERS;

/// How far a stone may go from the player's start point or stones (rule 24, option `range`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum RangeRule {
    /// The casual game: roll 2d6 each Play, the higher die is the range; a pair draws a card.
    #[default]
    Dice,
    /// A fixed range (`fixed_range` steps): the Pro game.
    Fixed,
    /// Anywhere on the map.
    Unlimited,
}

/// Repetition (rule 33, A6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, strum::VariantNames)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum TribalKo {
    /// No position over owners may ever recur (the document's "may never be returned").
    #[default]
    PositionalSuperko,
    /// Only the position before the previous action (the literal short reading).
    Simple,
}

/// The settings of a Tribal Go game. Missing fields in JSON take these defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TribalRules {
    pub range: RangeRule,
    /// The range under `range: fixed` (the Pro preset: 5, the median of the higher of 2d6).
    pub fixed_range: u32,
    pub ko: TribalKo,
    /// Stones each player may place in all (the document's "80-100"); `None`: unlimited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stones_per_player: Option<u32>,
    /// Handicap value per seat, −5 to 0 (rule 10: −(games played + games won), at most −5);
    /// missing seats are 0 (never played). Each seat owes the difference to the lowest value.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub handicap: Vec<i32>,
    /// How far a handicap stone may go from the player's start point or stones (rule 13).
    pub handicap_distance: u32,
    /// The deck of cards (rule 73): drawn on a pass and on a pair of dice. A setting missing
    /// from the JSON reads as no cards: records written before the deck existed replay as they
    /// were played. The `tribal` preset and [`TribalRules::default`] have them.
    #[serde(default)]
    pub cards: bool,
    /// Two Replace Any cards in the deck (52 cards; the document removed them as "too
    /// powerful").
    #[serde(default)]
    pub replace_any: bool,
    /// Under a time control: seconds to answer a surrender offer (declined when it runs out).
    #[serde(default = "answer_seconds")]
    pub answer_seconds: u32,
    /// How long a reaction window lasts, under any clock or none: it runs this long unless a
    /// Reject is played, so its length says nothing about who holds one. Settings and records
    /// from before it read the default.
    #[serde(default = "reaction_seconds")]
    pub reaction_seconds: u32,
}

fn answer_seconds() -> u32 {
    15
}

fn reaction_seconds() -> u32 {
    5
}

/// The shortest and longest reaction window: long enough to click, short enough not to stall.
pub const REACTION_SECONDS: std::ops::RangeInclusive<u32> = 2..=60;

impl Default for TribalRules {
    fn default() -> Self {
        TribalRules {
            range: RangeRule::Dice,
            fixed_range: 5,
            ko: TribalKo::PositionalSuperko,
            stones_per_player: None,
            handicap: Vec::new(),
            handicap_distance: 3,
            cards: true,
            replace_any: false,
            answer_seconds: answer_seconds(),
            reaction_seconds: reaction_seconds(),
        }
    }
}

/// The largest fixed range and handicap distance: beyond any map the server accepts.
pub const MAX_RANGE: u32 = 10_000;

impl TribalRules {
    /// The Pro variant (rule 71): no dice, a fixed range of 5.
    pub fn pro() -> TribalRules {
        TribalRules { range: RangeRule::Fixed, cards: false, ..TribalRules::default() }
    }

    pub fn validate(&self, players: usize) -> Result<(), (&'static str, String)> {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(("players", format!("Tribal Go is for 2 to {MAX_PLAYERS} players, not {players}")));
        }
        if self.fixed_range == 0 || self.fixed_range > MAX_RANGE {
            return Err(("fixed_range", format!("must be 1 to {MAX_RANGE}, not {}", self.fixed_range)));
        }
        if self.handicap_distance > MAX_RANGE {
            return Err(("handicap_distance", format!("must be 0 to {MAX_RANGE}")));
        }
        if self.handicap.len() > players {
            return Err(("handicap", format!("{} values for {players} players", self.handicap.len())));
        }
        if let Some(h) = self.handicap.iter().find(|h| !(-5..=0).contains(*h)) {
            return Err((
                "handicap",
                format!("values run from −5 to 0 (−(played + won), at most −5), not {h}"),
            ));
        }
        if self.replace_any && !self.cards {
            return Err(("replace_any", "Replace Any is a card: it needs `cards`".into()));
        }
        if !(3..=600).contains(&self.answer_seconds) {
            return Err(("answer_seconds", format!("must be 3 to 600, not {}", self.answer_seconds)));
        }
        if !REACTION_SECONDS.contains(&self.reaction_seconds) {
            return Err((
                "reaction_seconds",
                format!(
                    "must be {} to {}, not {}",
                    REACTION_SECONDS.start(),
                    REACTION_SECONDS.end(),
                    self.reaction_seconds
                ),
            ));
        }
        if self.stones_per_player == Some(0) || self.stones_per_player.is_some_and(|s| s > 100_000) {
            return Err(("stones_per_player", "must be 1 to 100000, or left out for no limit".into()));
        }
        Ok(())
    }

    /// The handicap value of a seat (missing: 0).
    pub fn handicap_of(&self, seat: usize) -> i32 {
        self.handicap.get(seat).copied().unwrap_or(0)
    }
}

/// Rule 10: a player's handicap value from their history (0 for a newcomer, at most −5).
pub fn handicap_value(played: u32, won: u32) -> i32 {
    -(played.saturating_add(won).min(5) as i32)
}

/// Rules 11–12: the order of the handicap stones. Each seat owes its value minus the lowest;
/// while stones are owed, every seat owing the most places one, in turn order from `first`.
pub fn handicap_order(values: &[i32], first: usize) -> Vec<usize> {
    let n = values.len();
    let low = values.iter().copied().min().unwrap_or(0);
    let mut owed: Vec<u32> = values.iter().map(|v| (v - low) as u32).collect();
    let mut order = Vec::new();
    loop {
        let most = owed.iter().copied().max().unwrap_or(0);
        if most == 0 {
            return order;
        }
        for k in 0..n {
            let seat = (first + k) % n;
            if owed[seat] == most {
                owed[seat] -= 1;
                order.push(seat);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document's example: Sarah −4, Sam −2, Erin 0 (Sam before Erin in turn order).
    #[test]
    fn the_documents_handicap_example() {
        let (sarah, sam, erin) = (0, 1, 2);
        assert_eq!(handicap_order(&[-4, -2, 0], sarah), vec![erin, erin, sam, erin, sam, erin]);
        // Had Erin been ahead of Sam in turn order, her third stone comes "unopposed" before
        // Sam's first: the same owed stones with Erin, then Sam, after Sarah.
        let order = handicap_order(&[-4, 0, -2], 0);
        assert_eq!(order, vec![1, 1, 1, 2, 1, 2]);
    }

    #[test]
    fn handicap_values_from_history() {
        assert_eq!(handicap_value(0, 0), 0);
        assert_eq!(handicap_value(2, 1), -3);
        assert_eq!(handicap_value(40, 12), -5);
    }

    #[test]
    fn settings_are_checked_with_the_name() {
        assert!(TribalRules::default().validate(4).is_ok());
        assert_eq!(
            TribalRules { handicap: vec![-6], ..TribalRules::default() }.validate(2).map_err(|e| e.0),
            Err("handicap")
        );
        assert_eq!(
            TribalRules { fixed_range: 0, ..TribalRules::default() }.validate(2).map_err(|e| e.0),
            Err("fixed_range")
        );
        assert_eq!(TribalRules::default().validate(9).map_err(|e| e.0), Err("players"));
        assert_eq!(
            TribalRules { reaction_seconds: 61, ..TribalRules::default() }.validate(2).map_err(|e| e.0),
            Err("reaction_seconds")
        );
    }

    /// Settings stored before the reaction window had a length still load, with the default.
    #[test]
    fn old_settings_without_reaction_seconds_load() {
        let old = r#"{"range":"dice","fixed_range":5,"ko":"positional_superko","handicap_distance":3,"cards":true,"replace_any":false,"answer_seconds":15}"#;
        let rules: TribalRules = serde_json::from_str(old).expect("old settings load");
        assert_eq!(rules.reaction_seconds, 5);
        assert_eq!(rules.answer_seconds, 15);
        assert!(rules.validate(3).is_ok());
    }
}
