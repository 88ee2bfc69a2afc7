//! Computer seats in any rule system: what a bot sends, in the system's own wire form. This is
//! the one way a computer seat decides — the server's bot seats, decisions made for players who
//! are gone (the terminal's too), `gobeyond match` series and the lab all come here — so that a
//! bot plays the same wherever it sits. Each system says how its bot decides
//! (`systems/<name>.rs`: search for moves, its own logic for decisions such as GoBeyond's
//! Clean-Up or Tribal Go's reaction windows).

use std::time::Duration;

use gobeyond_rules::{
    AnyGame, Board, Player, RuleSystem,
    registry::{Object, to_object},
};

use crate::search::{
    level::{Bot, Level, Strategy},
    searchable::Searchable,
};

/// A rule system that computer seats can play.
pub trait Computer: RuleSystem + Searchable {
    /// The input of `seat` now, as `bot` decides it (its strategy, the search tree it keeps
    /// from move to move, its random numbers); `None` when it has nothing to send. By default
    /// the bot's action in wire form; a system overrides it for decisions of its own (dead
    /// stones, Clean-Up, reaction windows).
    fn decide(&self, seat: Player, bot: &mut Bot<Self>) -> Option<Self::Move> {
        let _ = seat;
        bot.choose(self).0.map(|action| self.to_wire(action))
    }

    /// The input of `seat` now at `level`, searching at most `time`: one decision by a fresh
    /// bot (a server seat, a decision made for a seat).
    fn computer_input(
        &self,
        seat: Player,
        level: Level,
        seed: u64,
        time: Option<Duration>,
    ) -> Option<Self::Move> {
        Bot::new(Strategy::Search(level), seed, 1, time).decide(self, seat)
    }

    /// True for the action that says "I am done" (Pass): a series ends its games with it.
    fn is_pass(&self, action: Self::Action) -> bool;

    /// A material count of how well `player` stands now, in the rule system's own terms (for
    /// the greedy baseline).
    fn greedy_value(&self, player: Player) -> f64;

    /// The drops of the mover's value (reward, 0 to 1) from which a review marks an action an
    /// inaccuracy, a mistake, a blunder (`docs/analysis.md`); by default by the number of seats.
    fn review_thresholds(&self) -> [f32; 3] {
        crate::review::default_thresholds(self.player_count())
    }

    /// The Go board, for systems that play on one (eye checks of the baseline players).
    fn go_board(&self) -> Option<&Board> {
        None
    }
}

/// A computer seat's input in any rule system, as a wire object.
pub fn computer_input(
    game: &AnyGame,
    seat: Player,
    level: Level,
    seed: u64,
    time: Option<Duration>,
) -> Option<Object> {
    fn wire<G: Computer>(
        g: &G,
        seat: Player,
        level: Level,
        seed: u64,
        time: Option<Duration>,
    ) -> Option<Object> {
        g.computer_input(seat, level, seed, time).map(|m| to_object(&m))
    }
    gobeyond_rules::dispatch!(game, g => wire(g, seat, level, seed, time))
}
