//! A classic game's SGF with the review in it: a comment (`C[]`) on each move node — the
//! mover's win chance before and after, the mark, the best move — and Sabaki's win-rate
//! property `SBKV[]` (Black's win chance in percent after the node) on every node, which Sabaki
//! draws as its graph.

use std::fmt::Write;

use anyhow::{Context, Result, bail};
use gobeyond_bots::review::{GameReview, Mark, MoveJudgement};
use gobeyond_rules::{AnyGame, Player, record::Record};

/// Escapes SGF text (`]` and `\`).
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// Per record action, whether the SGF export writes it as a move node: placements and passes,
/// not free handicap stones (written as setup) nor the dead-stone marking after the game.
fn move_nodes(record: &Record) -> Result<Vec<bool>> {
    let mut game = record.new_game()?;
    let mut nodes = Vec::with_capacity(record.actions.len());
    for (i, action) in record.actions.iter().enumerate() {
        let handicap = matches!(&game, AnyGame::Classic(g) if g.handicap_left() > 0);
        nodes.push(!handicap && matches!(action.kind(), "place" | "pass"));
        game.submit(Player(action.player), &action.input)
            .map_err(|r| anyhow::anyhow!("action {i} does not replay: {}", r.message))?;
    }
    Ok(nodes)
}

/// Black's win chance at position `at`, in percent.
fn black_percent(review: &GameReview, at: usize) -> Option<f32> {
    review.positions.get(at).and_then(|p| p.values.first()).map(|v| v * 100.0)
}

fn comment(review: &GameReview, judgement: Option<&MoveJudgement>, at: usize) -> String {
    let mut c = String::new();
    if let Some(m) = judgement {
        let seat = m.player as usize;
        let value =
            |k: usize| review.positions.get(k).and_then(|p| p.values.get(seat)).map_or(0.0, |v| v * 100.0);
        let who = if seat == 0 { "Black" } else { "White" };
        let _ = write!(c, "{who}'s win chance {:.1}% → {:.1}%", value(at), value(at + 1));
        if let Some(points) = m.points_lost {
            let _ = write!(c, ", {points:.1} points lost");
        }
        match m.mark {
            Some(Mark::Blunder) => c.push_str(". Blunder"),
            Some(Mark::Mistake) => c.push_str(". Mistake"),
            Some(Mark::Inaccuracy) => c.push_str(". Inaccuracy"),
            None => {}
        }
        if let Some(best) = review.positions.get(at).and_then(|p| p.best.first()) {
            let _ = write!(c, ". Best: {} ({:.1}%)", super::table::describe(&best.input), best.value * 100.0);
        }
    }
    c
}

/// The record's SGF with the review's comments and win rates.
pub fn annotated(record: &Record, review: &GameReview) -> Result<String> {
    let game = record.replay()?;
    let text = game.sgf(&record.players, record.date.as_deref()).map_err(anyhow::Error::msg)?;
    let body = text.trim_end().strip_suffix(')').context("the SGF export ends without `)`")?;
    // The export writes one node per line: the root, then `;B[..]` / `;W[..]`.
    let mut parts: Vec<String> = body.split("\n;").map(str::to_string).collect();
    let moves: Vec<usize> =
        move_nodes(record)?.iter().enumerate().filter(|&(_, &node)| node).map(|(i, _)| i).collect();
    if moves.len() + 1 != parts.len() {
        bail!("the SGF has {} move nodes for {} moves of the record", parts.len() - 1, moves.len());
    }
    // The root: the position before the first move node.
    let first = moves.first().copied().unwrap_or(record.actions.len());
    if let Some(v) = black_percent(review, first) {
        let _ = write!(parts[0], "SBKV[{v:.2}]");
    }
    for (node, &at) in moves.iter().enumerate() {
        let part = &mut parts[node + 1];
        let judgement = review.moves.iter().find(|m| m.at == at);
        let c = comment(review, judgement, at);
        if !c.is_empty() {
            let _ = write!(part, "C[{}]", escape(&c));
        }
        if let Some(v) = black_percent(review, at + 1) {
            let _ = write!(part, "SBKV[{v:.2}]");
        }
    }
    Ok(format!("{})\n", parts.join("\n;")))
}
