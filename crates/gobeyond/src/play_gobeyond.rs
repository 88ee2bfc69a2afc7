//! `gobeyond play --rules gobeyond`: pass-and-play GoBeyond in the terminal, with PlayPoints,
//! claimed, disputed and reserved nodes, the per-turn clock (time out: Skip), and Clean-Up.

use std::{
    io::{BufRead, Write},
    path::PathBuf,
    sync::mpsc::{self, Receiver, RecvTimeoutError},
    time::{Duration, Instant},
};

use anyhow::Result;
use gobeyond_maps::NodeId;
use gobeyond_rules::{
    Game, GoBeyondGame, Player,
    gobeyond::{Action, Phase},
    record::{MapSource, PlayerInfo, Record},
};

use crate::{
    play::{Typed, parse, save_as},
    textboard,
};

const HELP: &str = "Type a node label to occupy it (costs PlayPoints), or: pass (wish to end), skip, \
resign, undo, board, save [FILE], help, quit.";

pub struct Options {
    pub source: MapSource,
    pub game: GoBeyondGame,
    pub players: Vec<PlayerInfo>,
    pub save: Option<PathBuf>,
}

/// Lines typed by the players, read on a thread so that the clock can run out while we wait.
struct Lines {
    rx: Receiver<std::io::Result<String>>,
}

enum Got {
    Line(String),
    TimeUp,
    End,
}

impl Lines {
    fn new(input: impl BufRead + Send + 'static) -> Lines {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in input.lines() {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Lines { rx }
    }

    fn next(&self, deadline: Option<Instant>) -> Result<Got> {
        let got = match deadline {
            None => self.rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(d) => self.rx.recv_timeout(d.saturating_duration_since(Instant::now())),
        };
        match got {
            Ok(line) => Ok(Got::Line(line?)),
            Err(RecvTimeoutError::Timeout) => Ok(Got::TimeUp),
            Err(RecvTimeoutError::Disconnected) => Ok(Got::End),
        }
    }
}

fn deadline(seconds: u32) -> Option<Instant> {
    (seconds > 0).then(|| Instant::now() + Duration::from_secs(seconds as u64))
}

fn seconds_left(deadline: Option<Instant>) -> String {
    match deadline {
        Some(d) => format!(", {} s left", d.saturating_duration_since(Instant::now()).as_secs_f64().ceil()),
        None => String::new(),
    }
}

/// Runs a game reading commands from `input`; returns the final record.
pub fn run(opts: Options, input: impl BufRead + Send + 'static, mut out: impl Write) -> Result<Record> {
    let Options { source, mut game, players, save } = opts;
    let n = game.player_count();
    let map = game.map().clone();
    let lines = Lines::new(input);
    writeln!(out, "GoBeyond on {} — {} players. {HELP}", map.name(), n)?;
    let mut shown_events = 0;
    let mut show = true;
    let mut turn_clock: (u32, Option<Instant>) = (u32::MAX, None);
    'game: loop {
        for e in &game.events()[shown_events.min(game.events().len())..] {
            writeln!(out, "  · {}", e.describe(&map, n))?;
        }
        shown_events = game.events().len();
        match game.phase() {
            Phase::Finished => break,
            Phase::CleanUp => {
                if !cleanup(&mut game, &lines, &mut out, &save, &source, &players)? {
                    break 'game;
                }
                continue;
            }
            Phase::Playing => {}
        }
        if show {
            write!(out, "\n{}", render(&game))?;
            writeln!(out, "{}", status(&game))?;
        }
        show = true;
        let to_move = game.current_player();
        if turn_clock.0 != game.turn() {
            turn_clock = (game.turn(), deadline(game.rules().turn_seconds));
        }
        write!(
            out,
            "Turn {}: {} ({}), {} PP{}> ",
            game.turn(),
            to_move.color_name(n),
            to_move.symbol(n),
            game.points(to_move),
            seconds_left(turn_clock.1)
        )?;
        out.flush()?;
        let line = match lines.next(turn_clock.1)? {
            Got::End => {
                writeln!(out)?;
                break;
            }
            Got::TimeUp => {
                writeln!(out, "\nTime is up.")?;
                game.play(Action::Timeout).map_err(|e| anyhow::anyhow!(e.describe(&map, n)))?;
                save_record(&save, &game, &source, &players)?;
                continue;
            }
            Got::Line(line) => line,
        };
        let action = match parse(&line, &map) {
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
                shown_events = game.events().len();
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
            Typed::Skip => Action::Skip,
            Typed::Resign => Action::Resign,
            Typed::Node(node) => Action::Occupy(node),
            Typed::Unknown(word) => {
                writeln!(out, "There is no node {word:?} on this map. {HELP}")?;
                show = false;
                continue;
            }
        };
        if let Err(e) = game.play(action) {
            // The player stays in phase 3 and the clock keeps running.
            writeln!(out, "Illegal: {}.", e.describe(&map, n))?;
            show = false;
            continue;
        }
        save_record(&save, &game, &source, &players)?;
    }
    if let Some(o) = game.outcome() {
        writeln!(out, "\nGame over ({:?}).", o.reason)?;
        for (place, p) in o.ranking.iter().enumerate() {
            let note = if game.is_resigned(*p) { " (resigned)" } else { "" };
            writeln!(out, "{}. {} — {} PP{note}", place + 1, p.color_name(n), game.points(*p))?;
        }
    }
    Ok(Record::of_gobeyond(&game, source, players))
}

/// Asks the next player who has not chosen for their Clean-Up surrenders. False: input ended.
fn cleanup(
    game: &mut GoBeyondGame,
    lines: &Lines,
    out: &mut impl Write,
    save: &Option<PathBuf>,
    source: &MapSource,
    players: &[PlayerInfo],
) -> Result<bool> {
    let n = game.player_count();
    let map = game.map().clone();
    let Some(&p) = game.awaiting_cleanup().first() else { return Ok(true) };
    write!(out, "\n{}", render(game))?;
    let clock = deadline(game.rules().cleanup_seconds);
    loop {
        write!(
            out,
            "Clean-Up, {}: list the stones you surrender (labels), 'suggest', or an empty line for none{}> ",
            p.color_name(n),
            seconds_left(clock)
        )?;
        out.flush()?;
        let line = match lines.next(clock)? {
            Got::End => return Ok(false),
            Got::TimeUp => {
                writeln!(out, "\nTime is up.")?;
                game.cleanup_time_out(p).map_err(|e| anyhow::anyhow!(e.describe(&map, n)))?;
                break;
            }
            Got::Line(line) => line,
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().map(|w| w.to_ascii_lowercase()).as_deref() {
            Some("quit" | "exit") => return Ok(false),
            Some("suggest") => {
                let s: Vec<&str> = game.suggest_surrender(p).iter().map(|&v| map.label(v)).collect();
                match s.is_empty() {
                    true => writeln!(out, "No stone of yours looks doomed (none is in atari).")?,
                    false => writeln!(out, "In atari, so probably doomed: {}", s.join(" "))?,
                }
                continue;
            }
            Some("board") => {
                write!(out, "\n{}", render(game))?;
                continue;
            }
            _ => {}
        }
        let nodes: Result<Vec<NodeId>, &str> = words.iter().map(|w| map.node_by_label(w).ok_or(*w)).collect();
        match nodes {
            Err(w) => writeln!(out, "There is no node {w:?} on this map.")?,
            Ok(nodes) => match game.surrender(p, &nodes) {
                Ok(()) => break,
                Err(e) => writeln!(out, "Refused: {}.", e.describe(&map, n))?,
            },
        }
    }
    save_record(save, game, source, players)?;
    Ok(true)
}

/// The board: stones in capitals, claimed nodes in the claimant's lowercase letter, `#` for a
/// reserved node, `.` for disputed ones, `>` before the last stone placed.
fn render(game: &GoBeyondGame) -> String {
    let n = game.player_count();
    let board = game.board();
    let cell = |v: NodeId| match (board.stone_at(v), game.reserved_by(v), game.claimant(v)) {
        (Some(p), _, _) => p.symbol(n),
        (None, Some(_), _) => '#',
        (None, None, Some(p)) => p.symbol(n).to_ascii_lowercase(),
        (None, None, None) => '.',
    };
    let last = game.events().iter().rev().find_map(|e| match e {
        gobeyond_rules::gobeyond::Event::Occupied { node, .. } => Some(*node),
        _ => None,
    });
    let mut legend: Vec<(char, String)> = Vec::new();
    for p in (0..n as u8).map(Player) {
        legend.push((p.symbol(n), format!("{} stones", p.color_name(n))));
        legend.push((p.symbol(n).to_ascii_lowercase(), format!("claimed by {}", p.color_name(n))));
    }
    legend.push(('#', "reserved".into()));
    let mut text =
        textboard::render_cells(game.map(), &cell, last.filter(|&v| board.stone_at(v).is_some()), &legend);
    let marks: Vec<String> = (0..n as u8)
        .map(Player)
        .map(|p| format!("{}/{} {}", p.symbol(n), p.symbol(n).to_ascii_lowercase(), p.color_name(n)))
        .collect();
    text.push_str(&format!("Stones/claims: {}; # reserved; . disputed\n", marks.join(", ")));
    text
}

fn status(game: &GoBeyondGame) -> String {
    let n = game.player_count();
    let players: Vec<String> = (0..n as u8)
        .map(Player)
        .map(|p| {
            let mut s = format!("{} {} PP", p.color_name(n), game.points(p));
            if game.is_resigned(p) {
                s.push_str(" (resigned)");
            } else {
                s.push_str(&format!(", claims {}", game.claimed_count(p)));
            }
            if let Some(r) = game.reservation(p) {
                s.push_str(&format!(", reserves {}", game.map().label(r)));
            }
            s
        })
        .collect();
    format!(
        "{}. Passes in a row: {} of {}.",
        players.join(" · "),
        game.consecutive_passes(),
        game.passes_to_end()
    )
}

fn save_record(
    path: &Option<PathBuf>,
    game: &GoBeyondGame,
    source: &MapSource,
    players: &[PlayerInfo],
) -> Result<()> {
    match path {
        Some(p) => write_record(p, game, source, players),
        None => Ok(()),
    }
}

fn write_record(
    path: &std::path::Path,
    game: &GoBeyondGame,
    source: &MapSource,
    players: &[PlayerInfo],
) -> Result<()> {
    crate::play::write_atomically(
        path,
        &Record::of_gobeyond(game, source.clone(), players.to_vec()).to_json(),
    )
}
