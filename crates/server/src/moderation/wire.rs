//! What moderation's endpoints take and answer (docs/moderation.md); exported to the web
//! client's `protocol.ts` with the rest of the protocol.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A player's role and the sanctions that apply now (in `GET /api/me`).
#[derive(Debug, Clone, Serialize, TS)]
pub struct StandingView {
    pub role: String,
    pub muted_until_ms: Option<i64>,
    pub suspended_until_ms: Option<i64>,
    pub banned: bool,
    pub reason: Option<String>,
}

impl From<&crate::store::moderation::Standing> for StandingView {
    fn from(s: &crate::store::moderation::Standing) -> StandingView {
        StandingView {
            role: s.role.clone(),
            muted_until_ms: s.muted_until_ms,
            suspended_until_ms: s.suspended_until_ms,
            banned: s.banned,
            reason: s.reason().map(str::to_string),
        }
    }
}

/// `POST /api/reports`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportBody {
    #[serde(default)]
    pub user: Option<String>,
    #[serde(default)]
    pub game: Option<i64>,
    #[serde(default)]
    pub chat: Option<i64>,
    pub reason: String,
    #[serde(default)]
    pub text: String,
}

#[derive(Debug, Serialize, TS)]
pub struct ReportCreated {
    pub id: i64,
}

/// A chat line as moderators see it.
#[derive(Debug, Clone, Serialize, TS)]
pub struct ModChatLine {
    pub id: i64,
    pub from: Option<String>,
    pub text: String,
    pub at_ms: i64,
    pub deleted: bool,
}

/// A report in the moderators' queue, with its context.
#[derive(Debug, Serialize, TS)]
pub struct ReportView {
    pub id: i64,
    pub reporter: String,
    pub user: Option<String>,
    pub game: Option<i64>,
    pub chat: Option<ModChatLine>,
    /// The chat around the reported line, or the reported game's last lines.
    pub context: Vec<ModChatLine>,
    pub reason: String,
    pub text: String,
    pub created_ms: i64,
    pub status: String,
    pub closed_by: Option<String>,
    pub note: Option<String>,
}

#[derive(Debug, Serialize, TS)]
pub struct ReportQueue {
    pub reports: Vec<ReportView>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloseBody {
    #[serde(default)]
    pub note: String,
}

/// `POST /api/moderation/actions`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionBody {
    pub action: String,
    #[serde(default)]
    pub user: Option<String>,
    pub reason: String,
    #[serde(default)]
    pub days: Option<f64>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub chat: Option<i64>,
    #[serde(default)]
    pub game: Option<i64>,
    #[serde(default)]
    pub report: Option<i64>,
}

#[derive(Debug, Serialize, TS)]
pub struct ActionDone {
    pub ok: bool,
    /// The audit line written.
    pub id: i64,
}

/// A line of the audit log. `moderator` is left out of a player's own view.
#[derive(Debug, Serialize, TS)]
pub struct AuditEntry {
    pub id: i64,
    pub moderator: Option<String>,
    pub user: Option<String>,
    pub action: String,
    pub reason: String,
    pub detail: Option<String>,
    pub until_ms: Option<i64>,
    pub at_ms: i64,
}

#[derive(Debug, Serialize, TS)]
pub struct AuditLog {
    pub entries: Vec<AuditEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoleBody {
    pub user: String,
    pub role: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeleteBody {
    #[serde(default)]
    pub password: Option<String>,
}

/// The TypeScript declarations of the types above, for `protocol.ts`.
pub fn declarations(cfg: &ts_rs::Config) -> Vec<(String, String)> {
    macro_rules! decls {
        ($($t:ty),* $(,)?) => { vec![$((<$t>::ident(cfg), <$t>::decl(cfg))),*] };
    }
    decls![
        StandingView,
        ReportCreated,
        ModChatLine,
        ReportView,
        ReportQueue,
        ActionDone,
        AuditEntry,
        AuditLog
    ]
}
