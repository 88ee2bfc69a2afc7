//! Each mail's subject and text. Links carry their token after `#`: browsers never send the
//! fragment to a server, so no proxy or request log sees it.

use lettre::{
    Message,
    message::{
        Mailbox,
        header::{ContentType, HeaderName, HeaderValue},
    },
};
use serde::{Deserialize, Serialize};

use super::{MailConfig, Notice};
use crate::error::ApiError;

/// What a confirmation or a password reset mail carries.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LinkPayload {
    pub token: String,
    /// The account's name (resets: a player may have forgotten it too).
    #[serde(default)]
    pub name: Option<String>,
}

/// A mail ready to send: subject, text, and the unsubscribe link of a notice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    pub subject: String,
    pub text: String,
    /// The page that unsubscribes (body) and the one-click URL (`List-Unsubscribe`).
    pub unsubscribe: Option<(String, String)>,
}

fn game_link(config: &MailConfig, game: i64) -> String {
    format!("{}/#/game/{game}", config.public_url)
}

/// The confirmation of a new address.
pub fn confirm(config: &MailConfig, p: &LinkPayload) -> Draft {
    Draft {
        subject: "Confirm your email address for GoBeyond".into(),
        text: format!(
            "Someone (we hope you) added this address to a GoBeyond account.\n\n\
             To confirm it, open this link within a day:\n{}/#/mail/confirm/{}\n\n\
             If it was not you, ignore this mail: nothing will be sent to you.\n",
            config.public_url, p.token
        ),
        unsubscribe: None,
    }
}

/// A password reset link.
pub fn reset(config: &MailConfig, p: &LinkPayload) -> Draft {
    let name = p.name.as_deref().map(|n| format!(" for the account \"{n}\"")).unwrap_or_default();
    Draft {
        subject: "Reset your GoBeyond password".into(),
        text: format!(
            "A new password was asked for{name}.\n\n\
             To choose one, open this link within an hour (it works once):\n{}/#/mail/reset/{}\n\n\
             If you did not ask, ignore this mail: your password stays as it is.\n",
            config.public_url, p.token
        ),
        unsubscribe: None,
    }
}

/// A notice, with its unsubscribe token.
pub fn notice(config: &MailConfig, n: &Notice, unsubscribe_token: &str) -> Draft {
    let (subject, body) = match n {
        Notice::YourTurn { game } => (
            format!("Your move in game #{game}"),
            format!(
                "Game #{game} is waiting for your move.\n\nPlay it here:\n{}\n",
                game_link(config, *game)
            ),
        ),
        Notice::TimeLow { game, deadline_ms } => {
            let left_min = (deadline_ms - crate::store::now_ms()).max(0) / 60_000;
            let left = if left_min >= 120 {
                format!("{} hours", left_min / 60)
            } else {
                format!("{left_min} minutes")
            };
            (
                format!("Time is running out in game #{game}"),
                format!(
                    "Your clock in game #{game} has about {left} left: move before it runs out.\n\n{}\n",
                    game_link(config, *game)
                ),
            )
        }
        Notice::Challenge { from, game } => (
            format!("{from} challenges you to a game"),
            match game {
                Some(g) => {
                    format!("{from} challenges you to a game.\n\nSee it here:\n{}\n", game_link(config, *g))
                }
                None => format!(
                    "{from} challenges you to a game.\n\nAnswer in the lobby:\n{}/#/\n",
                    config.public_url
                ),
            },
        ),
        Notice::GameOver { game, place, players } => {
            let how = match place {
                Some(1) => "You won.".to_string(),
                Some(p) => format!("You placed {p} of {players}."),
                None => "It ended without a result.".to_string(),
            };
            (
                format!("Game #{game} is over"),
                format!("Game #{game} is over. {how}\n\nSee how it ended:\n{}\n", game_link(config, *game)),
            )
        }
        Notice::Digest { games } => {
            let list: String = games.iter().map(|g| format!("  #{g}: {}\n", game_link(config, *g))).collect();
            (
                format!(
                    "{} game{} waiting for your move",
                    games.len(),
                    if games.len() == 1 { "" } else { "s" }
                ),
                format!("These games are waiting for your move:\n\n{list}"),
            )
        }
        Notice::RoundStart { tournament, name, round, game } => (
            format!("Round {round} of {name} has started"),
            format!(
                "Round {round} of the tournament \"{name}\" has started, and your game is ready.\n\n\
                 Play it here:\n{}\n\nThe tournament's pairings and standings:\n{}/#/tournaments/{tournament}\n",
                game_link(config, *game),
                config.public_url
            ),
        ),
    };
    let page = format!("{}/#/mail/unsubscribe/{unsubscribe_token}", config.public_url);
    let one_click = format!("{}/api/mail/unsubscribe?token={unsubscribe_token}", config.public_url);
    let text = format!(
        "{body}\n-- \nYou get this mail because you asked for it in your GoBeyond mail settings.\n\
         Stop these mails with one click: {page}\n"
    );
    Draft { subject, text, unsubscribe: Some((page, one_click)) }
}

/// The message itself.
pub fn message(config: &MailConfig, to: &str, draft: Draft) -> Result<Message, ApiError> {
    let from: Mailbox = config
        .from
        .parse()
        .map_err(|_| ApiError::Config("the sender address (--mail-from) is not valid".into()))?;
    let to: Mailbox =
        to.parse().map_err(|_| ApiError::BadRequest("the recipient's address is not valid".into()))?;
    let mut builder =
        Message::builder().from(from).to(to).subject(draft.subject).header(ContentType::TEXT_PLAIN);
    if let Some((_, one_click)) = &draft.unsubscribe {
        // RFC 2369 and RFC 8058: mail programs show an unsubscribe button that POSTs here.
        builder = builder
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe"),
                format!("<{one_click}>"),
            ))
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                "List-Unsubscribe=One-Click".into(),
            ));
    }
    builder.body(draft.text).map_err(|e| ApiError::Internal(format!("could not build a mail: {e}")))
}
