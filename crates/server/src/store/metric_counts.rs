//! Counts the metrics read when scraped (`crate::metrics`).

use sqlx::Row;

use super::Store;
use crate::error::ApiError;

impl Store {
    /// Games in play and mails waiting to be sent, in the whole database: one indexed count each
    /// (`games_status`, `mail_queue_due`), made once per scrape.
    pub async fn metric_counts(&self) -> Result<(i64, i64), ApiError> {
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM games WHERE status = 'live') AS live, \
             (SELECT COUNT(*) FROM mail_queue WHERE status = 'queued') AS queued",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok((row.try_get("live")?, row.try_get("queued")?))
    }
}
