//! The director's check of a paired round before it is stored (docs/tournaments.md "Checking a
//! round"): the pairing library's `check_round` refuses a player in two tables, an unknown or
//! withdrawn entrant, a table of the wrong size. A round that fails is never stored nor played:
//! the director logs the reason, naming the entrant, and pairs again at its next look.

use gobeyond_tournament as pairing;

use crate::{error::ApiError, store::tournaments::EntrantRow};

/// `round` as the library checks it against every entrant (withdrawn and absent ones too, so
/// that a withdrawn entrant seated again is refused); the reason names entrants by name.
pub(super) fn check_paired(
    spec: &pairing::Spec,
    lib: &[pairing::Entrant],
    round: &pairing::Round,
    entrants: &[EntrantRow],
) -> Result<(), ApiError> {
    pairing::check_round(spec, lib, round).map_err(|e| {
        ApiError::Internal(format!(
            "round {} was not stored: {}",
            round.number,
            named(&e.to_string(), entrants)
        ))
    })
}

/// The library's reason with each "entrant N" followed by the entrant's name.
fn named(reason: &str, entrants: &[EntrantRow]) -> String {
    let mut out = reason.to_string();
    for e in entrants {
        let id = format!("entrant {} ", e.id);
        out = out.replace(&id, &format!("entrant {} ({}) ", e.id, e.name));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(id: i64, name: &str) -> EntrantRow {
        EntrantRow {
            id,
            user_id: None,
            bot_level: Some(1),
            name: name.into(),
            rating: 1500.0,
            joined_round: 1,
            withdrawn_after: None,
            bye_requested: "[]".into(),
        }
    }

    fn lib(rows: &[EntrantRow]) -> Vec<pairing::Entrant> {
        rows.iter()
            .map(|e| pairing::Entrant {
                id: e.id as u32,
                rating: e.rating,
                mcmahon_start: 0,
                joined_round: 1,
                withdrawn_after: e.withdrawn_after.map(|r| r as u32),
                bye_requested: Vec::new(),
            })
            .collect()
    }

    fn spec() -> pairing::Spec {
        pairing::Spec {
            format: pairing::Format::Swiss,
            players_per_game: 2,
            rounds: 3,
            points: Vec::new(),
            advance: 1,
            mcmahon_bar: None,
            seed: 1,
        }
    }

    fn round(tables: &[[u32; 2]]) -> pairing::Round {
        pairing::Round {
            number: 2,
            tables: tables.iter().map(|t| pairing::Table { seats: t.to_vec() }).collect(),
            results: vec![None; tables.len()],
            ..pairing::Round::default()
        }
    }

    /// The bad input "a player in two tables of one round": refused, naming the player.
    #[test]
    fn a_player_in_two_tables_is_refused_by_name() {
        let rows: Vec<EntrantRow> =
            [(11, "Ada"), (12, "Bo"), (13, "Cy"), (14, "Di")].iter().map(|&(i, n)| entrant(i, n)).collect();
        assert!(check_paired(&spec(), &lib(&rows), &round(&[[11, 12], [13, 14]]), &rows).is_ok());
        let Err(ApiError::Internal(why)) =
            check_paired(&spec(), &lib(&rows), &round(&[[11, 12], [13, 11]]), &rows)
        else {
            panic!("a player in two tables is refused");
        };
        assert!(why.contains("entrant 11 (Ada) appears twice in round 2"), "{why}");
    }

    #[test]
    fn a_withdrawn_or_unknown_entrant_is_refused_by_name() {
        let mut rows: Vec<EntrantRow> =
            [(1, "Ada"), (2, "Bo"), (3, "Cy"), (4, "Di")].iter().map(|&(i, n)| entrant(i, n)).collect();
        rows[3].withdrawn_after = Some(1);
        let Err(ApiError::Internal(why)) =
            check_paired(&spec(), &lib(&rows), &round(&[[1, 2], [3, 4]]), &rows)
        else {
            panic!("a withdrawn entrant is refused");
        };
        assert!(why.contains("entrant 4 (Di) withdrew after round 1"), "{why}");
        let Err(ApiError::Internal(why)) =
            check_paired(&spec(), &lib(&rows), &round(&[[1, 2], [3, 9]]), &rows)
        else {
            panic!("an unknown entrant is refused");
        };
        assert!(why.contains("entrant 9 is not in this tournament"), "{why}");
    }
}
