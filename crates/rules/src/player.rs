use std::fmt;

/// A player: an index in turn order, `0..players` (at most [`MAX_PLAYERS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "number"))]
#[serde(transparent)]
pub struct Player(pub u8);

/// The most players a game may have.
pub const MAX_PLAYERS: usize = 8;

impl Player {
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The colour code stored on the board for this player's stones (`1..=8`; 0 is empty).
    #[inline]
    pub fn stone(self) -> u8 {
        self.0 + 1
    }

    /// The player whose stones carry colour code `stone`, if any.
    #[inline]
    pub fn of_stone(stone: u8) -> Option<Player> {
        (1..=MAX_PLAYERS as u8).contains(&stone).then(|| Player(stone - 1))
    }

    /// A conventional colour name: Black and White for two players, then more colours.
    pub fn color_name(self, players: usize) -> &'static str {
        const NAMES: [&str; MAX_PLAYERS] =
            ["Black", "White", "Red", "Blue", "Green", "Yellow", "Purple", "Orange"];
        if players <= 2 { NAMES[self.index().min(1)] } else { NAMES[self.index() % MAX_PLAYERS] }
    }

    /// The single-letter symbol used in text boards: X O for two players, then A B C ... .
    pub fn symbol(self, players: usize) -> char {
        if players <= 2 { ['X', 'O'][self.index().min(1)] } else { (b'A' + self.0) as char }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.0 + 1)
    }
}

/// A seat's player as records and views name them.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct PlayerInfo {
    #[serde(default)]
    pub name: String,
}
