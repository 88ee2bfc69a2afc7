//! The GTP commands: one line each in [`GtpEngine::dispatch`], the longer ones in a method of
//! their own. Replies and error texts are GTP version 2's where it names them.

use std::sync::Arc;

use gobeyond_maps::{NodeId, generate};
use gobeyond_rules::{
    Game, Player,
    classic::{Action, ClassicGame},
    playout::PlayoutTables,
    record::PlayerInfo,
    setup::fixed_handicap,
    sgf,
};

use super::{
    GtpEngine, Reply,
    clock::{GameClock, TimeSettings},
};

pub(super) const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "loadsgf",
    "printsgf",
    "is_legal",
    "all_legal",
    "list_stones",
    "captures",
    "countlib",
    "findlib",
    "time_settings",
    "time_left",
    "kgs-time_settings",
];

impl GtpEngine {
    pub(super) fn dispatch(&mut self, command: &str, args: &[&str]) -> Reply {
        match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("GoBeyond".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(COMMANDS.contains(&arg(args, 0)?).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "boardsize" => self.boardsize(args),
            "clear_board" => {
                self.clear();
                Ok(String::new())
            }
            "komi" => self.komi(args),
            "play" => {
                let player = color(arg(args, 0)?)?;
                let action = self.vertex(arg(args, 1)?)?;
                self.play(player, action).map(|_| String::new()).map_err(|e| format!("illegal move: {e}"))
            }
            "genmove" => self.genmove(args),
            "undo" => {
                if self.moves.pop().is_none() {
                    return Err("cannot undo".into());
                }
                // Drop the pass we put in for an out-of-turn move together with it.
                self.rebuild()
            }
            "showboard" => Ok(format!("\n{}", crate::textboard::render(self.game.board(), 2, None))),
            "final_score" => {
                let dead = self.dead_stones();
                let s = self.game.scores_with_dead(&dead);
                Ok(sgf::score_result(s[0] - s[1]))
            }
            "final_status_list" => self.final_status_list(args),
            "fixed_handicap" | "place_free_handicap" => self.handicap(command, args),
            "set_free_handicap" => self.set_free_handicap(args),
            "loadsgf" => self.load_sgf(args),
            "printsgf" => self.print_sgf(args),
            "is_legal" => {
                let player = color(arg(args, 0)?)?;
                let action = self.vertex(arg(args, 1)?)?;
                Ok(if self.legal_for(player, action) { "1" } else { "0" }.into())
            }
            "all_legal" => {
                let player = color(arg(args, 0)?)?;
                let list: Vec<String> = self
                    .map
                    .nodes()
                    .filter(|&n| self.legal_for(player, Action::Place(n)))
                    .map(|n| self.map.label(n).to_string())
                    .collect();
                Ok(list.join(" "))
            }
            "list_stones" => {
                let player = color(arg(args, 0)?)?;
                Ok(self.stones(Some(player)).join(" "))
            }
            "captures" => Ok(self.game.prisoners(color(arg(args, 0)?)?).to_string()),
            "countlib" | "findlib" => self.liberties(command, args),
            "time_settings" => {
                let (main, byo, stones) = (number(args, 0)?, number(args, 1)?, count(args, 2)?);
                self.clock = GameClock::new(TimeSettings::from_gtp(main, byo, stones));
                Ok(String::new())
            }
            "kgs-time_settings" => self.kgs_time_settings(args),
            "time_left" => {
                let player = color(arg(args, 0)?)?;
                self.clock.set_left(player.index(), number(args, 1)?, count(args, 2)?);
                Ok(String::new())
            }
            _ => Err("unknown command".into()),
        }
    }

    fn boardsize(&mut self, args: &[&str]) -> Reply {
        let n: u32 = arg(args, 0)?.parse().map_err(|_| "boardsize not an integer".to_string())?;
        if !(2..=25).contains(&n) {
            return Err("unacceptable size".into());
        }
        self.size = n;
        self.map = Arc::new(generate(&format!("square:{n}")).map_err(|e| e.to_string())?);
        self.tables = Arc::new(PlayoutTables::new(&self.map));
        self.clear();
        Ok(String::new())
    }

    fn komi(&mut self, args: &[&str]) -> Reply {
        let k: f64 = arg(args, 0)?.parse().map_err(|_| "komi not a float".to_string())?;
        if !k.is_finite() {
            return Err("komi not a float".into());
        }
        self.rules.komi = k;
        self.rebuild()
    }

    fn genmove(&mut self, args: &[&str]) -> Reply {
        let player = color(arg(args, 0)?)?;
        let action = self.choose(player);
        if action == Action::Resign {
            return Ok("resign".into());
        }
        self.play(player, action).map_err(|e| format!("internal error: {e}"))?;
        if self.ponder && self.searcher.is_some() {
            self.ponder_for = Some(Player(1 - player.0));
        }
        Ok(self.vertex_name(action))
    }

    fn final_status_list(&mut self, args: &[&str]) -> Reply {
        let dead = self.dead_stones();
        let names = |keep: &dyn Fn(NodeId) -> bool| {
            self.map
                .nodes()
                .filter(|&n| self.game.board().stone_at(n).is_some() && keep(n))
                .map(|n| self.map.label(n).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        match arg(args, 0)? {
            "alive" => Ok(names(&|n| !dead.contains(&n))),
            "dead" => Ok(names(&|n| dead.contains(&n))),
            "seki" => Ok(String::new()),
            _ => Err("invalid status".into()),
        }
    }

    /// `fixed_handicap` (the standard points only) and `place_free_handicap` (the engine's
    /// choice: the standard points, or spread start points past them).
    fn handicap(&mut self, command: &str, args: &[&str]) -> Reply {
        let n: usize = arg(args, 0)?.parse().map_err(|_| "handicap not an integer".to_string())?;
        if !self.moves.is_empty() || !self.setup.is_empty() {
            return Err("board not empty".into());
        }
        let points = match fixed_handicap(&self.map, n) {
            Ok(p) => p,
            Err(e) if command == "fixed_handicap" => return Err(format!("invalid handicap: {e}")),
            Err(_) if n >= 2 && n < self.map.len() => gobeyond_maps::start_points(&self.map, n),
            Err(e) => return Err(format!("invalid handicap: {e}")),
        };
        self.set_handicap(points.clone())?;
        Ok(points.iter().map(|&p| self.map.label(p).to_string()).collect::<Vec<_>>().join(" "))
    }

    fn set_free_handicap(&mut self, args: &[&str]) -> Reply {
        if !self.moves.is_empty() || !self.setup.is_empty() {
            return Err("board not empty".into());
        }
        let mut points = Vec::new();
        for a in args {
            match self.vertex(a)? {
                Action::Place(n) if !points.contains(&n) => points.push(n),
                _ => return Err("bad vertex list".into()),
            }
        }
        if points.len() < 2 {
            return Err("bad vertex list".into());
        }
        self.set_handicap(points).map(|_| String::new())
    }

    /// `loadsgf FILE [MOVE]`: the game up to before move `MOVE`; answers the colour to play.
    fn load_sgf(&mut self, args: &[&str]) -> Reply {
        let path = arg(args, 0)?;
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot load file: {e}"))?;
        let record = sgf::import(&text).map_err(|e| format!("cannot load file: {e}"))?;
        let upto = match args.get(1) {
            Some(n) => {
                n.parse::<usize>().map_err(|_| "move number not an integer".to_string())?.saturating_sub(1)
            }
            None => record.actions.len(),
        };
        let mut cut = record.clone();
        cut.actions.truncate(upto);
        let game = cut.replay_as::<ClassicGame>().map_err(|e| format!("cannot load file: {e}"))?;
        let grid = game.map().grid().ok_or("cannot load file: not a square board")?;
        if grid.width != grid.height || grid.width > 25 {
            return Err("cannot load file: only square boards up to 25×25".into());
        }
        self.size = grid.width;
        self.map = game.map().clone();
        self.tables = Arc::new(PlayoutTables::new(&self.map));
        self.rules.komi = game.rules().komi;
        self.setup = game.setup().to_vec();
        self.first = game.first_player();
        self.moves = game.moves().to_vec();
        self.rebuild()?;
        Ok(if self.game.next_player() == Player(0) { "black" } else { "white" }.into())
    }

    /// `printsgf [FILE]`: the game as SGF, in the reply or written to `FILE`.
    fn print_sgf(&self, args: &[&str]) -> Reply {
        let text = sgf::export(&self.game, &[PlayerInfo::default(), PlayerInfo::default()], None)
            .map_err(|e| e.to_string())?;
        match args.first() {
            Some(path) => std::fs::write(path, text).map(|_| String::new()).map_err(|e| e.to_string()),
            None => Ok(text.trim_end().to_string()),
        }
    }

    /// `countlib` (how many) and `findlib` (which) liberties the stone at a vertex has.
    fn liberties(&self, command: &str, args: &[&str]) -> Reply {
        let Action::Place(n) = self.vertex(arg(args, 0)?)? else {
            return Err("vertex must not be pass".into());
        };
        if self.game.board().stone_at(n).is_none() {
            return Err("vertex must not be empty".into());
        }
        let libs = self.game.board().liberties(n);
        Ok(if command == "countlib" {
            libs.len().to_string()
        } else {
            libs.iter().map(|&l| self.map.label(l).to_string()).collect::<Vec<_>>().join(" ")
        })
    }

    fn kgs_time_settings(&mut self, args: &[&str]) -> Reply {
        let settings = match arg(args, 0)? {
            "none" => None,
            "absolute" => TimeSettings::from_gtp(number(args, 1)?, 0.0, 0),
            // KGS byo-yomi has several periods of one move each; the last one counts.
            "byoyomi" => TimeSettings::from_gtp(number(args, 1)?, number(args, 2)?, 1),
            "canadian" => TimeSettings::from_gtp(number(args, 1)?, number(args, 2)?, count(args, 3)?),
            _ => return Err("unknown time system".into()),
        };
        self.clock = GameClock::new(settings);
        Ok(String::new())
    }
}

/// A time in seconds: finite, 0 or more.
fn number(args: &[&str], i: usize) -> Result<f64, String> {
    arg(args, i)?
        .parse::<f64>()
        .ok()
        .filter(|t| t.is_finite() && *t >= 0.0)
        .ok_or_else(|| "syntax error".into())
}

fn count(args: &[&str], i: usize) -> Result<u32, String> {
    arg(args, i)?.parse::<u32>().map_err(|_| "syntax error: not a count".into())
}

fn arg<'a>(args: &[&'a str], i: usize) -> Result<&'a str, String> {
    args.get(i).copied().ok_or_else(|| "syntax error: missing argument".to_string())
}

fn color(c: &str) -> Result<Player, String> {
    match c.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Player(0)),
        "w" | "white" => Ok(Player(1)),
        _ => Err("syntax error: invalid color".into()),
    }
}
