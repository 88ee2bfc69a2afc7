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
    game: S,
    opts: Options,
    input: impl BufRead + Send + 'static,
    out: impl Write,
) -> Result<Record> {
    let lines = Lines::new(input);
    let mut session = Session::new(game, opts, out);
    writeln!(session.out, "{} {}", session.game.intro(), session.game.help())?;
    loop {
        session.write_new_events()?;
        if session.play_unasked()? {
            continue;
        }
        let turn = session.game.turn();
        let Some(&seat) = turn.seats.first() else { break };
        match session.ask(seat, turn.simultaneous, &lines)? {
            Got::End => {
                writeln!(session.out)?;
                break;
            }
            Got::TimeUp => session.time_up(seat)?,
            Got::Line(line) => {
                if let Next::Stop = session.take_line(seat, turn.simultaneous, &line)? {
                    break;
                }
            }
        }
    }
    session.write_end()?;
    Ok(Record::of(&session.game, session.source, session.players))
}

/// What the loop does after a typed line.
enum Next {
    Ask,
    Stop,
}

/// One game at the terminal: the game, where it is saved, and what the players were last shown.
struct Session<S, W> {
    game: S,
    out: W,
    source: MapSource,
    players: Vec<PlayerInfo>,
    save: Option<PathBuf>,
    chance: gobeyond_rules::Rng,
    shown_events: usize,
    /// Whether the board is shown before the next question (not after help or a refusal).
    show_board: bool,
    /// The deadline of the current question: it keeps running through refused inputs.
    clock: ((usize, Player), Option<Instant>),
}

impl<S: Terminal, W: Write> Session<S, W> {
    fn new(game: S, opts: Options, out: W) -> Self {
        let Options { source, players, save } = opts;
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        Session {
            game,
            out,
            source,
            players,
            save,
            chance: gobeyond_rules::Rng::new(seed),
            shown_events: 0,
            show_board: true,
            clock: ((usize::MAX, Player(0)), None),
        }
    }

    fn save_now(&self) -> Result<()> {
        match &self.save {
            Some(p) => write_record(p, &self.game, &self.source, &self.players),
            None => Ok(()),
        }
    }

    /// Submits an input the loop made (a draw, a time-out, a decision for a seat) and saves.
    fn submit_and_save(&mut self, seat: Player, input: &S::Move) -> Result<()> {
        self.game.submit(seat, input).map_err(|e| anyhow::anyhow!(e.message))?;
        self.save_now()
    }

    fn write_new_events(&mut self) -> Result<()> {
        let events = self.game.events();
        for e in &events[self.shown_events.min(events.len())..] {
            if let Some(line) = self.game.describe(e) {
                writeln!(self.out, "  · {line}")?;
            }
        }
        self.shown_events = events.len();
        Ok(())
    }

    /// Plays what nobody is asked for: dice and cards (drawn here, as the server draws them,
    /// and saved as inputs), and the decisions made for a seat (a resigned player's Clean-Up,
    /// classic Go's proposal of dead stones). False when a player is to be asked, or nobody is
    /// to move (the game is over).
    fn play_unasked(&mut self) -> Result<bool> {
        let turn = self.game.turn();
        if let Some(seat) = turn.chance {
            let drawn =
                self.game.draw_chance(&mut self.chance).context("a chance event without an outcome")?;
            self.submit_and_save(seat, &drawn)?;
            return Ok(true);
        }
        match turn.seats.first() {
            Some(&seat) if self.game.decided_for().contains(&seat) => {
                let choice = self.game.decide_for(seat);
                self.submit_and_save(seat, &choice)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Shows the board (unless just shown) and asks `seat`, within its clock.
    fn ask(&mut self, seat: Player, simultaneous: bool, lines: &Lines) -> Result<Got> {
        if self.show_board {
            write!(self.out, "\n{}", self.game.show())?;
        }
        self.show_board = true;
        let key = (self.game.input_count(), seat);
        if self.clock.0 != key {
            let ms = S::clock(self.game.settings())
                .map_or(0, |c| if simultaneous { c.decision_ms } else { c.turn_ms });
            self.clock = (key, (ms > 0).then(|| Instant::now() + Duration::from_millis(ms as u64)));
        }
        write!(self.out, "{}", self.game.prompt(seat, &seconds_left(self.clock.1)))?;
        self.out.flush()?;
        lines.next(self.clock.1)
    }

    fn time_up(&mut self, seat: Player) -> Result<()> {
        writeln!(self.out, "\nTime is up.")?;
        let timeout = self.game.timeout_move(seat);
        self.submit_and_save(seat, &timeout)
    }

    /// A typed line: one of the loop's own commands, or the game's to read and play.
    fn take_line(&mut self, seat: Player, simultaneous: bool, line: &str) -> Result<Next> {
        let mut words = line.split_whitespace();
        let command = words.next().map(str::to_ascii_lowercase);
        match command.as_deref() {
            Some("quit" | "exit") => return Ok(Next::Stop),
            Some("help" | "?") => {
                writeln!(self.out, "{}", self.game.help())?;
                self.show_board = false;
            }
            Some("board") => {}
            Some("undo") if !simultaneous => {
                if !self.game.undo() {
                    writeln!(self.out, "Nothing to undo.")?;
                }
                self.shown_events = self.game.events().len();
                self.save_now()?;
            }
            Some("save") => {
                match words.next().map(PathBuf::from).or_else(|| self.save.clone()) {
                    Some(p) => {
                        write_record(&p, &self.game, &self.source, &self.players)?;
                        writeln!(self.out, "Saved to {}.", p.display())?;
                    }
                    None => writeln!(self.out, "Save where? Type: save FILE")?,
                }
                self.show_board = false;
            }
            _ => self.play_typed(seat, simultaneous, line)?,
        }
        Ok(Next::Ask)
    }

    fn play_typed(&mut self, seat: Player, simultaneous: bool, line: &str) -> Result<()> {
        let input = match self.game.read(seat, line) {
            Typed::Input(m) => m,
            Typed::Say(text) => {
                writeln!(self.out, "{text}")?;
                self.show_board = false;
                return Ok(());
            }
            Typed::Nothing => {
                self.show_board = false;
                return Ok(());
            }
        };
        if let Err(e) = self.game.submit(seat, &input) {
            // The player is asked again; the clock keeps running.
            let what = if simultaneous { "Refused" } else { "Illegal" };
            writeln!(self.out, "{what}: {}.", e.message)?;
            self.show_board = false;
            return Ok(());
        }
        self.save_now()
    }

    fn write_end(&mut self) -> Result<()> {
        if let Some(o) = self.game.outcome() {
            writeln!(self.out, "\nGame over ({}).", self.game.end_words(o))?;
            for (place, p) in o.ranking.iter().enumerate() {
                writeln!(self.out, "{}", self.game.final_line(place + 1, *p))?;
            }
        }
        Ok(())
    }
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
