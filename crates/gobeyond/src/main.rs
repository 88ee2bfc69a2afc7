//! The `gobeyond` program.

mod bench;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "gobeyond", version, about = "Generalized Go: any map, 2-8 players, several rule systems")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Measure engine speed.
    Bench {
        #[command(subcommand)]
        what: BenchCommand,
    },
}

#[derive(Debug, Subcommand)]
enum BenchCommand {
    /// Light random playouts per second, one thread.
    Playouts {
        /// Maps to measure (generator specs).
        #[arg(long = "map", default_values = ["square:9", "square:19"])]
        maps: Vec<String>,
        #[arg(long, default_value_t = 2)]
        players: u8,
        /// Seconds per map.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Bench { what: BenchCommand::Playouts { maps, players, seconds, seed } } => {
            for m in maps {
                let f = bench::playouts(&m, players, seconds, seed)?;
                println!("{}", serde_json::to_string(&f)?);
            }
            println!("{}", serde_json::to_string(&bench::copies("square:19")?)?);
        }
    }
    Ok(())
}
