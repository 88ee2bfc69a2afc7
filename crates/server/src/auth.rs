//! Accounts and sessions. A session is an opaque random token: the client holds it (an HttpOnly
//! cookie for browsers, a bearer token for programs), the database holds only its SHA-256, so a
//! leaked database cannot be replayed as logins.

use argon2::{
    Argon2,
    password_hash::{PasswordHasher, PasswordVerifier, phc::PasswordHash},
};
use axum::{
    extract::{FromRef, FromRequestParts},
    http::{HeaderMap, header, request::Parts},
};
use base64::Engine;
use sha2::{Digest, Sha256};

use crate::{AppState, error::ApiError, limit::WorkGate, store::User};

pub const COOKIE: &str = "gb_session";

/// 32 random bytes, base64url.
pub fn new_token() -> Result<String, ApiError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

pub fn token_hash(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Password hashes waiting for a core at most; beyond, logins and sign-ups are refused at once.
pub const MAX_WAITING_HASHES: usize = 32;

/// Argon2 is deliberately slow (tens of milliseconds) and takes 19 MiB per hash: hashes run on
/// the blocking pool (never stalling the async workers that carry everyone's moves), at most one
/// per core at a time, with a short queue. 300 simultaneous wrong logins once took 3.5 GiB.
/// One gate per server ([`AppState::hashes`]), so servers sharing a process (tests) do not
/// refuse each other's sign-ins.
pub fn hash_gate() -> WorkGate {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    WorkGate::new(cores, MAX_WAITING_HASHES, "too many sign-ins at once: try again in a moment")
}

pub async fn hash_password(gate: &WorkGate, password: String) -> Result<String, ApiError> {
    gate.run(move || {
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|h| h.to_string())
            .map_err(|e| ApiError::Internal(format!("hashing failed: {e}")))
    })
    .await?
}

/// Whether `password` matches `hash`; with no hash (no such account) the same work is done
/// against a stand-in, so that timing does not tell existing names from missing ones.
pub async fn verify_password(
    gate: &WorkGate,
    password: String,
    hash: Option<String>,
) -> Result<bool, ApiError> {
    static STAND_IN: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let known = hash.is_some();
    let hash = match hash {
        Some(h) => h,
        None => match STAND_IN.get() {
            Some(h) => h.clone(),
            None => {
                let h = hash_password(gate, new_token()?).await?;
                STAND_IN.get_or_init(|| h).clone()
            }
        },
    };
    let matches = gate
        .run(move || {
            PasswordHash::new(&hash)
                .is_ok_and(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
        })
        .await?;
    Ok(known && matches)
}

/// A name as people read it, for comparing names: NFKC (full-width "ａｄｍｉｎ" is "admin"), the
/// Unicode confusables skeleton (UTS #39) of the name *as written*, then case folding, then the
/// skeleton and folding again until nothing changes; last, `i` and `l` count as one letter.
///
/// The skeleton comes before folding because capitals of other scripts look like Latin capitals
/// while their small letters do not: Greek "ΑDΜΙΝ" folded first is "αdμιν", whose μ and ν look
/// like no Latin letter, but its skeleton is "ADMlN", the skeleton of "ADMIN". The skeleton
/// takes capital I to `l` (they look alike) while folding takes it to `i`, so "ADMIN", "admin"
/// and "ADMlN" can only share a key if `i` and `l` do. Two accounts never share a key.
pub fn name_key(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let mut key: String = name.nfkc().collect();
    // Each round only maps characters to prototypes or smaller case: a few rounds reach the
    // fixed point ("M" → "m" → "rn").
    for _ in 0..8 {
        let skeleton: String = unicode_security::confusable_detection::skeleton(&key).collect();
        let next: String = fold(skeleton.nfkc());
        if next == key {
            break;
        }
        key = next;
    }
    key.replace('i', "l")
}

/// Full case folding where it differs from lower case for letters names may hold (ß, final
/// sigma, Cherokee, whose folding goes to the capitals); everything else lower case.
fn fold(text: impl Iterator<Item = char>) -> String {
    let mut out = String::new();
    for c in text {
        match c {
            'ß' | 'ẞ' => out.push_str("ss"),
            'ς' => out.push('σ'),
            // Cherokee folds to its capitals (CaseFolding.txt), which stay as they are.
            '\u{13A0}'..='\u{13F5}' => out.push(c),
            '\u{AB70}'..='\u{ABBF}' | '\u{13F8}'..='\u{13FD}' => out.extend(c.to_uppercase()),
            _ => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// Checks a new account (or bot) name: 3 to 24 letters, digits, '_' or '-', already in NFKC
/// form (so that what is shown is what was compared).
pub fn check_name(name: &str) -> Result<(), ApiError> {
    use unicode_normalization::UnicodeNormalization;
    let ok = (3..=24).contains(&name.chars().count())
        && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        && name.nfkc().eq(name.chars())
        // Both prefixes are the server's own: guests', and deleted accounts' (docs/moderation.md).
        && !name_key(name).starts_with("guest-")
        && !name_key(name).starts_with("deleted-");
    if ok {
        Ok(())
    } else {
        Err(ApiError::BadRequest(
            "names have 3 to 24 letters, digits, '_' or '-' (no full-width or compatibility forms), \
             and do not start with \"guest-\" or \"deleted-\""
                .into(),
        ))
    }
}

/// Compares two secrets (invite codes) in time that does not depend on where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    let (a, b) = (Sha256::digest(a.as_bytes()), Sha256::digest(b.as_bytes()));
    a.iter().zip(b.iter()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Checks a new account name and password.
pub fn check_credentials(name: &str, password: &str) -> Result<(), ApiError> {
    check_name(name)?;
    check_password(name, password)
}

/// Refuses passwords a first guess finds (all spaces, one repeated character, the name) and
/// control characters, which no keyboard types and some clients cut at (NUL).
pub fn check_password(name: &str, password: &str) -> Result<(), ApiError> {
    let refuse = |why: String| Err(ApiError::BadRequest(why));
    if !(8..=128).contains(&password.chars().count()) {
        return refuse("passwords have 8 to 128 characters".into());
    }
    if let Some(c) = password.chars().find(|c| c.is_control()) {
        return refuse(format!(
            "passwords may not contain control characters (this one has U+{:04X})",
            c as u32
        ));
    }
    if password.chars().all(char::is_whitespace) {
        return refuse("a password of spaces only is too easy to guess".into());
    }
    let mut chars = password.chars();
    if let Some(first) = chars.next()
        && chars.all(|c| c == first)
    {
        return refuse(format!("a password of one character repeated ({first:?}) is too easy to guess"));
    }
    if name_key(password.trim()) == name_key(name) {
        return refuse("the password may not be the account's name".into());
    }
    Ok(())
}

/// The session token of a request: the cookie, or `Authorization: Bearer` for programs.
pub fn request_token(headers: &HeaderMap) -> Option<String> {
    if let Some(bearer) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    {
        return Some(bearer.trim().to_string());
    }
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.to_string())
}

/// The session cookie, living as long as the session; `Secure` when the client reached us
/// over HTTPS.
pub fn session_cookie(token: &str, secure: bool, lifetime: std::time::Duration) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{COOKIE}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age={}{secure}", lifetime.as_secs())
}

pub fn clear_cookie(secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{COOKIE}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0{secure}")
}

/// Whether this request came over HTTPS: always when the server is configured so, else when a
/// trusted reverse proxy says so in `X-Forwarded-Proto`.
#[derive(Debug, Clone, Copy)]
pub struct Https(pub bool);

impl<S> FromRequestParts<S> for Https
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let app = AppState::from_ref(state);
        if app.config.secure_cookies {
            return Ok(Https(true));
        }
        let peer =
            parts.extensions.get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip());
        let trusted = peer.is_some_and(|p| app.config.trusted_proxies.contains(&p));
        let https = trusted
            && parts.headers.get("x-forwarded-proto").and_then(|v| v.to_str().ok()).is_some_and(|v| {
                v.split(',').next_back().is_some_and(|p| p.trim().eq_ignore_ascii_case("https"))
            });
        Ok(Https(https))
    }
}

/// Sessions with open game sockets: ending one (logout) closes its sockets at once.
#[derive(Debug, Default)]
pub struct LiveSessions {
    sessions: std::sync::Mutex<std::collections::HashMap<String, tokio::sync::watch::Sender<bool>>>,
}

impl LiveSessions {
    /// Becomes true when the session ends.
    pub fn watch(&self, token_hash: &str) -> tokio::sync::watch::Receiver<bool> {
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        sessions.retain(|_, s| s.receiver_count() > 0);
        sessions
            .entry(token_hash.to_string())
            .or_insert_with(|| tokio::sync::watch::channel(false).0)
            .subscribe()
    }

    pub fn end(&self, token_hash: &str) {
        let ended = self.sessions.lock().unwrap_or_else(|e| e.into_inner()).remove(token_hash);
        if let Some(s) = ended {
            let _ = s.send(true);
        }
    }
}

/// The signed-in user of a request (rejects with 401 otherwise).
#[derive(Debug, Clone)]
pub struct Session {
    pub user: User,
    pub token_hash: String,
    /// When the session ends (ms since the epoch); never for program tokens.
    pub expires_ms: Option<i64>,
    /// The account's role and sanctions (docs/moderation.md).
    pub standing: crate::store::moderation::Standing,
}

impl<S> FromRequestParts<S> for Session
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let app = AppState::from_ref(state);
        let token = request_token(&parts.headers).ok_or(ApiError::Unauthorized)?;
        let token_hash = token_hash(&token);
        let (user, expires_ms, standing) =
            app.store.session_user(&token_hash).await?.ok_or(ApiError::Unauthorized)?;
        // A ban deletes the account's sessions; one made meanwhile signs nobody in either.
        if standing.banned {
            return Err(ApiError::Unauthorized);
        }
        Ok(Session { user, token_hash, expires_ms, standing })
    }
}

/// The user if signed in, else nobody (spectators need no account).
#[derive(Debug, Clone)]
pub struct MaybeSession(pub Option<Session>);

impl<S> FromRequestParts<S> for MaybeSession
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Session::from_request_parts(parts, state).await {
            Ok(s) => Ok(MaybeSession(Some(s))),
            Err(ApiError::Unauthorized) => Ok(MaybeSession(None)),
            Err(e) => Err(e),
        }
    }
}

/// Browsers send `Origin` on a WebSocket upgrade: it must be this server (or one of the allowed
/// origins), so another site cannot act with a visitor's cookie. Programs send no Origin.
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else { return true };
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("");
    let same = origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://")) == Some(host);
    same || allowed.iter().any(|a| a == origin)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Latin capital a character looks like, by the confusables data (capital I's
    /// prototype is `l`), if it looks like one.
    fn latin_capital(c: char) -> Option<char> {
        use unicode_normalization::UnicodeNormalization;
        let normal: String = c.to_string().nfkc().collect();
        let mut skeleton = unicode_security::confusable_detection::skeleton(&normal);
        match (skeleton.next(), skeleton.next()) {
            (Some('l'), None) => Some('I'),
            (Some(l @ 'A'..='Z'), None) => Some(l),
            _ => None,
        }
    }

    #[test]
    fn capital_look_alikes_of_every_script_share_the_latin_key() {
        let scripts: [(&str, std::ops::RangeInclusive<u32>, usize); 7] = [
            ("Greek", 0x0370..=0x03FF, 10),
            ("Cyrillic", 0x0400..=0x052F, 10),
            ("Armenian", 0x0531..=0x0556, 2),
            ("Cherokee", 0x13A0..=0x13F5, 20),
            ("Coptic", 0x2C80..=0x2CFF, 5),
            ("full-width", 0xFF21..=0xFF3A, 26),
            ("mathematical", 0x1D400..=0x1D7FF, 300),
        ];
        for (script, range, at_least) in scripts {
            let mut found = 0;
            for c in range.filter_map(char::from_u32).filter(|c| c.is_uppercase()) {
                let Some(latin) = latin_capital(c) else { continue };
                found += 1;
                let small = latin.to_ascii_lowercase();
                for (look_alike, name) in [
                    (format!("x{c}yz"), format!("x{latin}yz")),
                    (format!("x{c}yz"), format!("x{small}yz")),
                    (format!("{c}{c}{c}"), format!("{small}{small}{small}")),
                ] {
                    assert_eq!(
                        name_key(&look_alike),
                        name_key(&name),
                        "{script} {c:?} (U+{:04X}) in {look_alike:?} looks like {name:?}",
                        c as u32
                    );
                }
            }
            assert!(found >= at_least, "{script}: only {found} capitals look like Latin ones");
        }
    }

    #[test]
    fn weak_passwords_are_refused_with_the_reason() {
        let refused = |password: &str| match check_credentials("alice", password) {
            Err(ApiError::BadRequest(why)) => why,
            other => panic!("{password:?} was not refused: {other:?}"),
        };
        assert!(refused("short").contains("8 to 128"));
        assert!(refused("        ").contains("spaces only"));
        assert!(refused("\u{3000}\u{3000}  \u{2003}   ").contains("spaces only"));
        assert!(refused("\t\t\t\t        ").contains("U+0009"));
        assert!(refused("aaaaaaaa").contains("repeated ('a')"));
        assert!(refused("\0\0\0\0\0\0\0\0").contains("U+0000"));
        assert!(refused("correct\u{0}horse").contains("control characters"));
        assert!(refused("horse\u{85}battery").contains("U+0085"));
        assert!(check_credentials("alice123", "ALICE123").is_err_and(|e| e.to_string().contains("name")));
        for fine in ["correct horse", "aaaaaaab", "pässwörter", "ñ  ñ  ñ  ñ"] {
            assert!(check_credentials("alice", fine).is_ok(), "{fine:?}");
        }
    }

    #[test]
    fn names_that_look_alike_share_a_key() {
        for (a, b) in [
            ("ΑDΜΙΝ", "admin"),
            ("\u{412}ob", "Bob"),
            ("ADMIN", "admin"),
            ("PayPaI", "paypal"),
            ("ａｄｍｉｎ", "admin"),
            ("\u{430}dmin", "admin"),
            ("b0b", "bob"),
            ("STRASSE", "straße"),
            ("\u{13AA}\u{13A0}\u{13B3}", "ADW"),
        ] {
            assert_eq!(name_key(a), name_key(b), "{a} and {b}");
        }
        for (a, b) in [("bob", "rob"), ("admin", "admins"), ("alice", "alicia")] {
            assert_ne!(name_key(a), name_key(b), "{a} and {b}");
        }
        for c in 'a'..='z' {
            assert_eq!(name_key(&c.to_string()), name_key(&c.to_ascii_uppercase().to_string()), "{c}");
        }
    }
}
