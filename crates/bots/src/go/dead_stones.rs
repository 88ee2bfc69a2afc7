//! Dead stones on a Go board, from the search's ownership statistics: a stone that playouts
//! from the position mostly end up owned by someone else is dead. For GoBeyond's Clean-Up (the
//! engine alone only knows groups in atari) and classic Go's dead-stone phase.

use gobeyond_maps::NodeId;
use gobeyond_rules::{Game, GoBeyondGame, Player};

use crate::search::mcts::{SearchConfig, Searcher};

/// The stones of `player` that ownership says are dead, for the Clean-Up suggestion. The
/// search runs on the stones as they stand, with play resumed (Clean-Up itself has no moves).
pub fn doomed_stones(game: &GoBeyondGame, player: Player, config: SearchConfig) -> Vec<NodeId> {
    let board = game.board();
    let stones: Vec<(NodeId, Player)> =
        board.map().nodes().filter_map(|n| board.stone_at(n).map(|p| (n, p))).collect();
    let Ok(position) =
        GoBeyondGame::with_setup(game.map().clone(), game.player_count(), game.rules().clone(), &stones)
    else {
        return game.suggest_surrender(player);
    };
    let analysis = Searcher::new(config).search(&position);
    let mut doomed: Vec<NodeId> =
        analysis.dead_stones(board).into_iter().filter(|&n| board.stone_at(n) == Some(player)).collect();
    // A group in atari is doomed whatever the statistics say.
    for n in game.suggest_surrender(player) {
        if !doomed.contains(&n) {
            doomed.push(n);
        }
    }
    doomed.sort_unstable();
    // Stones that would leave the player's own territory behind are not doomed (the rules
    // refuse them): drop them one by one.
    while let Err(gobeyond_rules::gobeyond::Illegal::OwnTerritory { node, .. }) =
        game.check_surrender(player, &doomed)
    {
        doomed.retain(|&n| n != node);
    }
    doomed
}

/// Classic Go's dead-stone phase: every stone the search's ownership says is dead, from the
/// position as if play went on (whole groups, sorted).
pub fn dead_classic_stones(game: &gobeyond_rules::ClassicGame, config: SearchConfig) -> Vec<NodeId> {
    let position = game.play_resumed();
    let analysis = Searcher::new(config).search(&position);
    let dead = analysis.dead_stones(game.board());
    game.groups_at(&dead).unwrap_or_default()
}
