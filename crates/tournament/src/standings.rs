//! Standings: points from places, then the format's tie-breaks in order; fully tied rows share
//! their place. Each row says in plain words why it is above the next when they are tied on
//! points (docs/tournaments.md, "Standings and tie-breaks").

use std::collections::BTreeMap;

use serde::Serialize;

use crate::elimination;
use crate::history::History;
use crate::spec::{Entrant, EntrantId, Format, Round, Spec};
use crate::swiss::score;
use crate::tiebreak::{TieBreak, against, sodos, sos};

#[derive(Serialize, Clone, Debug)]
pub struct Standings {
    pub rows: Vec<StandingRow>,
    pub tie_breaks: Vec<TieBreak>,
}

#[derive(Serialize, Clone, Debug)]
pub struct StandingRow {
    pub entrant: EntrantId,
    /// Shared when fully tied.
    pub place: u32,
    pub points: f64,
    /// In the order of `Standings::tie_breaks`.
    pub tie_breaks: Vec<f64>,
    pub games: u32,
    pub byes: u32,
    pub eliminated: bool,
    /// Why this row is above the next one when tied on points, in plain words.
    pub why: Option<String>,
}

/// The tie-breaks a spec uses, in order.
pub fn tie_breaks(spec: &Spec) -> Vec<TieBreak> {
    match (spec.format, spec.players()) {
        (Format::McMahon, 2) => vec![TieBreak::McMahonScore, TieBreak::Sos, TieBreak::Sodos],
        (Format::McMahon, _) => {
            vec![TieBreak::McMahonScore, TieBreak::Tablemates, TieBreak::DirectEncounters]
        }
        (_, 2) => vec![TieBreak::Sos, TieBreak::Sodos, TieBreak::HeadToHead],
        _ => vec![TieBreak::Tablemates, TieBreak::DirectEncounters],
    }
}

/// Standings naming entrants "entrant ID" in `why`.
pub fn standings(spec: &Spec, entrants: &[Entrant], history: &[Round]) -> Standings {
    standings_named(spec, entrants, history, &|id| format!("entrant {id}"))
}

/// Standings with `name` giving the names used in `why`.
pub fn standings_named(
    spec: &Spec,
    entrants: &[Entrant],
    history: &[Round],
    name: &dyn Fn(EntrantId) -> String,
) -> Standings {
    let past = History::read(spec, history);
    let breaks = tie_breaks(spec);
    let scores: BTreeMap<EntrantId, f64> = entrants.iter().map(|e| (e.id, score(spec, e, &past))).collect();
    let out = eliminated(spec, entrants, history);
    let mut rows: Vec<StandingRow> = entrants
        .iter()
        .map(|e| {
            let record = past.records.get(&e.id);
            StandingRow {
                entrant: e.id,
                place: 0,
                points: past.points(e.id),
                tie_breaks: Vec::new(),
                games: record.map_or(0, |r| r.games),
                byes: record.map_or(0, |r| r.byes),
                eliminated: out.contains(&e.id),
                why: None,
            }
        })
        .collect();
    for row in &mut rows {
        row.tie_breaks = tie_break_values(row.entrant, row.points, entrants, &past, &scores, &breaks);
    }
    let mcmahon = spec.format == Format::McMahon;
    // Elimination: who went out later is above, whatever the points (a bye scores none).
    let knockout = !out.is_empty();
    // N-player elimination: within the round of elimination, the better place there is above.
    let by_last_place = knockout && spec.format == Format::SingleElimination && spec.players() > 2;
    let last_places: BTreeMap<EntrantId, f64> = entrants
        .iter()
        .filter(|_| by_last_place)
        .map(|e| {
            let place = crate::elimination_many::last_place(e.id, history).unwrap_or(u8::MAX);
            (e.id, -f64::from(place))
        })
        .collect();
    let last_place = |id: EntrantId| last_places.get(&id).copied().unwrap_or(0.0);
    let key = |r: &StandingRow| -> Vec<f64> {
        let mut k = vec![if r.eliminated { 0.0 } else { 1.0 }];
        if knockout {
            k.extend([f64::from(r.games + r.byes), last_place(r.entrant)]);
        }
        if !mcmahon {
            k.push(r.points);
        }
        k.extend(&r.tie_breaks);
        k
    };
    rows.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        kb.iter()
            .zip(&ka)
            .map(|(x, y)| x.total_cmp(y))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.entrant.cmp(&b.entrant))
    });
    for i in 0..rows.len() {
        rows[i].place =
            if i > 0 && key(&rows[i]) == key(&rows[i - 1]) { rows[i - 1].place } else { i as u32 + 1 };
        if let Some(next) = rows.get(i + 1) {
            let same_stage = last_place(rows[i].entrant) == last_place(next.entrant);
            let why = explain(&rows[i], next, &breaks, (mcmahon, knockout), name).filter(|_| same_stage);
            rows[i].why = why;
        }
    }
    Standings { rows, tie_breaks: breaks }
}

/// Who is out of an elimination (single or double) that has begun; nobody in other formats.
fn eliminated(spec: &Spec, entrants: &[Entrant], history: &[Round]) -> Vec<EntrantId> {
    match spec.format {
        Format::SingleElimination | Format::DoubleElimination if !history.is_empty() => {
            let alive = if spec.format == Format::DoubleElimination {
                let complete: Vec<Round> = history.iter().filter(|r| r.is_complete()).cloned().collect();
                crate::double_elimination::alive(spec, entrants, &complete)
            } else {
                elimination::alive(spec, entrants, history)
            };
            entrants.iter().map(|e| e.id).filter(|id| !alive.contains(id)).collect()
        }
        _ => Vec::new(),
    }
}

/// An entrant's tie-break values in the spec's order; `group` for a direct encounter is those
/// with the same points.
fn tie_break_values(
    entrant: EntrantId,
    points: f64,
    entrants: &[Entrant],
    past: &History,
    scores: &BTreeMap<EntrantId, f64>,
    breaks: &[TieBreak],
) -> Vec<f64> {
    let group: Vec<EntrantId> =
        entrants.iter().map(|e| e.id).filter(|&id| id != entrant && past.points(id) == points).collect();
    breaks
        .iter()
        .map(|tb| match tb {
            TieBreak::Sos | TieBreak::Tablemates => sos(entrant, past, scores),
            TieBreak::Sodos => sodos(entrant, past, scores),
            TieBreak::HeadToHead | TieBreak::DirectEncounters => against(entrant, past, &group),
            TieBreak::McMahonScore => scores.get(&entrant).copied().unwrap_or(0.0),
        })
        // An empty sum is -0.0; the JSON shows 0.
        .map(|x| x + 0.0)
        .collect()
}

/// "tied on 4 points with Bob: ahead on SOS 12 to 10", or None when not tied.
fn explain(
    row: &StandingRow,
    next: &StandingRow,
    breaks: &[TieBreak],
    (mcmahon, knockout): (bool, bool),
    name: &dyn Fn(EntrantId) -> String,
) -> Option<String> {
    let reached = |r: &StandingRow| r.games + r.byes;
    if row.eliminated != next.eliminated || knockout && reached(row) != reached(next) {
        return None;
    }
    let (tied_on, skip) = if mcmahon {
        if row.tie_breaks.first() != next.tie_breaks.first() {
            return None;
        }
        (format!("a McMahon score of {}", number(row.tie_breaks.first().copied().unwrap_or(0.0))), 1)
    } else {
        if row.points != next.points {
            return None;
        }
        (points_text(row.points), 0)
    };
    let other = name(next.entrant);
    for (i, tb) in breaks.iter().enumerate().skip(skip) {
        let (a, b) = (row.tie_breaks[i], next.tie_breaks[i]);
        if a != b {
            return Some(format!(
                "tied on {tied_on} with {other}: ahead on {} {} to {}",
                tb.name(),
                number(a),
                number(b)
            ));
        }
    }
    Some(format!("tied on {tied_on} with {other} and on every tie-break: the place is shared"))
}

/// "1 point", "4 points", "2.5 points".
pub fn points_text(x: f64) -> String {
    let unit = if x == 1.0 { "point" } else { "points" };
    format!("{} {unit}", number(x))
}

/// 4 → "4", 2.5 → "2.5" (and -0, an empty sum, → "0").
pub fn number(x: f64) -> String {
    let x = x + 0.0;
    if x.fract() == 0.0 { format!("{x:.0}") } else { format!("{}", (x * 100.0).round() / 100.0) }
}
