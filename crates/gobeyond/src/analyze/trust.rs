//! `gobeyond analyze-trust`: how far the review's marks can be trusted. Each record is reviewed
//! at a budget and at ten times it; the longer search is taken as the better judge, and for
//! classic Go GNU Go's `estimate_score` is a second, independent one (`docs/analysis.md`).

use std::{
    collections::BTreeMap,
    io::{BufRead, BufReader, Write},
    path::PathBuf,
    process::{Child, ChildStdin, ChildStdout, Command, Stdio},
};

use anyhow::{Context, Result, bail};
use clap::Args;
use gobeyond_bots::review::{GameReview, Mark, ReviewOptions, review_record};
use gobeyond_rules::record::Record;
use serde::Serialize;

#[derive(Debug, Args)]
pub struct TrustArgs {
    /// Records (JSON or SGF), or directories of them.
    #[arg(required = true)]
    pub records: Vec<PathBuf>,
    /// The review's budget: playouts per position.
    #[arg(long, default_value_t = 200)]
    pub playouts: u32,
    /// The judge's budget is this many times the review's.
    #[arg(long, default_value_t = 10)]
    pub factor: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// A GTP engine with `estimate_score` for classic games (empty: none).
    #[arg(long, default_value = "/usr/games/gnugo --mode gtp --chinese-rules")]
    pub gnugo: String,
    /// Ask it every this many positions.
    #[arg(long, default_value_t = 4)]
    pub gnugo_every: usize,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The figures of one system (and number of seats).
#[derive(Debug, Default, Clone, Serialize)]
pub struct Tally {
    pub games: u32,
    /// Positions with one seat to move (searched by both).
    pub positions: u32,
    /// Of those, where both searches name the same best move.
    pub best_agree: u32,
    /// Actions judged by both.
    pub judged: u32,
    /// Blunders marked by the review, and how many of them the judge also marks a blunder,
    /// or at least a mistake.
    pub blunders: u32,
    pub blunders_confirmed: u32,
    pub blunders_at_least_mistake: u32,
    /// Blunders by the judge, and how many of them the review leaves without any mark.
    pub judge_blunders: u32,
    pub judge_blunders_unmarked: u32,
    /// Any mark by the review, and how many the judge marks too.
    pub marked: u32,
    pub marked_confirmed: u32,
    /// Mean |review − judge| of the mover's value before an action.
    pub value_gap: f64,
    #[serde(skip)]
    value_gap_sum: f64,
    /// Classic: positions GNU Go estimated (a side ahead), and how often the sign of the
    /// expected margin agrees with it, at the review's budget and at the judge's.
    pub gnugo_positions: u32,
    pub gnugo_agree: u32,
    pub gnugo_agree_judge: u32,
}

impl Tally {
    fn add(&mut self, review: &GameReview, judge: &GameReview) {
        self.games += 1;
        for (r, j) in review.positions.iter().zip(&judge.positions) {
            if r.to_move.is_some() && j.to_move.is_some() {
                self.positions += 1;
                let best =
                    |p: &gobeyond_bots::review::PositionReview| p.best.first().map(|c| c.input.clone());
                self.best_agree += u32::from(best(r).is_some() && best(r) == best(j));
            }
        }
        for m in &review.moves {
            let Some(o) = judge.moves.iter().find(|o| o.at == m.at) else { continue };
            self.judged += 1;
            let value =
                |g: &GameReview| g.positions.get(m.at).and_then(|p| p.values.get(m.player as usize)).copied();
            self.value_gap_sum += (value(review).unwrap_or(0.0) - value(judge).unwrap_or(0.0)).abs() as f64;
            let blunder = |mark| mark == Some(Mark::Blunder);
            if blunder(m.mark) {
                self.blunders += 1;
                self.blunders_confirmed += u32::from(blunder(o.mark));
                self.blunders_at_least_mistake +=
                    u32::from(matches!(o.mark, Some(Mark::Blunder | Mark::Mistake)));
            }
            if blunder(o.mark) {
                self.judge_blunders += 1;
                self.judge_blunders_unmarked += u32::from(m.mark.is_none());
            }
            if m.mark.is_some() {
                self.marked += 1;
                self.marked_confirmed += u32::from(o.mark.is_some());
            }
        }
        self.value_gap = if self.judged > 0 { self.value_gap_sum / self.judged as f64 } else { 0.0 };
    }
}

/// Every record file named, directories opened (one level, sorted).
fn record_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut inner: Vec<PathBuf> = std::fs::read_dir(p)
                .with_context(|| format!("reading {}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|e| e == "json" || e == "sgf"))
                .collect();
            inner.sort();
            files.extend(inner);
        } else {
            files.push(p.clone());
        }
    }
    if files.is_empty() {
        bail!("no records (.json or .sgf) in {paths:?}");
    }
    Ok(files)
}

pub fn run(args: TrustArgs) -> Result<()> {
    let judge_playouts =
        args.playouts.checked_mul(args.factor).context("--playouts × --factor is too big")?;
    super::check_budget(args.playouts, args.threads)?;
    super::check_budget(judge_playouts, args.threads)?;
    let files = record_files(&args.records)?;
    let records: Vec<(PathBuf, Record)> =
        files.into_iter().map(|f| crate::load_record(&f).map(|r| (f, r))).collect::<Result<_>>()?;
    let total: u64 =
        records.iter().map(|(_, r)| (r.actions.len() as u64 + 1) * (1 + args.factor as u64)).sum();
    let bar = super::progress_bar(total, "measuring");
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let options = |playouts| ReviewOptions { playouts, threads: args.threads, seed: args.seed, best: 1 };
    for (file, record) in &records {
        bar.set_message(file.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default());
        let base = bar.position();
        let n = record.actions.len() as u64 + 1;
        let review =
            review_record(record, &options(args.playouts), |d, _| bar.set_position(base + d as u64))?;
        let factor = args.factor as u64;
        let judge = review_record(record, &options(judge_playouts), |d, _| {
            bar.set_position(base + n + d as u64 * factor)
        })?;
        let key = format!("{} ({} players)", record.rules.system, record.players.len());
        let tally = tallies.entry(key).or_default();
        tally.add(&review, &judge);
        if record.rules.system == "classic" && !args.gnugo.trim().is_empty() {
            let (count, agree, agree_judge) =
                gnugo_agreement(&args.gnugo, record, &review, &judge, args.gnugo_every)
                    .with_context(|| format!("GNU Go on {}", file.display()))?;
            tally.gnugo_positions += count;
            tally.gnugo_agree += agree;
            tally.gnugo_agree_judge += agree_judge;
        }
    }
    bar.finish_and_clear();
    if args.json {
        println!("{}", serde_json::to_string(&tallies)?);
    } else {
        print!("{}", render(&tallies, args.playouts, judge_playouts));
    }
    Ok(())
}

fn percent(part: u32, whole: u32) -> String {
    if whole == 0 { "-".into() } else { format!("{:.0}% of {whole}", 100.0 * part as f64 / whole as f64) }
}

fn render(tallies: &BTreeMap<String, Tally>, playouts: u32, judge: u32) -> String {
    let mut out = format!("review at {playouts} playouts per position, judged by the search at {judge}\n");
    for (key, t) in tallies {
        out.push_str(&format!(
            "{key}: {} games, {} positions, {} actions judged\n  best move agrees: {}\n  \
             review's blunders confirmed: {} (at least a mistake: {})\n  \
             judge's blunders left unmarked: {}\n  marks confirmed by a mark: {}\n  \
             mean value gap: {:.3}\n",
            t.games,
            t.positions,
            t.judged,
            percent(t.best_agree, t.positions),
            percent(t.blunders_confirmed, t.blunders),
            percent(t.blunders_at_least_mistake, t.blunders),
            percent(t.judge_blunders_unmarked, t.judge_blunders),
            percent(t.marked_confirmed, t.marked),
            t.value_gap,
        ));
        if t.gnugo_positions > 0 {
            out.push_str(&format!(
                "  GNU Go's estimate_score: the side ahead agrees {} (judge: {})\n",
                percent(t.gnugo_agree, t.gnugo_positions),
                percent(t.gnugo_agree_judge, t.gnugo_positions)
            ));
        }
    }
    out
}

/// A GTP engine on pipes.
struct Gtp {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(command: &str) -> Result<Gtp> {
        let mut words = command.split_whitespace();
        let program = words.next().context("an empty GTP command")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {command:?}"))?;
        let input = child.stdin.take().context("no stdin")?;
        let output = BufReader::new(child.stdout.take().context("no stdout")?);
        Ok(Gtp { child, input, output })
    }

    fn ask(&mut self, command: &str) -> Result<String> {
        writeln!(self.input, "{command}")?;
        self.input.flush()?;
        let mut reply = String::new();
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line)? == 0 {
                bail!("the engine quit after {command:?}");
            }
            if line.trim().is_empty() && !reply.is_empty() {
                break;
            }
            reply.push_str(&line);
        }
        match reply.strip_prefix('=') {
            Some(ok) => Ok(ok.trim().to_string()),
            None => bail!("{command:?}: {}", reply.trim()),
        }
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

/// Black's margin in a GTP score (`B+3.5`, `W+2`, `0`).
fn black_margin(score: &str) -> Option<f64> {
    let s = score.trim();
    if s == "0" {
        return Some(0.0);
    }
    let (side, value) = s.split_once('+')?;
    let v: f64 = value.split_whitespace().next()?.parse().ok()?;
    match side {
        "B" => Some(v),
        "W" => Some(-v),
        _ => None,
    }
}

/// Over the positions of a classic game (every `every`th), how often the sign of the expected
/// score margin of the review and of the judge agrees with GNU Go's `estimate_score` (positions
/// it calls even are left out): (positions, review agrees, judge agrees).
fn gnugo_agreement(
    command: &str,
    record: &Record,
    review: &GameReview,
    judge: &GameReview,
    every: usize,
) -> Result<(u32, u32, u32)> {
    if !record.setup.is_empty() {
        return Ok((0, 0, 0));
    }
    let map = record.map.load()?;
    let grid = map.grid().context("not a grid")?;
    let komi = record.rules.settings.get("komi").and_then(|k| k.as_f64()).unwrap_or(7.0);
    let mut gtp = Gtp::start(command)?;
    gtp.ask(&format!("boardsize {}", grid.width))?;
    gtp.ask(&format!("komi {komi}"))?;
    gtp.ask("clear_board")?;
    let margin = |g: &GameReview, at: usize| g.positions.get(at)?.scores.as_ref().map(|s| s[0] - s[1]);
    let mut tally = (0, 0, 0);
    for at in 0..=record.actions.len() {
        if at % every.max(1) == 0 && review.positions.get(at).is_some_and(|p| p.to_move.is_some()) {
            let estimate = black_margin(&gtp.ask("estimate_score")?);
            if let (Some(e), Some(r), Some(j)) = (estimate, margin(review, at), margin(judge, at))
                && e != 0.0
            {
                tally.0 += 1;
                tally.1 += u32::from((r as f64 > 0.0) == (e > 0.0));
                tally.2 += u32::from((j as f64 > 0.0) == (e > 0.0));
            }
        }
        let Some(action) = record.actions.get(at) else { break };
        let colour = if action.player == 0 { "B" } else { "W" };
        let vertex = match action.kind() {
            "pass" => "pass".to_string(),
            "place" => match (action.input.get("at").and_then(|a| a.as_str()), action.input.get("node")) {
                (Some(label), _) => label.to_string(),
                (None, Some(n)) => map.label(n.as_u64().context("a node number")? as u32).to_string(),
                _ => break,
            },
            _ => break,
        };
        gtp.ask(&format!("play {colour} {vertex}"))?;
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_scores_read_as_black_margins() {
        assert_eq!(black_margin("B+3.5"), Some(3.5));
        assert_eq!(black_margin("W+12.0 (upper bound: -10.0, lower: -14.0)"), Some(-12.0));
        assert_eq!(black_margin("0"), Some(0.0));
        assert_eq!(black_margin("nonsense"), None);
    }
}
