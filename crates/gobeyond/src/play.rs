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
        let action = match parse(&line?, &map) {
            Typed::Nothing => {
                show = false;
                continue;
            }
            Typed::Quit => break,
            Typed::Help => {
                writeln!(out, "{HELP}")?;
                show = false;
                continue;
            }
            Typed::Board => continue,
            Typed::Undo => {
                if !game.undo() {
                    writeln!(out, "Nothing to undo.")?;
                }
                save_record(&save, &game, &source, &players)?;
                continue;
            }
            Typed::Save(path) => {
                save_as(path.or_else(|| save.clone()), &mut out, |p| {
                    write_record(p, &game, &source, &players)
                })?;
                show = false;
                continue;
            }
            Typed::Pass => Action::Pass,
            Typed::Resign => Action::Resign,
            Typed::Node(node) => Action::Place(node),
            Typed::Skip => {
                writeln!(out, "Classic Go has no skip; type pass.")?;
                show = false;
                continue;
            }
            Typed::Unknown(word) => {
                writeln!(out, "There is no node {word:?} on this map. {HELP}")?;
                show = false;
                continue;
            }
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

/// What a player typed at a prompt.
pub enum Typed {
    Nothing,
    Quit,
    Help,
    Board,
    Undo,
    Save(Option<PathBuf>),
    Pass,
    Skip,
    Resign,
    Node(gobeyond_maps::NodeId),
    /// Neither a command nor a node label.
    Unknown(String),
}

/// Reads a command or a node label (commands are case-insensitive).
pub fn parse(line: &str, map: &gobeyond_maps::Map) -> Typed {
    let mut words = line.split_whitespace();
    let Some(word) = words.next() else { return Typed::Nothing };
    match word.to_ascii_lowercase().as_str() {
        "quit" | "exit" => Typed::Quit,
        "help" | "?" => Typed::Help,
        "board" => Typed::Board,
        "undo" => Typed::Undo,
        "save" => Typed::Save(words.next().map(PathBuf::from)),
        "pass" => Typed::Pass,
        "skip" => Typed::Skip,
        "resign" => Typed::Resign,
        _ => map.node_by_label(word).map_or_else(|| Typed::Unknown(word.to_string()), Typed::Node),
    }
}

/// The `save [FILE]` command: writes with `write`, or asks where.
pub fn save_as(
    path: Option<PathBuf>,
    out: &mut impl Write,
    write: impl FnOnce(&std::path::Path) -> Result<()>,
) -> Result<()> {
    match path {
        Some(p) => {
            write(&p)?;
            writeln!(out, "Saved to {}.", p.display())?;
        }
        None => writeln!(out, "Save where? Type: save FILE")?,
    }
    Ok(())
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
