//! Arena: no rounds; whenever enough entrants wait in the lobby, tables form from them, the
//! best placed first, avoiding those who met most (docs/tournaments.md, "Arena").

use crate::history::History;
use crate::spec::{Entrant, EntrantId, Round, Spec, Table, tie_hash};
use crate::tables::{greedy_tables, seat};

pub fn tables(spec: &Spec, waiting: &[EntrantId], entrants: &[Entrant], history: &[Round]) -> Vec<Table> {
    if spec.validate().is_err() {
        return Vec::new();
    }
    let past = History::read(spec, history);
    let number = history.len() as u32 + 1;
    let mut order: Vec<EntrantId> = Vec::new();
    for &id in waiting {
        let known = entrants.iter().any(|e| e.id == id && e.active_in(number));
        if known && !order.contains(&id) {
            order.push(id);
        }
    }
    order.sort_by(|&a, &b| {
        past.points(b)
            .total_cmp(&past.points(a))
            .then(tie_hash(spec.seed, number, a).cmp(&tie_hash(spec.seed, number, b)))
    });
    // Whole tables only; the rest keep waiting.
    order.truncate(order.len() - order.len() % spec.players());
    greedy_tables(&order, spec.players(), &past)
        .iter()
        .map(|members| seat(members, &past, |id| tie_hash(spec.seed, number, id)))
        .collect()
}
