//! `gobeyond lab`: what a rule or map change does, measured by self-play. A *series* plays
//! one bot (or one per seat) in every seat, seats fixed, so that what it measures is the seats
//! themselves: wins per seat with their intervals, the first seat's advantage, how long games
//! run, by how much they are won, how they end and, where the system keeps points (GoBeyond's
//! PlayPoints), the points over time. *Sweeps* run a series per value of a setting or per map;
//! *fair* searches the value of a numeric setting that evens the seats; *life* computes the
//! fewest stones that live ([`life`]). Every command prints JSON; `--html` writes a report with
//! charts ([`report`]).

pub mod cli;
mod entrant;
pub mod life;
pub mod regions_life;
pub mod report;
pub mod tournament;

use std::{
    collections::BTreeMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU32, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::{Context, Result, bail};
use gobeyond_bots::level::Strategy;
use gobeyond_rules::{Game, RuleSystem, Viewer, record::PlayerInfo};
use serde::Serialize;

/// One series: rules, settings, map, seats and bots.
#[derive(Debug, Clone)]
pub struct Spec {
    pub rules: String,
    pub settings: Vec<String>,
    pub map: String,
    pub players: usize,
    /// One bot for every seat, or one per seat.
    pub bots: Vec<String>,
    pub games: u32,
    pub seconds: Option<f64>,
    pub seed: u64,
    pub threads: usize,
}

/// What one game says.
#[derive(Debug, Clone, Serialize)]
struct GameStat {
    places: Vec<u32>,
    /// The seat that finished first alone.
    winner: Option<usize>,
    /// Actions the bots played.
    length: usize,
    /// The winner's score minus the next best.
    margin: f64,
    reason: String,
    /// Per sampled action, each seat's points (systems that keep points).
    points: Vec<Vec<f64>>,
}

/// A share with its 95 % (Wilson) interval.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Estimate {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct SeatStat {
    pub seat: usize,
    pub bot: String,
    /// Games this seat won alone.
    pub wins: u32,
    /// Games whose first place it shared.
    pub draws: u32,
    pub win_rate: Estimate,
    pub mean_place: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Bin {
    pub from: f64,
    pub to: f64,
    pub count: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub mean: f64,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub histogram: Vec<Bin>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SeriesReport {
    pub rules: String,
    pub settings: Vec<String>,
    pub map: String,
    pub players: usize,
    pub games: u32,
    pub seed: u64,
    pub seats: Vec<SeatStat>,
    /// The first seat's win rate minus an even share (1 / players), with its interval.
    pub first_seat_advantage: Estimate,
    /// Games whose first place was shared.
    pub draws: u32,
    /// Actions the bots played per game.
    pub length: Summary,
    /// The winner's score minus the next best (in the system's own score).
    pub margin: Summary,
    pub end_reasons: BTreeMap<String, u32>,
    /// Mean points per seat every `points_every` actions (systems with points: GoBeyond).
    pub points_every: usize,
    pub points_over_time: Option<Vec<Vec<f64>>>,
    pub seconds: f64,
}

/// The 95 % Wilson interval of `k` successes in `n`.
pub fn wilson(k: f64, n: f64) -> Estimate {
    if n <= 0.0 {
        return Estimate { value: 0.0, low: 0.0, high: 1.0 };
    }
    let z = 1.96f64;
    let p = k / n;
    let d = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / d;
    let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / d;
    Estimate { value: p, low: (centre - half).max(0.0), high: (centre + half).min(1.0) }
}

fn summary(values: &[f64]) -> Summary {
    if values.is_empty() {
        return Summary { mean: 0.0, median: 0.0, min: 0.0, max: 0.0, histogram: Vec::new() };
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let (min, max) = (v[0], v[v.len() - 1]);
    let bins = 10usize;
    let width = ((max - min) / bins as f64).max(1e-9);
    let mut histogram: Vec<Bin> = (0..bins)
        .map(|i| Bin { from: min + i as f64 * width, to: min + (i + 1) as f64 * width, count: 0 })
        .collect();
    for &x in &v {
        let i = (((x - min) / width) as usize).min(bins - 1);
        histogram[i].count += 1;
    }
    Summary { mean: v.iter().sum::<f64>() / v.len() as f64, median: v[v.len() / 2], min, max, histogram }
}

/// Points are sampled every this many actions.
const POINTS_EVERY: usize = 4;

/// Plays one game of the series.
fn play(spec: &Spec, index: u32) -> Result<GameStat> {
    let n = spec.players;
    let rules =
        gobeyond_rules::registry::rules_with(&spec.rules, &spec.settings).map_err(anyhow::Error::msg)?;
    let system = rules.info()?;
    let map = Arc::new(crate::map_source(&spec.map)?.load()?);
    let game = system.start(map.clone(), n, &rules.settings, &Default::default())?;
    let strategies: Vec<Strategy> = (0..n)
        .map(|s| spec.bots[s % spec.bots.len()].parse::<Strategy>().map_err(anyhow::Error::msg))
        .collect::<Result<_>>()?;
    let names: Vec<PlayerInfo> = (0..n).map(|s| PlayerInfo { name: format!("seat {}", s + 1) }).collect();
    let seed = spec.seed.wrapping_add(97 * index as u64);
    let time = spec.seconds.map(Duration::from_secs_f64);
    let max = 10 * map.len();
    gobeyond_rules::dispatch!(game, game => {
        let mut length = 0usize;
        let mut points = Vec::new();
        let end = crate::matches::play_series_game(game, &strategies, seed, time, 1, max, &mut |g| {
            length += 1;
            if length.is_multiple_of(POINTS_EVERY) {
                let view = serde_json::to_value(g.view(Viewer::Spectator, &names, false)).unwrap_or_default();
                let seats: Option<Vec<f64>> =
                    (0..n).map(|s| view["players"][s]["points"].as_f64()).collect();
                if let Some(p) = seats {
                    points.push(p);
                }
            }
        })?;
        let outcome = end.outcome().cloned().context("the game ended without an outcome")?;
        let places: Vec<u32> = (0..n)
            .map(|s| {
                outcome.places.get(s).copied().filter(|&p| p > 0).unwrap_or_else(|| {
                    outcome.ranking.iter().position(|p| p.index() == s).map_or(n as u32, |i| i as u32 + 1)
                })
            })
            .collect();
        let firsts: Vec<usize> = (0..n).filter(|&s| places[s] == 1).collect();
        let mut scores = outcome.scores.clone();
        scores.sort_by(|a, b| b.total_cmp(a));
        let reason = serde_json::to_value(outcome.reason)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_else(|| format!("{:?}", outcome.reason));
        Ok(GameStat {
            winner: (firsts.len() == 1).then(|| firsts[0]),
            places,
            length,
            margin: if scores.len() >= 2 { scores[0] - scores[1] } else { 0.0 },
            reason,
            points,
        })
    })
}

/// Plays a series on `spec.threads` threads, with a progress bar labelled `label`.
pub fn series(spec: &Spec, label: &str) -> Result<SeriesReport> {
    let n = spec.players;
    if !(2..=8).contains(&n) {
        bail!("a series has 2 to 8 players, not {n}");
    }
    if spec.bots.is_empty() || (spec.bots.len() != 1 && spec.bots.len() != n) {
        bail!("give one --bot for every seat, or one per seat ({n})");
    }
    // Settings and map are checked once before any thread starts.
    gobeyond_rules::registry::rules_with(&spec.rules, &spec.settings).map_err(anyhow::Error::msg)?.info()?;
    crate::map_source(&spec.map)?.load()?;
    let started = Instant::now();
    let bar =
        indicatif::ProgressBar::new(spec.games as u64).with_style(indicatif::ProgressStyle::with_template(
            &format!("{label} {{bar:30}} {{pos}}/{{len}} games [{{elapsed}}<{{eta}}]"),
        )?);
    let next = AtomicU32::new(0);
    let results: Mutex<Vec<Option<Result<GameStat>>>> = Mutex::new((0..spec.games).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..spec.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= spec.games {
                        break;
                    }
                    let stat = play(spec, i);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i as usize] = Some(stat);
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let stats: Vec<GameStat> = results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(anyhow::anyhow!("a game was not played"))))
        .collect::<Result<_>>()?;
    Ok(tally(spec, &stats, started.elapsed().as_secs_f64()))
}

fn tally(spec: &Spec, stats: &[GameStat], seconds: f64) -> SeriesReport {
    let n = spec.players;
    let games = stats.len() as f64;
    let seats: Vec<SeatStat> = (0..n)
        .map(|s| {
            let wins = stats.iter().filter(|g| g.winner == Some(s)).count() as u32;
            let draws = stats.iter().filter(|g| g.winner.is_none() && g.places[s] == 1).count() as u32;
            SeatStat {
                seat: s,
                bot: spec.bots[s % spec.bots.len()].clone(),
                wins,
                draws,
                win_rate: wilson(wins as f64, games),
                mean_place: stats.iter().map(|g| g.places[s] as f64).sum::<f64>() / games.max(1.0),
            }
        })
        .collect();
    let even = 1.0 / n as f64;
    let first = seats[0].win_rate;
    let mut end_reasons = BTreeMap::new();
    for g in stats {
        *end_reasons.entry(g.reason.clone()).or_insert(0) += 1;
    }
    let longest = stats.iter().map(|g| g.points.len()).max().unwrap_or(0);
    let points_over_time = (longest > 0).then(|| {
        (0..longest)
            .map(|t| {
                let at: Vec<&Vec<f64>> = stats.iter().filter_map(|g| g.points.get(t)).collect();
                (0..n).map(|s| at.iter().map(|p| p[s]).sum::<f64>() / at.len().max(1) as f64).collect()
            })
            .collect()
    });
    SeriesReport {
        rules: spec.rules.clone(),
        settings: spec.settings.clone(),
        map: spec.map.clone(),
        players: n,
        games: stats.len() as u32,
        seed: spec.seed,
        first_seat_advantage: Estimate {
            value: first.value - even,
            low: first.low - even,
            high: first.high - even,
        },
        seats,
        draws: stats.iter().filter(|g| g.winner.is_none()).count() as u32,
        length: summary(&stats.iter().map(|g| g.length as f64).collect::<Vec<_>>()),
        margin: summary(&stats.iter().map(|g| g.margin).collect::<Vec<_>>()),
        end_reasons,
        points_every: POINTS_EVERY,
        points_over_time,
        seconds,
    }
}

/// A series per value of a setting (`NAME=v1,v2,...`; `map=...` varies the map).
#[derive(Debug, Clone, Serialize)]
pub struct SweepReport {
    pub setting: String,
    pub values: Vec<String>,
    pub series: Vec<SeriesReport>,
}

pub fn sweep(spec: &Spec, sweep: &str) -> Result<SweepReport> {
    let (name, values) =
        sweep.split_once('=').with_context(|| format!("a sweep is NAME=V1,V2,..., not {sweep:?}"))?;
    let values: Vec<String> =
        values.split(',').map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).collect();
    if values.is_empty() {
        bail!("the sweep {name:?} has no values");
    }
    let mut series = Vec::new();
    for (i, v) in values.iter().enumerate() {
        let mut s = spec.clone();
        if name == "map" {
            s.map = v.clone();
        } else {
            s.settings.retain(|x| x.split_once('=').map(|(k, _)| k) != Some(name));
            s.settings.push(format!("{name}={v}"));
        }
        series.push(self::series(&s, &format!("{name}={v} ({}/{})", i + 1, values.len()))?);
    }
    Ok(SweepReport { setting: name.to_string(), values, series })
}

/// One value tried by the fair search.
#[derive(Debug, Clone, Serialize)]
pub struct FairPoint {
    pub value: f64,
    /// The first seat's share (wins, draws counted by the number who shared them) minus an
    /// even share, with its interval.
    pub first_seat_advantage: Estimate,
    pub games: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct FairReport {
    pub setting: String,
    pub rules: String,
    pub map: String,
    pub players: usize,
    pub points: Vec<FairPoint>,
    /// Where the first seat's advantage crosses zero (linear between the two closest points
    /// on either side), and the range within which it may lie given the intervals.
    pub fair: Option<f64>,
    pub fair_low: Option<f64>,
    pub fair_high: Option<f64>,
}

/// Searches the value of `setting` in `[from, to]` (on a grid of `step`) that evens the first
/// seat's chances, by bisection on its advantage.
pub fn fair(spec: &Spec, setting: &str, from: f64, to: f64, step: f64) -> Result<FairReport> {
    if !(step > 0.0 && from < to) {
        bail!("a fair search needs --from < --to and a positive --step");
    }
    let snap = |v: f64| (from + ((v - from) / step).round() * step).clamp(from, to);
    let show = |v: f64| if v.fract() == 0.0 { format!("{}", v as i64) } else { format!("{v}") };
    let mut points: Vec<FairPoint> = Vec::new();
    let try_value = |v: f64, points: &mut Vec<FairPoint>| -> Result<f64> {
        let mut s = spec.clone();
        s.settings.retain(|x| x.split_once('=').map(|(k, _)| k) != Some(setting));
        s.settings.push(format!("{setting}={}", show(v)));
        let r = series(&s, &format!("{setting}={}", show(v)))?;
        let even = 1.0 / spec.players as f64;
        // Shared first places count for each sharer by their number.
        let share = r.seats[0].wins as f64 + r.seats[0].draws as f64 / 2.0;
        let w = wilson(share, r.games as f64);
        let a = Estimate { value: w.value - even, low: w.low - even, high: w.high - even };
        points.push(FairPoint { value: v, first_seat_advantage: a, games: r.games });
        Ok(a.value)
    };
    let (mut lo, mut hi) = (snap(from), snap(to));
    let (mut f_lo, f_hi) = (try_value(lo, &mut points)?, try_value(hi, &mut points)?);
    if f_lo.signum() == f_hi.signum() && f_lo != 0.0 {
        // No crossing in the range: report the points.
        return Ok(finish(spec, setting, points));
    }
    while hi - lo > step * 1.5 {
        let mid = snap((lo + hi) / 2.0);
        if mid <= lo || mid >= hi {
            break;
        }
        let f = try_value(mid, &mut points)?;
        if f.signum() == f_lo.signum() && f != 0.0 {
            (lo, f_lo) = (mid, f);
        } else {
            hi = mid;
        }
    }
    Ok(finish(spec, setting, points))
}

fn finish(spec: &Spec, setting: &str, mut points: Vec<FairPoint>) -> FairReport {
    points.sort_by(|a, b| a.value.total_cmp(&b.value));
    // Where a piecewise-linear curve through the points crosses zero.
    let cross = |f: &dyn Fn(&FairPoint) -> f64| -> Option<f64> {
        points.windows(2).find_map(|w| {
            let (a, b) = (f(&w[0]), f(&w[1]));
            if a == 0.0 {
                return Some(w[0].value);
            }
            (a.signum() != b.signum()).then(|| w[0].value + (w[1].value - w[0].value) * a / (a - b))
        })
    };
    let fair = cross(&|p| p.first_seat_advantage.value);
    let (x, y) = (cross(&|p| p.first_seat_advantage.low), cross(&|p| p.first_seat_advantage.high));
    let bounds = match (x, y) {
        (Some(a), Some(b)) => (Some(a.min(b)), Some(a.max(b))),
        _ => (
            points.first().filter(|_| fair.is_some()).map(|p| p.value),
            points.last().filter(|_| fair.is_some()).map(|p| p.value),
        ),
    };
    FairReport {
        setting: setting.to_string(),
        rules: spec.rules.clone(),
        map: spec.map.clone(),
        players: spec.players,
        points,
        fair,
        fair_low: bounds.0,
        fair_high: bounds.1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_the_textbook() {
        let w = wilson(5.0, 10.0);
        assert!((w.low - 0.2366).abs() < 1e-3 && (w.high - 0.7634).abs() < 1e-3, "{w:?}");
        let all = wilson(20.0, 20.0);
        assert!((all.low - 0.8389).abs() < 1e-3 && all.high == 1.0, "{all:?}");
    }

    #[test]
    fn a_series_counts_seats_lengths_and_reasons_from_real_games() {
        let spec = Spec {
            rules: "chinese".into(),
            settings: vec!["komi=0.5".into()],
            map: "square:5".into(),
            players: 2,
            bots: vec!["random".into()],
            games: 6,
            seconds: None,
            seed: 3,
            threads: 2,
        };
        let r = series(&spec, "test").unwrap();
        assert_eq!(r.games, 6);
        assert_eq!(r.seats.iter().map(|s| s.wins + s.draws).sum::<u32>() + r.draws, 6 + r.draws);
        assert!(r.length.min >= 1.0 && r.length.histogram.iter().map(|b| b.count).sum::<u32>() == 6);
        assert_eq!(r.end_reasons.values().sum::<u32>(), 6);
        // The same seed plays the same games, whatever the threads did.
        let again = series(&Spec { threads: 1, ..spec }, "test").unwrap();
        assert_eq!(serde_json::to_value(&again.seats).unwrap(), serde_json::to_value(&r.seats).unwrap());
        assert_eq!(again.length.mean, r.length.mean);
    }

    #[test]
    fn gobeyond_series_track_playpoints() {
        let spec = Spec {
            rules: "gobeyond".into(),
            settings: Vec::new(),
            map: "hex:3".into(),
            players: 3,
            bots: vec!["random".into()],
            games: 2,
            seconds: None,
            seed: 5,
            threads: 2,
        };
        let r = series(&spec, "test").unwrap();
        let points = r.points_over_time.expect("GoBeyond keeps PlayPoints");
        assert!(!points.is_empty() && points[0].len() == 3);
    }

    #[test]
    fn the_fair_value_lies_where_the_advantage_changes_sign() {
        let p = |value: f64, a: f64| FairPoint {
            value,
            first_seat_advantage: Estimate { value: a, low: a - 0.1, high: a + 0.1 },
            games: 10,
        };
        let spec = Spec {
            rules: "chinese".into(),
            settings: Vec::new(),
            map: "square:9".into(),
            players: 2,
            bots: vec!["random".into()],
            games: 1,
            seconds: None,
            seed: 1,
            threads: 1,
        };
        let r = finish(&spec, "komi", vec![p(10.0, -0.2), p(0.0, 0.2), p(5.0, 0.1)]);
        let fair = r.fair.unwrap();
        assert!((fair - 6.6667).abs() < 1e-3, "{fair}");
        assert!(r.fair_low.unwrap() < fair && fair < r.fair_high.unwrap());
    }
}
