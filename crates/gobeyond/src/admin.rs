//! `gobeyond admin`: what an operator does on the command line (docs/moderation.md) — the
//! first admin is granted here, since nobody in the web app may yet.

use anyhow::{Context, Result, anyhow};
use clap::{Args, Subcommand};
use gobeyond_server::store::Store;

#[derive(Debug, Args)]
pub struct AdminArgs {
    /// The server's database: `sqlite://FILE` or `postgres://…`.
    #[arg(long, env = "GOBEYOND_DATABASE", hide_env_values = true, global = true)]
    database: Option<String>,
    #[command(subcommand)]
    command: AdminCommand,
}

#[derive(Debug, Subcommand)]
enum AdminCommand {
    /// Give a registered account a role: player, moderator or admin (in the audit log).
    Grant {
        /// The account's name.
        name: String,
        /// player, moderator or admin.
        role: String,
    },
}

pub fn admin(args: AdminArgs) -> Result<()> {
    let database =
        args.database.ok_or_else(|| anyhow!("say which database: --database URL or GOBEYOND_DATABASE"))?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let store = Store::connect(&database).await.context("opening the database")?;
        match args.command {
            AdminCommand::Grant { name, role } => {
                let user =
                    store.user_by_name(&name).await?.ok_or_else(|| anyhow!("no account named {name:?}"))?;
                gobeyond_server::moderation::actions::grant_role(&store, None, &user, &role).await?;
                println!("{} is now {role}", user.name);
            }
        }
        store.close().await;
        Ok(())
    })
}
