//! The server's limits in one place ([`Limits`], documented in `docs/security.md`), and the
//! request-rate limit per client address for the requests that create things (guests,
//! accounts, logins, bot tokens): a token bucket per IP. Game traffic is limited per socket in
//! `ws/`, connections in `conn.rs`.

use std::{
    collections::HashMap,
    net::{IpAddr, SocketAddr},
    sync::Mutex,
    time::{Duration, Instant},
};

/// Every bound the server keeps, with defaults for one small machine. Each protects against
/// something an attacker with a guest account and a loop once did (see `docs/security.md`).
#[derive(Debug, Clone)]
pub struct Limits {
    /// Open connections in all, and from one client address.
    pub connections: usize,
    pub connections_per_address: usize,
    /// Game sockets in all, and from one client address.
    pub sockets: usize,
    pub sockets_per_address: usize,
    /// A request's headers must arrive within this (also closes idle keep-alive connections).
    pub header_timeout: Duration,
    pub max_header_bytes: usize,
    /// A whole request (body and answer) must be done within this (game sockets excepted).
    pub request_timeout: Duration,
    /// The server pings a game socket this often; a socket silent for three times as long is
    /// closed.
    pub ping_every: Duration,
    /// Bytes waiting to be sent to one socket; a client that reads slower is disconnected.
    pub socket_buffer_bytes: usize,
    /// Games held in memory at once; games are loaded on demand and unloaded when idle (those
    /// whose clock runs or whose bot thinks stay).
    pub loaded_games: usize,
    /// Open or live games created from one client address (besides 20 per account).
    pub games_per_address: i64,
    /// Estimated bytes the games in memory may hold, their maps included (see
    /// `table/size.rs`); beyond it, idle games leave or new loads are refused.
    pub games_bytes: u64,
    /// A loaded game nobody watches is unloaded after this (live games stay).
    pub unload_after: Duration,
    /// An open game nobody joined is removed after this.
    pub open_game_expiry: Duration,
    /// A live game in which nobody has played for this long ends as abandoned (games under a
    /// clock end by it long before).
    pub abandon_after: Duration,
    /// Replays and map generations for read-only views at once (the rest wait, up to a queue).
    pub view_work: usize,
    /// Bot searches at the same time for games with people, and for games of bots only.
    pub bot_threads: usize,
    pub bot_only_threads: usize,
    /// Sign-ups and logins per second per address (0 = no limit), and the burst.
    pub auth_rate: f64,
    pub auth_burst: f64,
    /// Accounts (guests included) one client address may make per day (0 = no limit).
    pub accounts_per_address_day: u32,
    /// Per account, whatever its address: chat lines a minute (all games), challenges and
    /// games created an hour, reports a day (docs/moderation.md).
    pub account_chat_per_minute: u32,
    pub account_challenges_per_hour: u32,
    pub account_games_per_hour: u32,
    pub account_reports_per_day: u32,
    /// Failed logins to one account from one address before each further try from there
    /// waits (doubling, up to 15 min).
    pub login_failures: u32,
    /// Failed logins to one account from all addresses before each further try waits the same
    /// way, except the owner's (a session of the account, an address it signed in from).
    pub login_failures_per_account: u32,
    /// A browser session ends this long after it began (program tokens do not expire).
    pub session_lifetime: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Limits {
            connections: 4096,
            connections_per_address: 64,
            sockets: 4096,
            sockets_per_address: 16,
            header_timeout: Duration::from_secs(10),
            max_header_bytes: 16 * 1024,
            request_timeout: Duration::from_secs(30),
            ping_every: Duration::from_secs(20),
            socket_buffer_bytes: 8 * 1024 * 1024,
            loaded_games: 2000,
            games_per_address: 60,
            accounts_per_address_day: 50,
            account_chat_per_minute: 60,
            account_challenges_per_hour: 120,
            account_games_per_hour: 120,
            account_reports_per_day: 20,
            games_bytes: default_games_bytes(),
            unload_after: Duration::from_secs(120),
            open_game_expiry: Duration::from_secs(24 * 3600),
            abandon_after: Duration::from_secs(14 * 24 * 3600),
            view_work: cores,
            bot_threads: cores,
            bot_only_threads: cores.div_ceil(2),
            auth_rate: 2.0,
            auth_burst: 20.0,
            login_failures: 5,
            login_failures_per_account: 100,
            session_lifetime: Duration::from_secs(30 * 24 * 3600),
        }
    }
}

/// A quarter of the machine's memory (1 GiB where it cannot be read), within 256 MiB–8 GiB.
fn default_games_bytes() -> u64 {
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
        line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kib| kib * 1024)
    });
    total.map_or(1 << 30, |t| (t / 4).clamp(256 << 20, 8 << 30))
}

use axum::{
    extract::{ConnectInfo, Request, State},
    middleware::Next,
    response::{IntoResponse, Response},
};

use crate::{AppState, error::ApiError};

/// A token bucket per key (a client address, or an account and what it does).
#[derive(Debug)]
pub struct Limiter<K = IpAddr> {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<K, (f64, Instant)>>,
}

impl<K: std::hash::Hash + Eq> Limiter<K> {
    /// `per_second` 0 turns the limit off (load tests from one address).
    pub fn new(per_second: f64, burst: f64) -> Limiter<K> {
        Limiter { per_second, burst, buckets: Mutex::new(HashMap::new()) }
    }

    pub fn allow(&self, key: K) -> bool {
        if self.per_second <= 0.0 {
            return true;
        }
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 100_000 {
            // Forget idle addresses rather than grow without bound.
            buckets.retain(|_, (tokens, at)| *tokens < self.burst && now.duration_since(*at).as_secs() < 600);
        }
        let (tokens, at) = buckets.entry(key).or_insert((self.burst, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * self.per_second).min(self.burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// The client's address: the peer's, or, behind a trusted reverse proxy, the last address the
/// proxy added to `X-Forwarded-For`.
pub fn client_ip(request: &axum::http::request::Parts, trusted: &[IpAddr]) -> Option<IpAddr> {
    let peer = request.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip())?;
    Some(forwarded_ip(&request.headers, peer, trusted))
}

/// `peer`, or the client behind it when `peer` is a trusted proxy: the last entry of the last
/// `X-Forwarded-For`, the one the proxy itself appended. Earlier entries are whatever the client
/// sent, so when the last one does not parse the answer is the proxy's address, never an
/// earlier entry (that let a client choose its address for the per-address limits).
pub fn forwarded_ip(headers: &axum::http::HeaderMap, peer: IpAddr, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let Some(last) = headers
        .get_all("x-forwarded-for")
        .iter()
        .next_back()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
    else {
        return peer;
    };
    let last = last.trim();
    // Some proxies add the client's port: "1.2.3.4:5678", "[2001:db8::1]:5678".
    last.parse::<IpAddr>().or_else(|_| last.parse::<SocketAddr>().map(|a| a.ip())).unwrap_or(peer)
}

pub async fn limit(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    let ip = client_ip(&parts, &app.config.trusted_proxies);
    let request = Request::from_parts(parts, body);
    if let Some(ip) = ip
        && !app.limiter.allow(ip)
    {
        return ApiError::TooMany("too many sign-ups or logins from this address: wait a little".into())
            .into_response();
    }
    next.run(request).await
}

/// The client's address as a handler argument (see [`client_ip`]); `None` for requests that
/// came without one (tests calling the router directly).
#[derive(Debug, Clone, Copy)]
pub struct ClientIp(pub Option<IpAddr>);

impl<S> axum::extract::FromRequestParts<S> for ClientIp
where
    AppState: axum::extract::FromRef<S>,
    S: Send + Sync,
{
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, Self::Rejection> {
        let app = <AppState as axum::extract::FromRef<S>>::from_ref(state);
        Ok(ClientIp(client_ip(parts, &app.config.trusted_proxies)))
    }
}

/// CPU work on the blocking pool, at most `workers` at a time with at most `queue` waiting;
/// beyond that a request is refused at once (429) rather than piling up memory and threads.
#[derive(Debug)]
pub struct WorkGate {
    workers: std::sync::Arc<tokio::sync::Semaphore>,
    queue: usize,
    waiting: std::sync::atomic::AtomicUsize,
    /// The refusal when the queue is full.
    busy: &'static str,
}

impl WorkGate {
    pub fn new(workers: usize, queue: usize, busy: &'static str) -> WorkGate {
        WorkGate {
            workers: std::sync::Arc::new(tokio::sync::Semaphore::new(workers.max(1))),
            queue,
            waiting: std::sync::atomic::AtomicUsize::new(0),
            busy,
        }
    }

    /// Runs `work` on a blocking thread once a worker is free.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        use std::sync::atomic::Ordering;
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.queue {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(ApiError::TooMany(self.busy.into()));
        }
        let permit = self.workers.clone().acquire_owned().await;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        let permit = permit.map_err(|e| ApiError::Internal(e.to_string()))?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))
    }
}

/// After this long without a failure, an (account, address) or an account starts afresh.
const FORGET_FAILURES: Duration = Duration::from_secs(3600);
/// An address an account signed in from stays its owner's this long (in memory: a restart
/// forgets them, and the owner's next login from them counts again).
const KNOWN_FOR: Duration = Duration::from_secs(30 * 24 * 3600);
const KNOWN_PER_ACCOUNT: usize = 8;
/// Entries kept before the old ones are forgotten (memory).
const MAX_ENTRIES: usize = 100_000;

/// Failed logins, counted twice. Per (account, address): after `free` failures each further
/// try from that address waits, 1 s doubling up to 15 min, so one address guesses slowly and
/// locks out nobody else (7 wrong passwords from anywhere once locked the owner out too). Per
/// account, from every address: after `account_free` failures, tries wait the same way, so
/// guessing from many addresses is slow too; this ceiling does not hold for the owner — a
/// login carrying a session of the account, or from an address that signed in to the account
/// in the last 30 days. A success clears its (account, address).
#[derive(Debug)]
pub struct LoginBackoff {
    free: u32,
    account_free: u32,
    state: Mutex<Logins>,
}

#[derive(Debug, Default)]
struct Logins {
    pairs: HashMap<(String, IpAddr), Failures>,
    accounts: HashMap<String, Failures>,
    /// Addresses each account signed in from lately, oldest first.
    known: HashMap<String, Vec<(IpAddr, Instant)>>,
}

#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    last: Instant,
    until: Instant,
}

impl Failures {
    fn new(now: Instant) -> Failures {
        Failures { count: 0, last: now, until: now }
    }

    /// Seconds still to wait, if any.
    fn wait(&self, now: Instant) -> Option<u64> {
        (self.until > now).then(|| self.until.duration_since(now).as_secs_f64().ceil() as u64)
    }

    fn add(&mut self, free: u32, now: Instant) {
        if now.duration_since(self.last) > FORGET_FAILURES {
            self.count = 0;
        }
        self.count = self.count.saturating_add(1);
        self.last = now;
        if self.count >= free {
            let wait = 1u64 << (self.count - free).min(10);
            self.until = now + Duration::from_secs(wait.min(900));
        }
    }

    fn stale(&self, now: Instant) -> bool {
        self.until <= now && now.duration_since(self.last) > FORGET_FAILURES
    }
}

/// Why a login must wait, and how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoginWait {
    pub seconds: u64,
    /// The account's ceiling (failures from many addresses), not this address's.
    pub account_wide: bool,
}

impl LoginBackoff {
    pub fn new(free: u32, account_free: u32) -> LoginBackoff {
        LoginBackoff { free: free.max(1), account_free: account_free.max(1), state: Mutex::default() }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, Logins> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a login to `account` from `ip` must wait; `owner`: it carries a session of the
    /// account (then it never waits).
    pub fn check(&self, account: &str, ip: IpAddr, owner: bool) -> Result<(), LoginWait> {
        if owner {
            return Ok(());
        }
        let now = Instant::now();
        let state = self.state();
        let pair = state.pairs.get(&(account.to_string(), ip)).and_then(|f| f.wait(now));
        if let Some(seconds) = pair {
            return Err(LoginWait { seconds, account_wide: false });
        }
        let known = state
            .known
            .get(account)
            .is_some_and(|k| k.iter().any(|(a, at)| *a == ip && now.duration_since(*at) < KNOWN_FOR));
        match state.accounts.get(account).and_then(|f| f.wait(now)) {
            Some(seconds) if !known => Err(LoginWait { seconds, account_wide: true }),
            _ => Ok(()),
        }
    }

    pub fn failed(&self, account: &str, ip: IpAddr) {
        let now = Instant::now();
        let mut state = self.state();
        if state.pairs.len() > MAX_ENTRIES {
            state.pairs.retain(|_, f| !f.stale(now));
        }
        if state.accounts.len() > MAX_ENTRIES {
            state.accounts.retain(|_, f| !f.stale(now));
        }
        state
            .pairs
            .entry((account.to_string(), ip))
            .or_insert_with(|| Failures::new(now))
            .add(self.free, now);
        state
            .accounts
            .entry(account.to_string())
            .or_insert_with(|| Failures::new(now))
            .add(self.account_free, now);
    }

    /// The account signed in (or was made) from `ip`: that address is its owner's from now on.
    pub fn succeeded(&self, account: &str, ip: IpAddr) {
        let now = Instant::now();
        let mut state = self.state();
        state.pairs.remove(&(account.to_string(), ip));
        if state.known.len() > MAX_ENTRIES {
            state.known.retain(|_, k| k.last().is_some_and(|(_, at)| now.duration_since(*at) < KNOWN_FOR));
        }
        let known = state.known.entry(account.to_string()).or_default();
        known.retain(|(a, _)| *a != ip);
        known.push((ip, now));
        if known.len() > KNOWN_PER_ACCOUNT {
            known.remove(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_entry_the_proxy_appended_counts() {
        let proxy: IpAddr = "10.0.0.1".parse().unwrap_or(IpAddr::from([0, 0, 0, 0]));
        let at = |values: &[&str], peer: IpAddr| {
            let mut headers = axum::http::HeaderMap::new();
            for v in values {
                if let Ok(v) = axum::http::HeaderValue::from_str(v) {
                    headers.append("x-forwarded-for", v);
                }
            }
            forwarded_ip(&headers, peer, &[proxy]).to_string()
        };
        assert_eq!(at(&["1.2.3.4, 5.6.7.8"], proxy), "5.6.7.8");
        assert_eq!(at(&["1.2.3.4", "5.6.7.8"], proxy), "5.6.7.8", "the last header");
        assert_eq!(at(&["5.6.7.8:4711"], proxy), "5.6.7.8");
        assert_eq!(at(&["[2001:db8::1]:4711"], proxy), "2001:db8::1");
        // The client sent "1.2.3.4"; the proxy's own entry did not parse: not the client's pick.
        assert_eq!(at(&["1.2.3.4, unknown"], proxy), "10.0.0.1");
        assert_eq!(at(&["1.2.3.4,"], proxy), "10.0.0.1");
        assert_eq!(at(&["1.2.3.4", "garbage"], proxy), "10.0.0.1");
        assert_eq!(at(&[], proxy), "10.0.0.1");
        // Not from the proxy: the header means nothing.
        let stranger: IpAddr = "192.0.2.9".parse().unwrap_or(proxy);
        assert_eq!(at(&["1.2.3.4"], stranger), "192.0.2.9");
    }

    #[test]
    fn logins_wait_after_repeated_failures_and_a_success_clears_them() {
        let b = LoginBackoff::new(3, 100);
        let ip = IpAddr::from([192, 0, 2, 1]);
        for _ in 0..2 {
            b.failed("alice", ip);
            assert!(b.check("alice", ip, false).is_ok(), "the first failures are free");
        }
        b.failed("alice", ip);
        assert_eq!(b.check("alice", ip, false), Err(LoginWait { seconds: 1, account_wide: false }));
        assert!(b.check("bob", ip, false).is_ok(), "other accounts are not concerned");
        assert!(b.check("alice", IpAddr::from([192, 0, 2, 2]), false).is_ok(), "nor other addresses");
        assert!(b.check("alice", ip, true).is_ok(), "nor the owner's session");
        b.succeeded("alice", ip);
        assert!(b.check("alice", ip, false).is_ok());
    }

    #[test]
    fn many_addresses_meet_the_account_ceiling_but_the_owner_does_not() {
        let b = LoginBackoff::new(3, 10);
        let owner = IpAddr::from([198, 51, 100, 7]);
        b.succeeded("alice", owner);
        for i in 0..5u8 {
            for _ in 0..2 {
                b.failed("alice", IpAddr::from([203, 0, 113, i]));
            }
        }
        let fresh = IpAddr::from([203, 0, 113, 200]);
        assert_eq!(b.check("alice", fresh, false).map_err(|w| w.account_wide), Err(true));
        assert!(b.check("alice", owner, false).is_ok(), "an address the owner signed in from");
        assert!(b.check("alice", fresh, true).is_ok(), "a session of the account");
        assert!(b.check("bob", fresh, false).is_ok());
    }
}
