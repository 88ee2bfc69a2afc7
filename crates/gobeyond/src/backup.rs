//! `gobeyond backup` and `gobeyond restore` (docs/deploy.md, "Backups"): an SQLite database
//! copied while the server runs, or any database exported as JSON; restored into a new
//! database of either kind.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use gobeyond_server::store::Store;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A copy of the SQLite file (SQLite only): restored by putting it in place.
    Sqlite,
    /// Accounts, games, ratings and the rest as JSON lines: either database imports it.
    Json,
}

#[derive(Debug, Args)]
pub struct BackupArgs {
    /// The database to back up: `sqlite://FILE` or `postgres://…`.
    #[arg(long, env = "GOBEYOND_DATABASE", hide_env_values = true)]
    database: String,
    /// The file to write; it must not exist.
    #[arg(long)]
    to: PathBuf,
    /// `sqlite` (the default for an SQLite database) or `json` (the only one for PostgreSQL
    /// here; pg_dump is the other way, docs/deploy.md).
    #[arg(long, value_enum)]
    format: Option<Format>,
}

#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// A backup: an SQLite file, or a JSON export.
    #[arg(long)]
    from: PathBuf,
    /// The new database: `sqlite://FILE` (the file must not exist) or `postgres://…` (it must
    /// hold no account yet).
    #[arg(long)]
    database: String,
}

fn sqlite_path(url: &str) -> Option<&Path> {
    let rest = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:"))?;
    Some(Path::new(rest.split('?').next().unwrap_or(rest)))
}

pub fn backup(args: BackupArgs) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        if args.to.exists() {
            bail!("{} exists already: back up to a new file", args.to.display());
        }
        let store = Store::connect(&args.database).await.context("opening the database")?;
        let format = args.format.unwrap_or(if sqlite_path(&args.database).is_some() {
            Format::Sqlite
        } else {
            Format::Json
        });
        let summary = match format {
            Format::Sqlite => {
                store.backup_sqlite(&args.to).await?;
                serde_json::json!({"backup": args.to, "format": "sqlite"})
            }
            Format::Json => {
                let partial = args.to.with_extension("partial");
                let file = std::fs::File::create(&partial)
                    .with_context(|| format!("creating {}", partial.display()))?;
                let mut out = std::io::BufWriter::new(file);
                let moved = store.export_json(&mut out).await?;
                drop(out);
                // Only a whole export takes the name asked for.
                std::fs::rename(&partial, &args.to)?;
                serde_json::json!({"backup": args.to, "format": "json", "rows": moved.rows})
            }
        };
        store.close().await;
        println!("{summary}");
        Ok(())
    })
}

pub fn restore(args: RestoreArgs) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let mut head = [0u8; 16];
        let read = {
            use std::io::Read;
            let mut file = std::fs::File::open(&args.from).with_context(|| format!("reading {}", args.from.display()))?;
            file.read(&mut head)?
        };
        let is_sqlite = head[..read].starts_with(b"SQLite format 3\0");
        if is_sqlite {
            let Some(path) = sqlite_path(&args.database) else {
                bail!("an SQLite backup restores to an SQLite database; to move to PostgreSQL, back up as JSON (--format json)");
            };
            if path.exists() {
                bail!("{} exists already: restore into a new file", path.display());
            }
            std::fs::copy(&args.from, path).with_context(|| format!("copying to {}", path.display()))?;
            // Opening it applies this program's migrations, as the server would.
            let store = Store::connect(&args.database).await.context("opening the restored database")?;
            store.close().await;
            println!("{}", serde_json::json!({"restored": true, "format": "sqlite"}));
            return Ok(());
        }
        if let Some(path) = sqlite_path(&args.database)
            && path.exists()
        {
            bail!("{} exists already: restore into a new file", path.display());
        }
        let store = Store::connect(&args.database).await.context("opening the new database")?;
        let file = std::fs::File::open(&args.from)?;
        let moved = store.import_json(std::io::BufReader::new(file)).await;
        store.close().await;
        let moved = moved?;
        println!("{}", serde_json::json!({"restored": true, "format": "json", "rows": moved.rows}));
        Ok(())
    })
}
