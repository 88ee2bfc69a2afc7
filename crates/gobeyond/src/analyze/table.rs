//! The review as a table for people: one line per judged action.

use std::fmt::Write;

use gobeyond_bots::review::{GameReview, Mark};
use gobeyond_rules::{record::Record, registry::Object};

/// An input in a few characters: its type and where (`place D4`, `pass`, `dice 3 5`).
pub fn describe(input: &Object) -> String {
    let kind = input.get("type").and_then(|t| t.as_str()).unwrap_or("?");
    let mut s = kind.to_string();
    for (key, value) in input.iter().filter(|(k, _)| k.as_str() != "type") {
        let text = match value {
            serde_json::Value::String(t) => t.clone(),
            other => other.to_string(),
        };
        // The label says where a node is; its number only when there is no label.
        if key == "node" && input.contains_key("at") {
            continue;
        }
        let _ = write!(s, " {text}");
    }
    s.chars().take(40).collect()
}

fn mark_name(mark: Option<Mark>) -> &'static str {
    match mark {
        Some(Mark::Blunder) => "blunder",
        Some(Mark::Mistake) => "mistake",
        Some(Mark::Inaccuracy) => "inaccuracy",
        None => "",
    }
}

/// One line per judged action: its number, who played it, the mover's value before it, what
/// it lost (and the points, where the system scores), the mark, what it was and the best move.
pub fn render(record: &Record, review: &GameReview) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>5}  {:<12} {:<20} {:>7} {:>7} {:>7}  {:<10}  best",
        "#", "player", "played", "before", "loss", "points", "mark"
    );
    for m in &review.moves {
        let name = record
            .players
            .get(m.player as usize)
            .map(|p| p.name.clone())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| format!("seat {}", m.player + 1));
        let before = review.positions.get(m.at).and_then(|p| p.values.get(m.player as usize)).copied();
        let played = record.actions.get(m.at).map(|a| describe(&a.input)).unwrap_or_default();
        let points = m.points_lost.map_or(String::new(), |p| format!("{p:.1}"));
        let best = super::best_move(review, m.at).unwrap_or_default();
        let _ = writeln!(
            out,
            "{:>5}  {:<12} {:<20} {:>6.1}% {:>6.1}% {:>7}  {:<10}  {best}",
            m.at + 1,
            name.chars().take(12).collect::<String>(),
            played,
            before.unwrap_or(0.0) * 100.0,
            m.loss * 100.0,
            points,
            mark_name(m.mark),
        );
    }
    let count = |mark| review.moves.iter().filter(|m| m.mark == Some(mark)).count();
    let _ = writeln!(
        out,
        "{} actions judged at {} playouts per position: {} blunders, {} mistakes, {} inaccuracies",
        review.moves.len(),
        review.playouts,
        count(Mark::Blunder),
        count(Mark::Mistake),
        count(Mark::Inaccuracy)
    );
    out
}
