//! Tournaments (`crate::tournament`, docs/tournaments.md): the tournament, its entrants, its
//! rounds (the pairing library's `Round` as JSON) and the game of each table. The director of a
//! running tournament is one instance at a time: it claims the tournament until a time, renews
//! the claim, and each claim raises `epoch`; the director's writes name the epoch they were
//! made under and are refused once another instance claimed the tournament (fencing).

use sqlx::{AssertSqlSafe, Row, any::AnyRow};

use super::{Store, now_ms, unique_violation};
use crate::error::ApiError;

/// A tournament as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct TournamentRow {
    pub id: i64,
    pub name: String,
    pub creator: i64,
    pub creator_name: String,
    /// The checked creation body (JSON).
    pub settings: String,
    /// `open`, `running`, `finished` or `cancelled`.
    pub state: String,
    pub start_ms: Option<i64>,
    pub max_entrants: i64,
    pub entrants: i64,
    pub created_ms: i64,
    pub finished_ms: Option<i64>,
}

/// One entrant: an account or a bot.
#[derive(Debug, Clone, PartialEq)]
pub struct EntrantRow {
    pub id: i64,
    pub user_id: Option<i64>,
    pub bot_level: Option<i64>,
    pub name: String,
    pub rating: f64,
    pub joined_round: i64,
    pub withdrawn_after: Option<i64>,
    /// The rounds a bye was asked for (JSON list).
    pub bye_requested: String,
}

/// One round as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundRow {
    pub number: i64,
    /// The pairing library's `Round` (JSON).
    pub round: String,
    pub started_ms: i64,
    pub finished_ms: Option<i64>,
}

/// A new entrant.
#[derive(Debug, Clone)]
pub struct NewEntrant<'a> {
    pub user_id: Option<i64>,
    pub bot_level: Option<i64>,
    pub name: &'a str,
    pub rating: f64,
    pub joined_round: i64,
}

// The queries below are put together from these constants only (no input).
const COLUMNS: &str = "t.id, t.name, t.creator, u.name AS creator_name, t.settings, t.state, t.start_ms, \
     t.max_entrants, t.created_ms, t.finished_ms, \
     (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament_id = t.id AND e.withdrawn_after IS NULL) AS entrants";
const ENTRANT_COLUMNS: &str =
    "id, user_id, bot_level, name, rating, joined_round, withdrawn_after, bye_requested";
/// Due for a director: running, or open with its start time passed.
const DUE: &str = "(state = 'running' OR (state = 'open' AND start_ms IS NOT NULL AND start_ms <= $4))";

fn tournament(row: &AnyRow) -> Result<TournamentRow, sqlx::Error> {
    Ok(TournamentRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        creator: row.try_get("creator")?,
        creator_name: row.try_get("creator_name")?,
        settings: row.try_get("settings")?,
        state: row.try_get("state")?,
        start_ms: row.try_get("start_ms")?,
        max_entrants: row.try_get("max_entrants")?,
        entrants: row.try_get("entrants")?,
        created_ms: row.try_get("created_ms")?,
        finished_ms: row.try_get("finished_ms")?,
    })
}

fn entrant(row: &AnyRow) -> Result<EntrantRow, sqlx::Error> {
    Ok(EntrantRow {
        id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        bot_level: row.try_get("bot_level")?,
        name: row.try_get("name")?,
        rating: row.try_get("rating")?,
        joined_round: row.try_get("joined_round")?,
        withdrawn_after: row.try_get("withdrawn_after")?,
        bye_requested: row.try_get("bye_requested")?,
    })
}

impl Store {
    /// Stores a new open tournament unless `creator` already has `cap` open or running ones.
    pub async fn create_tournament(
        &self,
        creator: i64,
        name: &str,
        settings: &str,
        start_ms: Option<i64>,
        max_entrants: i64,
        cap: i64,
    ) -> Result<i64, ApiError> {
        let mut tx = self.pool.begin().await?;
        // A write first: PostgreSQL locks the creator's row, SQLite takes its write lock.
        sqlx::query("UPDATE users SET name = name WHERE id = $1").bind(creator).execute(&mut *tx).await?;
        let n: i64 = sqlx::query(
            "SELECT COUNT(*) AS n FROM tournaments WHERE creator = $1 AND state IN ('open', 'running')",
        )
        .bind(creator)
        .fetch_one(&mut *tx)
        .await?
        .try_get("n")?;
        if n >= cap {
            return Err(ApiError::TooMany(format!(
                "at most {cap} open or running tournaments per player: wait for one to finish"
            )));
        }
        let id: i64 = sqlx::query(
            "INSERT INTO tournaments (name, creator, settings, state, start_ms, max_entrants, created_ms) \
             VALUES ($1, $2, $3, 'open', $4, $5, $6) RETURNING id",
        )
        .bind(name)
        .bind(creator)
        .bind(settings)
        .bind(start_ms)
        .bind(max_entrants)
        .bind(now_ms())
        .fetch_one(&mut *tx)
        .await?
        .try_get("id")?;
        tx.commit().await?;
        Ok(id)
    }

    pub async fn tournament(&self, id: i64) -> Result<Option<TournamentRow>, ApiError> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM tournaments t JOIN users u ON u.id = t.creator WHERE t.id = $1"
        )))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(tournament).transpose()?)
    }

    /// Tournaments in `state`, newest first, at most `limit`.
    pub async fn tournaments(&self, state: &str, limit: i64) -> Result<Vec<TournamentRow>, ApiError> {
        let rows = sqlx::query(AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM tournaments t JOIN users u ON u.id = t.creator \
             WHERE t.state = $1 ORDER BY t.id DESC LIMIT $2"
        )))
        .bind(state)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(tournament).collect::<Result<_, sqlx::Error>>().map_err(Into::into)
    }

    pub async fn entrants(&self, tournament: i64) -> Result<Vec<EntrantRow>, ApiError> {
        let rows = sqlx::query(AssertSqlSafe(format!(
            "SELECT {ENTRANT_COLUMNS} FROM tournament_entrants WHERE tournament_id = $1 ORDER BY id"
        )))
        .bind(tournament)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(entrant).collect::<Result<_, sqlx::Error>>().map_err(Into::into)
    }

    /// Adds an entrant to an open tournament with room left; returns its id.
    pub async fn add_entrant(&self, tournament: i64, new: &NewEntrant<'_>) -> Result<i64, ApiError> {
        let mut tx = self.pool.begin().await?;
        // A write first, so that two joins cannot both take the last place.
        let open = sqlx::query("UPDATE tournaments SET epoch = epoch WHERE id = $1 AND state = 'open'")
            .bind(tournament)
            .execute(&mut *tx)
            .await?;
        if open.rows_affected() != 1 {
            return Err(ApiError::Conflict("the tournament has started: entries are closed".into()));
        }
        let row = sqlx::query(
            "SELECT t.max_entrants, (SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament_id = t.id) AS n \
             FROM tournaments t WHERE t.id = $1",
        )
        .bind(tournament)
        .fetch_one(&mut *tx)
        .await?;
        let (max, n): (i64, i64) = (row.try_get("max_entrants")?, row.try_get("n")?);
        if n >= max {
            return Err(ApiError::Conflict(format!("the tournament is full ({max} entrants)")));
        }
        let id: i64 = sqlx::query(
            "INSERT INTO tournament_entrants (tournament_id, user_id, bot_level, name, rating, joined_round) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(tournament)
        .bind(new.user_id)
        .bind(new.bot_level)
        .bind(new.name)
        .bind(new.rating)
        .bind(new.joined_round)
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| unique_violation(e, || ApiError::Conflict("you are already in this tournament".into())))?
        .try_get("id")?;
        tx.commit().await?;
        Ok(id)
    }

    /// Takes `user` out of an open tournament; false when they were not in it.
    pub async fn remove_entrant(&self, tournament: i64, user: i64) -> Result<bool, ApiError> {
        let r = sqlx::query(
            "DELETE FROM tournament_entrants WHERE tournament_id = $1 AND user_id = $2 \
             AND EXISTS (SELECT 1 FROM tournaments t WHERE t.id = $1 AND t.state = 'open')",
        )
        .bind(tournament)
        .bind(user)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Withdraws `user` from a running tournament after round `after`; false when they were not
    /// in it or had withdrawn already.
    pub async fn withdraw_entrant(&self, tournament: i64, user: i64, after: i64) -> Result<bool, ApiError> {
        let r = sqlx::query(
            "UPDATE tournament_entrants SET withdrawn_after = $3 \
             WHERE tournament_id = $1 AND user_id = $2 AND withdrawn_after IS NULL",
        )
        .bind(tournament)
        .bind(user)
        .bind(after)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Stores the rounds `user` asked a bye for (JSON list).
    pub async fn set_byes_requested(&self, tournament: i64, user: i64, byes: &str) -> Result<bool, ApiError> {
        let r = sqlx::query(
            "UPDATE tournament_entrants SET bye_requested = $3 WHERE tournament_id = $1 AND user_id = $2",
        )
        .bind(tournament)
        .bind(user)
        .bind(byes)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Starts an open tournament now (its creator asked, or it is full); false when it was not open.
    pub async fn start_tournament_now(&self, tournament: i64) -> Result<bool, ApiError> {
        let r = sqlx::query("UPDATE tournaments SET state = 'running' WHERE id = $1 AND state = 'open'")
            .bind(tournament)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Claims one tournament due for a director and not claimed by a live instance, for `owner`
    /// until `until_ms`: returns (id, epoch).
    pub async fn claim_tournament(
        &self,
        owner: &str,
        until_ms: i64,
        now_game_ms: i64,
    ) -> Result<Option<(i64, i64)>, ApiError> {
        let free = format!("{DUE} AND claim_until_ms < $3");
        let row = sqlx::query(AssertSqlSafe(format!(
            "UPDATE tournaments SET claimed_by = $1, claim_until_ms = $2, epoch = epoch + 1 \
             WHERE id IN (SELECT id FROM tournaments WHERE {free} ORDER BY id LIMIT 1) AND {free} \
             RETURNING id, epoch"
        )))
        .bind(owner)
        .bind(until_ms)
        .bind(now_ms())
        .bind(now_game_ms)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => Some((r.try_get("id")?, r.try_get("epoch")?)),
            None => None,
        })
    }

    /// Extends the claim made at `epoch`; false when another instance took the tournament over.
    pub async fn renew_tournament_claim(&self, id: i64, epoch: i64, until_ms: i64) -> Result<bool, ApiError> {
        let r = sqlx::query("UPDATE tournaments SET claim_until_ms = $3 WHERE id = $1 AND epoch = $2")
            .bind(id)
            .bind(epoch)
            .bind(until_ms)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Gives up the claim made at `epoch` (the server stops), so another instance may take the
    /// tournament at once.
    pub async fn release_tournament_claim(&self, id: i64, epoch: i64) -> Result<(), ApiError> {
        sqlx::query("UPDATE tournaments SET claim_until_ms = 0 WHERE id = $1 AND epoch = $2")
            .bind(id)
            .bind(epoch)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Gives up every claim `owner` holds (the server stops).
    pub async fn release_tournament_claims(&self, owner: &str) -> Result<(), ApiError> {
        sqlx::query("UPDATE tournaments SET claim_until_ms = 0 WHERE claimed_by = $1")
            .bind(owner)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Moves the tournament to `state` under the claim made at `epoch`.
    pub async fn set_tournament_state(&self, id: i64, epoch: i64, state: &str) -> Result<bool, ApiError> {
        let finished = matches!(state, "finished" | "cancelled").then(now_ms);
        let r =
            sqlx::query("UPDATE tournaments SET state = $3, finished_ms = $4 WHERE id = $1 AND epoch = $2")
                .bind(id)
                .bind(epoch)
                .bind(state)
                .bind(finished)
                .execute(&self.pool)
                .await?;
        Ok(r.rows_affected() == 1)
    }

    pub async fn tournament_rounds(&self, tournament: i64) -> Result<Vec<RoundRow>, ApiError> {
        let rows = sqlx::query(
            "SELECT number, round, started_ms, finished_ms FROM tournament_rounds \
             WHERE tournament_id = $1 ORDER BY number",
        )
        .bind(tournament)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RoundRow {
                    number: r.try_get("number")?,
                    round: r.try_get("round")?,
                    started_ms: r.try_get("started_ms")?,
                    finished_ms: r.try_get("finished_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Stores a new round, or a round's results (`finished_ms` once every table is done), under
    /// the claim made at `epoch`; false when the claim was lost.
    pub async fn put_round(&self, tournament: i64, epoch: i64, round: &RoundRow) -> Result<bool, ApiError> {
        let mut tx = self.pool.begin().await?;
        if !fence(&mut tx, tournament, epoch).await? {
            return Ok(false);
        }
        let updated = sqlx::query(
            "UPDATE tournament_rounds SET round = $3, finished_ms = $4 WHERE tournament_id = $1 AND number = $2",
        )
        .bind(tournament)
        .bind(round.number)
        .bind(&round.round)
        .bind(round.finished_ms)
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() == 0 {
            sqlx::query(
                "INSERT INTO tournament_rounds (tournament_id, number, round, started_ms, finished_ms) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(tournament)
            .bind(round.number)
            .bind(&round.round)
            .bind(round.started_ms)
            .bind(round.finished_ms)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The game of each table so far: (round, table, game).
    pub async fn tournament_games(&self, tournament: i64) -> Result<Vec<(i64, i64, i64)>, ApiError> {
        let rows = sqlx::query(
            "SELECT round, table_no, game_id FROM tournament_games WHERE tournament_id = $1 ORDER BY round, table_no",
        )
        .bind(tournament)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("round")?, r.try_get("table_no")?, r.try_get("game_id")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Notes `game` as the game of a table, under the claim made at `epoch`, and queues `mails`
    /// (the round's start told to its people) with it; false when the claim was lost or the
    /// table has a game already (then no mail is queued).
    pub async fn put_table_game(
        &self,
        tournament: i64,
        epoch: i64,
        round: i64,
        table: i64,
        game: i64,
        mails: &[(super::mail::NewMail<'_>, super::mail::MailBounds)],
    ) -> Result<bool, ApiError> {
        let mut tx = self.pool.begin().await?;
        if !fence(&mut tx, tournament, epoch).await? {
            return Ok(false);
        }
        let inserted = sqlx::query(
            "INSERT INTO tournament_games (tournament_id, round, table_no, game_id) VALUES ($1, $2, $3, $4)",
        )
        .bind(tournament)
        .bind(round)
        .bind(table)
        .bind(game)
        .execute(&mut *tx)
        .await;
        if let Err(e) = inserted {
            return match unique_violation(e, || ApiError::Conflict(String::new())) {
                ApiError::Conflict(_) => Ok(false),
                other => Err(other),
            };
        }
        sqlx::query("UPDATE games SET tournament_id = $1, tournament_round = $2 WHERE id = $3")
            .bind(tournament)
            .bind(round)
            .bind(game)
            .execute(&mut *tx)
            .await?;
        for (mail, bounds) in mails {
            // Past the account's daily mails or a full queue the mail is left out, as any notice.
            Store::enqueue_mail_in(&mut tx, mail, *bounds).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// A game's status and stored result (JSON), if the game exists.
    pub async fn game_outcome(&self, game: i64) -> Result<Option<(String, Option<String>)>, ApiError> {
        let row = sqlx::query("SELECT status, result FROM games WHERE id = $1")
            .bind(game)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some((r.try_get("status")?, r.try_get("result")?)),
            None => None,
        })
    }
}

/// Inside a transaction: true when the claim made at `epoch` still holds (and takes the
/// tournament's row lock, so that a claim cannot pass between the check and the write).
async fn fence(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    tournament: i64,
    epoch: i64,
) -> Result<bool, ApiError> {
    let r = sqlx::query("UPDATE tournaments SET epoch = epoch WHERE id = $1 AND epoch = $2")
        .bind(tournament)
        .bind(epoch)
        .execute(&mut **tx)
        .await?;
    Ok(r.rows_affected() == 1)
}
