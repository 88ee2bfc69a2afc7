//! `gobeyond play`: pass-and-play in the terminal, one loop for every rule system. What a
//! system shows and how typed words become its inputs is its own ([`Terminal`], in
//! `systems/`); the loop does the rest: turns and simultaneous decisions, the system's clock
//! (a line read on a thread so that time can run out while we wait), undo, saving.

use std::{
    io::{BufRead, Write},
    path::PathBuf,
    sync::mpsc::{self, Receiver, RecvTimeoutError},
    time::{Duration, Instant},
};

use anyhow::{Context, Result};
use gobeyond_rules::{
    Player, RuleSystem,
    record::{MapSource, PlayerInfo, Record},
};

/// How a rule system looks and reads in the terminal.
pub trait Terminal: RuleSystem {
    /// The commands of the game itself, for `help`.
    fn help(&self) -> &'static str;
    /// The first line.
    fn intro(&self) -> String;
    /// The board and the players' standing.
    fn show(&self) -> String;
    /// An event worth a line (`None`: said by the board itself).
    fn describe(&self, event: &Self::Event) -> Option<String>;
    /// The question for `seat` (`clock`: ", 12 s left" or nothing).
    fn prompt(&self, seat: Player, clock: &str) -> String;
    /// What `seat` typed (not one of the loop's own commands).
    fn read(&self, seat: Player, line: &str) -> Typed<Self::Move>;
    /// Takes back the last input; false when there is none.
    fn undo(&mut self) -> bool {
        gobeyond_rules::kit::undo_last(self)
    }
    /// How the game ended, in the system's words (default: the end reason).
    fn end_words(&self, outcome: &gobeyond_rules::Outcome) -> String {
        format!("{:?}", outcome.reason)
    }
    /// The final line of the player in `place` (from 1).
    fn final_line(&self, place: usize, player: Player) -> String;
    /// The decision made for a seat whose player cannot make it ([`RuleSystem::decided_for`]).
    fn decide_for(&self, seat: Player) -> Self::Move {
        self.fallback_move(seat)
    }
}

/// What a player typed, as the system reads it.
pub enum Typed<M> {
    Input(M),
    /// Nothing to play: a message for the player (an unknown word, a suggestion).
    Say(String),
    /// An empty line.
    Nothing,
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

fn seconds_left(deadline: Option<Instant>) -> String {
    match deadline {
        Some(d) => format!(", {} s left", d.saturating_duration_since(Instant::now()).as_secs_f64().ceil()),
        None => String::new(),
    }
}

pub struct Options {
    pub source: MapSource,
    pub players: Vec<PlayerInfo>,
    pub save: Option<PathBuf>,
}

/// Runs a game reading commands from `input`; returns the final record.
pub fn run<S: Terminal>(
    mut game: S,
    opts: Options,
    input: impl BufRead + Send + 'static,
    mut out: impl Write,
) -> Result<Record> {
    let Options { source, players, save } = opts;
    let lines = Lines::new(input);
    let save_now = |game: &S| -> Result<()> {
        match &save {
            Some(p) => write_record(p, game, &source, &players),
            None => Ok(()),
        }
    };
    writeln!(out, "{} {}", game.intro(), game.help())?;
    let mut chance = gobeyond_rules::Rng::new(
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64),
    );
    let mut shown_events = 0;
    let mut show = true;
    // The deadline of the current question: it keeps running through refused inputs.
    let mut clock: ((usize, Player), Option<Instant>) = ((usize::MAX, Player(0)), None);
    loop {
        let events = game.events();
        for e in &events[shown_events.min(events.len())..] {
            if let Some(line) = game.describe(e) {
                writeln!(out, "  · {line}")?;
            }
        }
        shown_events = events.len();
        if let Some(seat) = game.turn().chance {
            // Dice and cards: drawn here, as the server draws them, and saved as inputs.
            let drawn = game.draw_chance(&mut chance).context("a chance event without an outcome")?;
            game.submit(seat, &drawn).map_err(|e| anyhow::anyhow!(e.message))?;
            save_now(&game)?;
            continue;
        }
        let turn = game.turn();
        let Some(&seat) = turn.seats.first() else { break };
        if game.decided_for().contains(&seat) {
            // Decided for the seat: a resigned player's Clean-Up, classic Go's proposal of
            // dead stones.
            let choice = game.decide_for(seat);
            game.submit(seat, &choice).map_err(|e| anyhow::anyhow!(e.message))?;
            save_now(&game)?;
            continue;
        }
        if show {
            write!(out, "\n{}", game.show())?;
        }
        show = true;
        let key = (game.input_count(), seat);
        if clock.0 != key {
            let ms = S::clock(game.settings())
                .map_or(0, |c| if turn.simultaneous { c.decision_ms } else { c.turn_ms });
            clock = (key, (ms > 0).then(|| Instant::now() + Duration::from_millis(ms as u64)));
        }
        write!(out, "{}", game.prompt(seat, &seconds_left(clock.1)))?;
        out.flush()?;
        let line = match lines.next(clock.1)? {
            Got::End => {
                writeln!(out)?;
                break;
            }
            Got::TimeUp => {
                writeln!(out, "\nTime is up.")?;
                let timeout = game.timeout_move(seat);
                game.submit(seat, &timeout).map_err(|e| anyhow::anyhow!(e.message))?;
                save_now(&game)?;
                continue;
            }
            Got::Line(line) => line,
        };
        let mut words = line.split_whitespace();
        let command = words.next().map(str::to_ascii_lowercase);
        match command.as_deref() {
            Some("quit" | "exit") => break,
            Some("help" | "?") => {
                writeln!(out, "{}", game.help())?;
                show = false;
                continue;
            }
            Some("board") => continue,
            Some("undo") if !turn.simultaneous => {
                if !game.undo() {
                    writeln!(out, "Nothing to undo.")?;
                }
                shown_events = game.events().len();
                save_now(&game)?;
                continue;
            }
            Some("save") => {
                match words.next().map(PathBuf::from).or_else(|| save.clone()) {
                    Some(p) => {
                        write_record(&p, &game, &source, &players)?;
                        writeln!(out, "Saved to {}.", p.display())?;
                    }
                    None => writeln!(out, "Save where? Type: save FILE")?,
                }
                show = false;
                continue;
            }
            _ => {}
        }
        let input = match game.read(seat, &line) {
            Typed::Input(m) => m,
            Typed::Say(text) => {
                writeln!(out, "{text}")?;
                show = false;
                continue;
            }
            Typed::Nothing => {
                show = false;
                continue;
            }
        };
        if let Err(e) = game.submit(seat, &input) {
            // The player is asked again; the clock keeps running.
            let what = if turn.simultaneous { "Refused" } else { "Illegal" };
            writeln!(out, "{what}: {}.", e.message)?;
            show = false;
            continue;
        }
        save_now(&game)?;
    }
    if let Some(o) = game.outcome() {
        writeln!(out, "\nGame over ({}).", game.end_words(o))?;
        for (place, p) in o.ranking.iter().enumerate() {
            writeln!(out, "{}", game.final_line(place + 1, *p))?;
        }
    }
    Ok(Record::of(&game, source, players))
}

/// Writes the record atomically (temporary file, then rename), so a crash never leaves half a file.
fn write_record<S: RuleSystem>(
    path: &std::path::Path,
    game: &S,
    source: &MapSource,
    players: &[PlayerInfo],
) -> Result<()> {
    write_atomically(path, &Record::of(game, source.clone(), players.to_vec()).to_json())
}

/// Writes a file through a temporary file and a rename, so a crash never leaves half a file.
pub fn write_atomically(path: &std::path::Path, text: &str) -> Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("saving {}", path.display()))?;
    Ok(())
}
