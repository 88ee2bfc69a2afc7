//! A `gobeyond lab tournament --entrant`: a bot and its own settings (docs/lab.md, "Tournaments
//! of bots"), e.g. `bot:level=4`, `level=6,seconds=0.5`, `level=8,patterns=off,name=plain 8`,
//! `bot:random`, or just `4`. Entrants that differ only by a setting compare that setting.

use std::time::Duration;

use anyhow::{Result, bail};
use gobeyond_bots::level::Strategy;

/// Longest name and longest time per move an entrant may have.
const MAX_NAME_CHARS: usize = 40;
const MAX_SECONDS: f64 = 60.0;

#[derive(Debug, Clone)]
pub struct EntrantSpec {
    pub strategy: Strategy,
    /// Time per move (None: the level's fixed playouts, or `--seconds-per-move`).
    pub seconds: Option<f64>,
    /// The name in the standings (before its " #n").
    pub name: String,
    /// The level for seeding (random 0, greedy 0.5).
    pub level: f64,
}

impl EntrantSpec {
    pub fn time(&self, default: Option<f64>) -> Option<Duration> {
        self.seconds.or(default).map(Duration::from_secs_f64)
    }
}

/// Reads one `--entrant` value; the error names it and what was wrong.
pub fn parse(text: &str) -> Result<EntrantSpec> {
    let fail = |why: String| anyhow::anyhow!("--entrant {text:?}: {why}");
    let body = text.trim().strip_prefix("bot:").unwrap_or(text.trim());
    let (mut who, mut patterns, mut seconds, mut name) = (None, true, None, None);
    for (i, part) in body.split(',').map(str::trim).enumerate() {
        let (key, value) = match part.split_once('=') {
            Some((k, v)) => (k.trim(), v.trim()),
            // The first part may be the bot alone: `4`, `random`, `plain:8`.
            None if i == 0 => ("level", part),
            None => return Err(fail(format!("{part:?} is not NAME=VALUE"))),
        };
        match key {
            "level" => who = Some(value.to_string()),
            "patterns" => {
                patterns = match value {
                    "on" => true,
                    "off" => false,
                    other => return Err(fail(format!("patterns=on or patterns=off, not {other:?}"))),
                }
            }
            "seconds" => {
                let s: f64 = value.parse().map_err(|_| fail(format!("seconds: a number, not {value:?}")))?;
                if !(s > 0.0 && s <= MAX_SECONDS) {
                    return Err(fail(format!("seconds: more than 0 and at most {MAX_SECONDS}, not {s}")));
                }
                seconds = Some(s);
            }
            "name" => {
                if value.is_empty() || value.chars().count() > MAX_NAME_CHARS {
                    return Err(fail(format!("name: 1 to {MAX_NAME_CHARS} characters")));
                }
                name = Some(value.to_string());
            }
            other => {
                return Err(fail(format!("unknown setting {other:?} (level, patterns, seconds, name)")));
            }
        }
    }
    let Some(who) = who else {
        bail!("--entrant {text:?}: say which bot: level=1..10, random or greedy");
    };
    let strategy = who.parse::<Strategy>().map_err(|e| {
        fail(format!("{e} (write bot:level=1..10, bot:random or bot:greedy, settings after commas)"))
    })?;
    let strategy = match (strategy, patterns) {
        (Strategy::Search(level), false) => Strategy::Plain(level),
        (Strategy::Random | Strategy::Greedy, false) => {
            return Err(fail("patterns=off needs a level (random and greedy have none)".into()));
        }
        (s, _) => s,
    };
    let level = match strategy {
        Strategy::Random => 0.0,
        Strategy::Greedy => 0.5,
        Strategy::Search(l) | Strategy::Plain(l) => f64::from(l.get()),
    };
    let name = name.unwrap_or_else(|| describe(strategy, seconds));
    Ok(EntrantSpec { strategy, seconds, name, level })
}

/// "level 4", "level 8 without patterns", "level 6, 0.5 s a move", "random".
fn describe(strategy: Strategy, seconds: Option<f64>) -> String {
    let mut out = match strategy {
        Strategy::Random => "random".to_string(),
        Strategy::Greedy => "greedy".to_string(),
        Strategy::Search(l) => format!("level {}", l.get()),
        Strategy::Plain(l) => format!("level {} without patterns", l.get()),
    };
    if let Some(s) = seconds {
        out += &format!(", {s} s a move");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entrants_read_with_their_settings() {
        let names: Vec<String> =
            ["4", "bot:level=4", "level=6,seconds=0.5", "bot:level=8,patterns=off", "bot:random", "plain:3"]
                .iter()
                .map(|t| parse(t).unwrap().name)
                .collect();
        assert_eq!(
            names,
            [
                "level 4",
                "level 4",
                "level 6, 0.5 s a move",
                "level 8 without patterns",
                "random",
                "level 3 without patterns"
            ]
        );
        let named = parse("level=2, name=Ann").unwrap();
        assert_eq!((named.name.as_str(), named.level), ("Ann", 2.0));
    }

    #[test]
    fn bad_entrants_say_what_is_wrong() {
        for (text, why) in [
            ("bot:level=x", "bot:level=x"),
            ("level=4,seconds=0", "seconds"),
            ("level=4,seconds=1e9", "seconds"),
            ("level=4,colour=red", "unknown setting \"colour\""),
            ("random,patterns=off", "needs a level"),
            ("seconds=1", "which bot"),
            ("level=4,patterns=maybe", "patterns=on"),
        ] {
            let e = parse(text).unwrap_err().to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
