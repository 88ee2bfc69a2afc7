//! `gobeyond serve`: the game server's settings — flags, `GOBEYOND_*` environment variables and
//! an optional config file, in that order of precedence (docs/deploy.md, "Settings") — and
//! `gobeyond healthcheck`, which a container's health check runs.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;

pub mod config_file;
pub mod health;

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// A TOML file of settings: the long options below without their dashes, e.g.
    /// `listen = "0.0.0.0:8080"` or `trusted-proxy = ["10.0.0.2"]`; flags and environment
    /// variables win over it.
    #[arg(long, env = "GOBEYOND_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", env = "GOBEYOND_LISTEN")]
    listen: std::net::SocketAddr,
    /// `sqlite://FILE` (created if missing) or `postgres://USER:PASSWORD@HOST/DB`.
    #[arg(long, default_value = "sqlite://gobeyond.db", env = "GOBEYOND_DATABASE", hide_env_values = true)]
    database: String,
    /// Another origin allowed to open game sockets (e.g. a front-end dev server); repeatable.
    #[arg(long = "allow-origin", env = "GOBEYOND_ALLOW_ORIGIN", value_delimiter = ',')]
    allowed_origins: Vec<String>,
    /// Bot searches at the same time for games with people (default: one per core).
    #[arg(long, env = "GOBEYOND_BOT_THREADS")]
    bot_threads: Option<usize>,
    /// Bot searches at the same time for games of bots only (default: half the cores).
    #[arg(long, env = "GOBEYOND_BOT_ONLY_THREADS")]
    bot_only_threads: Option<usize>,
    /// Sign-ups and logins per second per client address; 0 for no limit (load tests).
    #[arg(long, default_value_t = 2.0, env = "GOBEYOND_AUTH_RATE")]
    auth_rate: f64,
    /// Sign-ups and logins one address may make at once before the rate applies.
    #[arg(long, default_value_t = 20.0, env = "GOBEYOND_AUTH_BURST")]
    auth_burst: f64,
    /// Accounts (guests included) one client address may make per day; 0 for no limit.
    #[arg(long, default_value_t = 50, env = "GOBEYOND_ACCOUNTS_PER_ADDRESS_DAY")]
    accounts_per_address_day: u32,
    /// A reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are believed; repeatable.
    #[arg(long = "trusted-proxy", env = "GOBEYOND_TRUSTED_PROXY", value_delimiter = ',')]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// Mark session cookies Secure (the server is only reached over HTTPS).
    #[arg(long, env = "GOBEYOND_SECURE_COOKIES")]
    secure_cookies: bool,
    /// Accept games whose dice and cards are fixed in advance, and let tests move the server's
    /// time forward (browser tests only).
    #[arg(long, hide = true)]
    test_hooks: bool,
    /// Vacation days each account may take per calendar year (correspondence clocks stop).
    #[arg(long, default_value_t = 30, env = "GOBEYOND_VACATION_DAYS")]
    vacation_days: u32,
    /// PostgreSQL only: this instance's id among the instances sharing the database (default:
    /// host name, port and a random number).
    #[arg(long, env = "GOBEYOND_INSTANCE")]
    instance: Option<String>,
    /// PostgreSQL only: the base URL the other instances reach this one at, on a private
    /// network (default: http:// and the listen address).
    #[arg(long, env = "GOBEYOND_ADVERTISE")]
    advertise: Option<String>,
    /// PostgreSQL only: seconds a dead instance's games wait before another takes them over.
    #[arg(long, default_value_t = 10.0, env = "GOBEYOND_LEASE_SECONDS")]
    lease_seconds: f64,
    /// Send mail through this SMTP server: smtp://host:port (plain: a relay on this machine),
    /// smtp://user:password@host?tls=required (STARTTLS) or smtps://user:password@host (TLS).
    /// Without it the server sends
    /// no mail. Prefer the environment variable: a password on the command line is visible to
    /// every user of the machine.
    #[arg(long, env = "GOBEYOND_SMTP_URL", hide_env_values = true)]
    smtp_url: Option<String>,
    /// The sender of the server's mail, e.g. "GoBeyond <games@example.org>" (with --smtp-url).
    #[arg(long, env = "GOBEYOND_MAIL_FROM")]
    mail_from: Option<String>,
    /// Where players reach this server, e.g. https://go.example.org: links in mails start with
    /// it (with --smtp-url).
    #[arg(long, env = "GOBEYOND_PUBLIC_URL")]
    public_url: Option<String>,
    /// Mails one account may be sent per day.
    #[arg(long, default_value_t = 40, env = "GOBEYOND_MAIL_PER_DAY")]
    mail_per_day: i64,
    /// Seconds an hour of the players' mail settings lasts (browser tests only).
    #[arg(long, hide = true)]
    mail_hour_seconds: Option<f64>,
    /// The directory of lab reports (`gobeyond lab ... --html DIR/NAME.html`) the web app lists
    /// on its Lab page; an empty value shows none.
    #[arg(long, default_value = "reports", env = "GOBEYOND_REPORTS")]
    reports: PathBuf,
    /// Open connections from one client address.
    #[arg(long, env = "GOBEYOND_CONNECTIONS_PER_ADDRESS")]
    connections_per_address: Option<usize>,
    /// Game sockets from one client address.
    #[arg(long, env = "GOBEYOND_SOCKETS_PER_ADDRESS")]
    sockets_per_address: Option<usize>,
    /// Games held in memory at once (games whose clock runs or whose bot thinks always are).
    #[arg(long, env = "GOBEYOND_LOADED_GAMES")]
    loaded_games: Option<usize>,
    /// Estimated MiB the games in memory may hold, maps included (default: a quarter of the
    /// machine's memory, within 256 MiB–8 GiB).
    #[arg(long, env = "GOBEYOND_GAMES_MEMORY_MIB")]
    games_memory_mib: Option<u64>,
    /// Open or live games created from one client address (besides 20 per account).
    #[arg(long, env = "GOBEYOND_GAMES_PER_ADDRESS")]
    games_per_address: Option<i64>,
    /// Hours after which an open game nobody joined is removed.
    #[arg(long, env = "GOBEYOND_OPEN_GAME_HOURS")]
    open_game_hours: Option<f64>,
    /// Days after which a live game nobody has played in ends as abandoned.
    #[arg(long, env = "GOBEYOND_ABANDON_DAYS")]
    abandon_days: Option<f64>,
    /// Days a browser session lasts.
    #[arg(long, env = "GOBEYOND_SESSION_DAYS")]
    session_days: Option<f64>,
    /// Playouts per position of a computer review when its request names none.
    #[arg(long, default_value_t = 1000, env = "GOBEYOND_REVIEW_PLAYOUTS")]
    review_playouts: u32,
    /// The most playouts per position a computer review may ask for (at least 50).
    #[arg(long, default_value_t = 10_000, env = "GOBEYOND_REVIEW_MAX_PLAYOUTS")]
    review_max_playouts: u32,
    /// Computer reviews this instance runs at once, each on a thread of its own (0: none here;
    /// other instances sharing the database run them).
    #[arg(long, default_value_t = 1, env = "GOBEYOND_REVIEWS_AT_ONCE")]
    reviews_at_once: usize,
    /// Log lines as text for people, or as one JSON object per line for log collectors
    /// (levels: `RUST_LOG`).
    #[arg(long, value_enum, default_value = "text", env = "GOBEYOND_LOG_FORMAT")]
    log_format: LogFormat,
    /// Serve `GET /metrics` (Prometheus) on this address of its own, without a token: an
    /// address only the monitoring system reaches, e.g. 127.0.0.1:9100.
    #[arg(long, env = "GOBEYOND_METRICS_LISTEN")]
    metrics_listen: Option<std::net::SocketAddr>,
    /// Serve `GET /metrics` on the main address to requests bearing this token
    /// (`Authorization: Bearer TOKEN`).
    #[arg(long, env = "GOBEYOND_METRICS_TOKEN", hide_env_values = true)]
    metrics_token: Option<String>,
}

pub fn run(args: ServeArgs) -> Result<()> {
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info,sqlx=warn".into());
    match args.log_format {
        LogFormat::Text => tracing_subscriber::fmt().with_env_filter(filter).init(),
        // One JSON object per line, with the fields of the spans it is in (the request, the game).
        LogFormat::Json => {
            tracing_subscriber::fmt().json().with_current_span(true).with_env_filter(filter).init()
        }
    }
    let defaults = gobeyond_server::limit::Limits::default();
    let hours = |h: f64| std::time::Duration::from_secs_f64((h * 3600.0).clamp(0.0, 1e9));
    let limits = gobeyond_server::limit::Limits {
        bot_threads: args.bot_threads.unwrap_or(defaults.bot_threads),
        bot_only_threads: args.bot_only_threads.unwrap_or(defaults.bot_only_threads),
        auth_rate: args.auth_rate,
        auth_burst: args.auth_burst,
        accounts_per_address_day: args.accounts_per_address_day,
        connections_per_address: args.connections_per_address.unwrap_or(defaults.connections_per_address),
        sockets_per_address: args.sockets_per_address.unwrap_or(defaults.sockets_per_address),
        loaded_games: args.loaded_games.unwrap_or(defaults.loaded_games),
        games_bytes: args.games_memory_mib.map_or(defaults.games_bytes, |m| m.saturating_mul(1 << 20)),
        games_per_address: args.games_per_address.unwrap_or(defaults.games_per_address),
        open_game_expiry: args.open_game_hours.map_or(defaults.open_game_expiry, hours),
        abandon_after: args.abandon_days.map_or(defaults.abandon_after, |d| hours(d * 24.0)),
        session_lifetime: args.session_days.map_or(defaults.session_lifetime, |d| hours(d * 24.0)),
        ..defaults
    };
    let mail = match (args.smtp_url, args.mail_from, args.public_url) {
        (None, _, _) => None,
        (Some(url), Some(from), Some(public)) => {
            let mut m = gobeyond_server::mail::MailConfig::new(url, from, public);
            m.per_day = args.mail_per_day.max(1);
            if let Some(s) = args.mail_hour_seconds {
                m.hour = std::time::Duration::from_secs_f64(s.clamp(0.001, 3600.0));
                m.poll = m.poll.min(m.hour);
            }
            Some(m)
        }
        (Some(_), _, _) => bail!("--smtp-url needs --mail-from and --public-url too"),
    };
    if args.metrics_token.as_ref().is_some_and(|t| !t.is_empty() && t.chars().count() < 16) {
        bail!("--metrics-token must be at least 16 characters: anyone who guesses it reads the metrics");
    }
    let config = gobeyond_server::Config {
        listen: args.listen,
        database: args.database,
        allowed_origins: args.allowed_origins,
        trusted_proxies: args.trusted_proxies,
        secure_cookies: args.secure_cookies,
        limits,
        test_hooks: args.test_hooks,
        vacation_days: args.vacation_days.min(366),
        instance: args.instance,
        advertise: args.advertise,
        lease_ttl: std::time::Duration::from_secs_f64(args.lease_seconds.clamp(0.3, 3600.0)),
        reports: (!args.reports.as_os_str().is_empty()).then_some(args.reports),
        mail,
        reviews: gobeyond_server::review::ReviewConfig {
            playouts: args.review_playouts,
            max_playouts: args.review_max_playouts,
            at_once: args.reviews_at_once.min(64),
        },
        metrics_listen: args.metrics_listen,
        metrics_token: args.metrics_token.filter(|t| !t.is_empty()),
    };
    tokio::runtime::Builder::new_multi_thread().enable_all().build()?.block_on(gobeyond_server::run(config))
}
