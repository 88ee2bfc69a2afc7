//! Swiss and McMahon, two and N players: entrants ordered by score (McMahon: starting score
//! plus points), byes to the lowest who had the fewest, then tables of neighbours in the order
//! that have not met when that is possible (docs/tournaments.md, "Swiss", "McMahon").

use crate::history::History;
use crate::spec::{Entrant, EntrantId, Format, Round, Spec, tie_hash};
use crate::tables::{choose_byes, greedy_tables, pair_two, seat};

/// The McMahon starting score, capped at the bar.
pub fn mcmahon_start(spec: &Spec, entrant: &Entrant) -> f64 {
    let start = match spec.mcmahon_bar {
        Some(bar) => entrant.mcmahon_start.min(bar),
        None => entrant.mcmahon_start,
    };
    f64::from(start)
}

/// The score Swiss orders by: points, plus the starting score for McMahon.
pub fn score(spec: &Spec, entrant: &Entrant, past: &History) -> f64 {
    let start = if spec.format == Format::McMahon { mcmahon_start(spec, entrant) } else { 0.0 };
    start + past.points(entrant.id)
}

pub fn pair(spec: &Spec, entrants: &[Entrant], history: &[Round], number: u32) -> Round {
    let past = History::read(spec, history);
    let mut active: Vec<&Entrant> = entrants.iter().filter(|e| e.active_in(number)).collect();
    active.sort_by(|a, b| {
        score(spec, b, &past)
            .total_cmp(&score(spec, a, &past))
            .then(b.rating.total_cmp(&a.rating))
            .then(tie_hash(spec.seed, number, a.id).cmp(&tie_hash(spec.seed, number, b.id)))
    });
    let mut order: Vec<EntrantId> = active.iter().map(|e| e.id).collect();
    let requested: Vec<EntrantId> =
        active.iter().filter(|e| e.bye_requested.contains(&number)).map(|e| e.id).collect();
    let players = spec.players();
    let playing = order.len() - requested.len().min(order.len());
    let byes = choose_byes(&order, requested.len() + playing % players, &requested, &past);
    order.retain(|id| !byes.contains(id));
    let groups = if players == 2 { pair_two(&order, &past) } else { greedy_tables(&order, players, &past) };
    let tables: Vec<_> =
        groups.iter().map(|members| seat(members, &past, |id| tie_hash(spec.seed, number, id))).collect();
    Round { number, results: vec![None; tables.len()], tables, byes, absent: Vec::new() }
}
