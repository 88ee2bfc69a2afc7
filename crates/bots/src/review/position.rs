//! One position's review: the search's values for every seat, expected scores, best actions
//! and ownership, for any system (`docs/analysis.md`).

use std::sync::Arc;

use gobeyond_rules::{MAX_PLAYERS, playout::PlayoutTables, registry::to_object};

use super::{Candidate, PositionReview, ReviewOptions};
use crate::{
    Computer,
    search::mcts::{Analysis, SearchConfig, Searcher},
};

/// The review of `game`'s position (`previous`: the position before, for carried values).
pub(super) fn review_typed<G: Computer>(
    game: &G,
    at: usize,
    options: &ReviewOptions,
    previous: Option<&PositionReview>,
) -> PositionReview {
    let seats = game.player_count();
    if game.outcome().is_some() {
        return finished(game, at);
    }
    let turn = game.turn();
    let mover = match (turn.chance, turn.seats.as_slice()) {
        (None, [one]) => Some(*one),
        _ => None,
    };
    // A chance draw is searched (every simulation draws it anew: the values are expectations
    // over it); several seats deciding at once are not, their values are carried.
    if mover.is_none() && turn.chance.is_none() {
        let (values, scores) = match previous {
            Some(p) => (p.values.clone(), p.scores.clone()),
            None => (vec![1.0 / seats.max(1) as f32; seats], None),
        };
        return PositionReview {
            at,
            to_move: None,
            values,
            carried: true,
            scores,
            best: Vec::new(),
            playouts: 0,
            ownership: Vec::new(),
        };
    }
    let config = SearchConfig {
        playouts: options.playouts,
        seed: options.seed,
        threads: options.threads,
        // After the game every hand is known: search the true position (`docs/analysis.md`).
        determinize: false,
        ..SearchConfig::default()
    };
    let analysis = Searcher::<G>::new(config).search(game);
    let values = seat_values(&analysis, mover.map(|m| m.index()), seats);
    let best = match mover {
        Some(_) => analysis
            .actions
            .iter()
            .take(options.best)
            .map(|a| Candidate {
                input: to_object(&game.to_wire(a.action)),
                value: a.value,
                visits: a.visits,
            })
            .collect(),
        None => Vec::new(),
    };
    let ownership = (0..analysis.ownership.len() as u32)
        .map(|n| analysis.owner(n).map(|(p, share)| (p.0, share)))
        .collect();
    PositionReview {
        at,
        to_move: mover.map(|m| m.0),
        values,
        carried: false,
        scores: analysis.seat_scores.clone(),
        best,
        playouts: analysis.playouts,
        ownership,
    }
}

/// The search's values per seat; if no simulation came back (none can: the first always
/// runs), the mover's best value and an even split of the rest.
fn seat_values<A>(analysis: &Analysis<A>, mover: Option<usize>, seats: usize) -> Vec<f32> {
    if analysis.seat_values.len() == seats {
        return analysis.seat_values.clone();
    }
    let value = analysis.value();
    let others = if seats > 1 { (1.0 - value) / (seats - 1) as f32 } else { 0.0 };
    (0..seats).map(|s| if Some(s) == mover { value } else { others }).collect()
}

/// The end: the final rewards and the final count.
fn finished<G: Computer>(game: &G, at: usize) -> PositionReview {
    let seats = game.player_count();
    let mut scores = [0.0; MAX_PLAYERS];
    // A finished game's count needs no playout; the scratch is only the hook's argument.
    let scratch = game.scratch(&Arc::new(PlayoutTables::new(game.map())), &SearchConfig::default());
    let scored = game.final_scores(&scratch, &mut scores);
    PositionReview {
        at,
        to_move: None,
        values: game.final_rewards()[..seats].to_vec(),
        carried: false,
        scores: scored.then(|| scores[..seats].to_vec()),
        best: Vec::new(),
        playouts: 0,
        ownership: Vec::new(),
    }
}
