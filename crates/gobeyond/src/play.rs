//! `gobeyond play`: pass-and-play in the terminal.

use std::{
    io::{BufRead, Write},
    path::PathBuf,
};

use anyhow::{Context, Result};
use gobeyond_rules::{
    Game, Player,
    classic::{Action, ClassicGame},
    record::{MapSource, PlayerInfo, Record},
};

use crate::textboard;

const HELP: &str =
    "Type a node label to play there (e.g. D4), or: pass, resign, undo, board, save [FILE], help, quit.";

pub struct PlayOptions {
    pub source: MapSource,
    pub game: ClassicGame,
    pub players: Vec<PlayerInfo>,
    pub save: Option<PathBuf>,
}

/// Runs a game reading commands from `input`; returns the final record.
pub fn run(opts: PlayOptions, input: impl BufRead, mut out: impl Write) -> Result<Record> {
    let PlayOptions { source, mut game, players, save } = opts;
    let n = game.player_count();
    let map = game.map().clone();
    writeln!(out, "{} — {} players. {HELP}", map.name(), n)?;
    let mut show = true;
    let mut lines = input.lines();
    loop {
        let last = game.moves().last().and_then(|m| m.1.node());
        if show {
            write!(out, "\n{}", textboard::render(&game, last))?;
            let captures: Vec<String> = (0..n as u8)
                .map(|p| format!("{} {}", Player(p).color_name(n), game.prisoners(Player(p))))
                .collect();
            writeln!(out, "Captures: {}", captures.join(", "))?;
        }
        show = true;
        let Some(to_move) = game.to_move() else { break };
        write!(out, "{} ({}) to move> ", to_move.color_name(n), to_move.symbol(n))?;
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out)?;
            break;
        };
        let line = line?;
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            show = false;
            continue;
        };
        let action = match cmd.to_ascii_lowercase().as_str() {
            "quit" | "exit" => break,
            "help" | "?" => {
                writeln!(out, "{HELP}")?;
                show = false;
                continue;
            }
            "board" => continue,
            "undo" => {
                if !game.undo() {
                    writeln!(out, "Nothing to undo.")?;
                }
                save_record(&save, &game, &source, &players)?;
                continue;
            }
            "save" => {
                let path = words.next().map(PathBuf::from).or_else(|| save.clone());
                match path {
                    Some(p) => {
                        write_record(&p, &game, &source, &players)?;
                        writeln!(out, "Saved to {}.", p.display())?;
                    }
                    None => writeln!(out, "Save where? Type: save FILE")?,
                }
                show = false;
                continue;
            }
            "pass" => Action::Pass,
            "resign" => Action::Resign,
            label => match map.node_by_label(label) {
                Some(node) => Action::Place(node),
                None => {
                    writeln!(out, "There is no node {cmd:?} on this map. {HELP}")?;
                    show = false;
                    continue;
                }
            },
        };
        if let Err(e) = game.play(action) {
            writeln!(out, "Illegal: {}.", e.describe(&map))?;
            show = false;
            continue;
        }
        save_record(&save, &game, &source, &players)?;
    }
    if let Some(o) = game.outcome() {
        writeln!(out, "\nGame over ({:?}).", o.reason)?;
        for (place, p) in o.ranking.iter().enumerate() {
            writeln!(out, "{}. {} — {}", place + 1, p.color_name(n), o.scores[p.index()])?;
        }
    }
    Ok(Record::of_game(&game, source, players))
}

fn save_record(
    path: &Option<PathBuf>,
    game: &ClassicGame,
    source: &MapSource,
    players: &[PlayerInfo],
) -> Result<()> {
    match path {
        Some(p) => write_record(p, game, source, players),
        None => Ok(()),
    }
}

/// Writes the record atomically (temporary file, then rename), so a crash never leaves half a file.
pub fn write_record(
    path: &std::path::Path,
    game: &ClassicGame,
    source: &MapSource,
    players: &[PlayerInfo],
) -> Result<()> {
    write_atomically(path, &Record::of_game(game, source.clone(), players.to_vec()).to_json())
}

/// Writes a file through a temporary file and a rename, so a crash never leaves half a file.
pub fn write_atomically(path: &std::path::Path, text: &str) -> Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("saving {}", path.display()))?;
    Ok(())
}
