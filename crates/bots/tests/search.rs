//! The search's behaviour (never its speed): legal play everywhere, reproducibility, tactics.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

// The rules crate's diagram parser, shared rather than copied.
#[path = "../../rules/tests/diagram/mod.rs"]
mod diagram;

use std::sync::Arc;

use gobeyond_bots::{
    Computer, Policy, SearchConfig, Searcher, TreePolicy,
    level::{Bot, Strategy},
};
use gobeyond_maps::generate;
use gobeyond_rules::{
    ClassicGame, ClassicRules, Game, GoBeyondGame, GoBeyondRules, Player, classic,
    gobeyond::{self, Phase},
};

fn config(playouts: u32, seed: u64) -> SearchConfig {
    SearchConfig { playouts, seed, ..SearchConfig::default() }
}

fn classic_from(diagram: &str, komi: f64) -> ClassicGame {
    let (map, setup) = diagram::parse(diagram);
    let rules = ClassicRules { komi, ..ClassicRules::default() };
    ClassicGame::with_setup(map, 2, rules, &setup, Player(0)).unwrap()
}

#[test]
fn same_seed_same_search() {
    let map = Arc::new(generate("square:9").unwrap());
    let game = ClassicGame::new(map, 2, ClassicRules::default()).unwrap();
    let run = |threads, seed| {
        let a = Searcher::new(SearchConfig { threads, ..config(800, seed) }).search(&game);
        (a.best, a.actions.iter().map(|s| s.visits).collect::<Vec<_>>())
    };
    assert_eq!(run(1, 5), run(1, 5));
    assert_ne!(run(1, 5).1, run(1, 6).1, "the seed matters");
    // Two threads share the tree: how they interleave varies, the playout budget holds.
    assert_eq!(run(1, 5).1.iter().sum::<u32>(), 800, "every playout lands in a root child");
    // With two, a thread that finds the root being expanded plays out from the root itself.
    let landed = run(2, 9).1.iter().sum::<u32>();
    assert!((784..=800).contains(&landed), "{landed} of 800 playouts in the root's children");
}

/// Classic Go on big boards searches with the big-board tree policy (no exploration term, RAVE
/// trusted longer), small boards with the default; a setting given overrides the game's.
#[test]
fn big_boards_take_their_own_tree_policy() {
    let visits = |spec: &str, exploration: Option<f32>, rave_equivalence: Option<f32>| {
        let map = Arc::new(generate(spec).unwrap());
        let game = ClassicGame::new(map, 2, ClassicRules::default()).unwrap();
        let c = SearchConfig { exploration, rave_equivalence, ..config(400, 3) };
        Searcher::new(c).search(&game).actions.iter().map(|s| (s.action, s.visits)).collect::<Vec<_>>()
    };
    let (default, big) = (TreePolicy::DEFAULT, TreePolicy::BIG_BOARD);
    assert_eq!(
        visits("square:19", None, None),
        visits("square:19", Some(big.exploration), Some(big.rave_equivalence))
    );
    assert_ne!(
        visits("square:19", None, None),
        visits("square:19", Some(default.exploration), Some(default.rave_equivalence))
    );
    assert_eq!(
        visits("square:9", None, None),
        visits("square:9", Some(default.exploration), Some(default.rave_equivalence))
    );
}

/// The race between Black's ring and White's four stones: White has one liberty, Black many.
/// Capturing now wins; anything else lets White out.
#[test]
fn finds_the_winning_capture() {
    let game = classic_from(
        "
        ......
        .XXXX.
        .XOO..
        .XOOX.
        .XXXX.
        ......",
        0.5,
    );
    let a = Searcher::new(config(2000, 3)).search(&game);
    let e4 = game.map().node_by_label("E4").unwrap();
    assert_eq!(a.best, Some(classic::Action::Place(e4)), "{:?}", &a.actions[..3]);
    assert!(a.value() > 0.8, "and knows it wins: {}", a.value());
}

/// A capturing race: Black's four stones (D3–E4) and White's four (F3–G4) touch, neither has an
/// eye, each has two outside liberties (C3, C4 and H3, H4) and a safe wall around it. The side to
/// move wins by taking an outside liberty of the other; anything else (filling its own, or
/// playing elsewhere) loses the race and the game.
#[test]
fn wins_a_capturing_race_with_either_colour() {
    let diagram = "
        ..........
        .OOOOXXXX.
        .O.XXOO.X.
        .O.XXOO.X.
        .OOOOXXXX.
        ..........";
    let game = classic_from(diagram, 0.5);
    let at = |l: &str| classic::Action::Place(game.map().node_by_label(l).unwrap());
    let a = Searcher::new(config(4000, 5)).search(&game);
    assert!(a.best == Some(at("H3")) || a.best == Some(at("H4")), "Black: {:?}", &a.actions[..3]);

    let mut white = classic_from(diagram, 0.5);
    white.play(classic::Action::Pass).unwrap();
    let a = Searcher::new(config(4000, 6)).search(&white);
    assert!(a.best == Some(at("C3")) || a.best == Some(at("C4")), "White: {:?}", &a.actions[..3]);
}

/// Ownership: after the search, the captured-to-be White stones belong to Black.
#[test]
fn ownership_marks_doomed_stones() {
    let game = classic_from(
        "
        .......
        .XXXXX.
        .XOO.X.
        .XXXXX.
        .......",
        0.5,
    );
    let mut game = game;
    game.play(classic::Action::Pass).unwrap(); // White to move, but the stones are lost anyway
    let a = Searcher::new(config(1500, 4)).search(&game);
    let c3 = game.map().node_by_label("C3").unwrap();
    assert_eq!(a.owner(c3).map(|o| o.0), Some(Player(0)), "{:?}", a.ownership[c3 as usize]);
}

fn self_play<G: Computer>(mut game: G, bots: &mut [Bot<G>], max: usize) -> G {
    for _ in 0..max {
        let Some(p) = game.to_move() else { break };
        let (action, _) = bots[p.index()].choose(&game);
        let action = action.expect("a bot always has an action while it is to move");
        game.play(action).unwrap_or_else(|e| panic!("bot played an illegal action {action:?}: {e}"));
    }
    game
}

#[test]
fn never_illegal_on_any_map_classic() {
    let maps =
        ["square:5", "hex:3", "torus:4", "cube:2", "goldberg:1,1", "honeycomb:2", "grid:3x3x3", "random:20"];
    for (i, spec) in maps.iter().enumerate() {
        let players = 2 + i % 3;
        let map = Arc::new(generate(spec).unwrap());
        let game = ClassicGame::new(map, players, ClassicRules::default()).unwrap();
        let mut bots: Vec<Bot<ClassicGame>> = (0..players)
            .map(|s| {
                let policy = [Policy::Heavy, Policy::Light, Policy::Patterns][s % 3];
                // The pattern priors on every other map, the hand-written ones on the rest.
                Bot::with_config(SearchConfig { policy, patterns: i % 2 == 0, ..config(60, s as u64) })
            })
            .collect();
        let end = self_play(game, &mut bots, 400);
        assert!(end.board().is_consistent(), "{spec}");
    }
}

#[test]
fn never_illegal_on_any_map_gobeyond() {
    for (i, spec) in ["hex:3", "square:5", "goldberg:1,1", "torus:4", "cube:2"].iter().enumerate() {
        let players = 2 + i % 3;
        let map = Arc::new(generate(spec).unwrap());
        let game = GoBeyondGame::new(map, players, GoBeyondRules::default()).unwrap();
        let mut bots: Vec<Bot<GoBeyondGame>> =
            (0..players).map(|s| Bot::with_config(config(60, s as u64))).collect();
        let mut end = self_play(game, &mut bots, 500);
        while end.to_move().is_some() {
            end.play(gobeyond::Action::Pass).unwrap();
        }
        assert_eq!(end.phase(), Phase::CleanUp, "{spec}");
    }
}

#[test]
fn levels_and_baselines_choose_legal_actions() {
    let map = Arc::new(generate("hex:3").unwrap());
    let game = GoBeyondGame::new(map, 3, GoBeyondRules::default()).unwrap();
    let mut bots: Vec<Bot<GoBeyondGame>> = ["random", "greedy", "3"]
        .iter()
        .enumerate()
        .map(|(i, s)| Bot::new(s.parse::<Strategy>().unwrap(), i as u64, 1, None))
        .collect();
    let end = self_play(game, &mut bots, 200);
    assert!(end.turn() > 10);
    assert!("11".parse::<Strategy>().is_err());
    assert!("level:0".parse::<Strategy>().is_err());
}

/// A lone stone inside another player's area is doomed; the walls are not.
#[test]
fn cleanup_suggestion_finds_the_doomed_stone() {
    use gobeyond_bots::go::dead_stones::doomed_stones;
    use gobeyond_rules::{GoBeyondGame, GoBeyondRules, Player};
    let map = std::sync::Arc::new(gobeyond_maps::generate("square:7").unwrap());
    let at = |l: &str| map.node_by_label(l).unwrap();
    // White (player 1) holds columns A-B behind a wall on C, black holds F-G behind a wall on
    // E; a lone black stone sits at B4, inside white's area.
    let mut setup = Vec::new();
    for row in 1..=7 {
        setup.push((at(&format!("C{row}")), Player(1)));
        setup.push((at(&format!("E{row}")), Player(0)));
    }
    setup.push((at("B4"), Player(0)));
    let game = GoBeyondGame::with_setup(map.clone(), 2, GoBeyondRules::default(), &setup).unwrap();
    let config = gobeyond_bots::SearchConfig { playouts: 3000, seed: 5, ..Default::default() };
    let black = doomed_stones(&game, Player(0), config.clone());
    assert_eq!(black, vec![at("B4")], "B4 is doomed, the black wall lives");
    let white = doomed_stones(&game, Player(1), config);
    assert!(white.is_empty(), "the white wall lives: {white:?}");
}

/// After the first stone claims the whole empty map, the next player must break the claim (a
/// passive opponent would collect income on it for ever), not skip.
#[test]
fn gobeyond_bot_breaks_a_runaway_claim() {
    use gobeyond_rules::{Game, GoBeyondGame, GoBeyondRules, gobeyond::Action};
    let map = std::sync::Arc::new(gobeyond_maps::generate("goldberg:2,1").unwrap());
    let mut game = GoBeyondGame::new(map.clone(), 3, GoBeyondRules::default()).unwrap();
    // The opening a greedy first player chose in a lost series game.
    game.play(Action::Occupy(69)).unwrap();
    for seed in 1..=3 {
        let config = gobeyond_bots::SearchConfig { playouts: 6000, seed, ..Default::default() };
        let best = gobeyond_bots::Searcher::new(config).search(&game).best;
        assert!(matches!(best, Some(Action::Occupy(_))), "seed {seed}: {best:?}");
    }
}

/// A position from a lost series game (goldberg:2,1, the bot in the second seat): a greedy
/// first player took the empty map, the bot broke the claim, and all would rank the passive
/// third player first if play ended now. The bot passed there and the others ended the game;
/// now it keeps the game going.
#[test]
fn gobeyond_bot_does_not_pass_while_behind() {
    use gobeyond_rules::{Game, GoBeyondGame, GoBeyondRules, gobeyond::Action};
    let map = std::sync::Arc::new(gobeyond_maps::generate("goldberg:2,1").unwrap());
    let mut game = GoBeyondGame::new(map.clone(), 3, GoBeyondRules::default()).unwrap();
    for a in [
        Action::Occupy(61),
        Action::Occupy(63),
        Action::Pass,
        Action::Pass,
        Action::Skip,
        Action::Skip,
        Action::Pass,
    ] {
        game.play(a).unwrap();
    }
    assert_eq!(game.current_player(), Player(1));
    for seed in 1..=4 {
        let config = gobeyond_bots::SearchConfig { playouts: 4000, seed, ..Default::default() };
        let best = gobeyond_bots::Searcher::new(config).search(&game).best;
        assert!(best.is_some() && best != Some(Action::Pass), "seed {seed}: {best:?}");
    }
}

/// Black's stone in atari would run into a ladder (White's stones chase it along the diagonal
/// to the upper-left corner): extending only feeds White more stones. Black to move.
const LADDERED: &str = "
    .........
    .........
    .........
    .........
    .........
    .......O.
    .....OXO.
    ......O..
    .........";

#[test]
fn does_not_run_from_atari_into_a_ladder() {
    let game = classic_from(LADDERED, 7.0);
    let escape = game.map().node_by_label("G4").unwrap();
    assert!(game.board().atari_liberty(game.map().node_by_label("G3").unwrap()) == Some(escape));
    for seed in 1..=3 {
        let a = Searcher::new(config(3000, seed)).search(&game);
        assert_ne!(a.best, Some(classic::Action::Place(escape)), "seed {seed}: {:?}", &a.actions[..3]);
    }
}

/// The tree never grows past its memory budget, and the search keeps running at the budget.
#[test]
fn memory_budget_holds_during_a_search() {
    let map = Arc::new(generate("square:9").unwrap());
    let game = ClassicGame::new(map, 2, ClassicRules::default()).unwrap();
    let budget = 1 << 20;
    let mut s = Searcher::new(SearchConfig { memory: budget, ..config(4000, 3) });
    let a = s.search(&game);
    assert_eq!(a.playouts, 4000, "the search went on at the budget");
    assert!(s.memory() <= budget, "{} bytes of tree for a budget of {budget}", s.memory());
    // Without the budget the same search needs several times more (so the budget did bind).
    let mut free = Searcher::new(config(4000, 3));
    free.search(&game);
    assert!(free.memory() > 2 * budget, "{} bytes without a budget", free.memory());
    assert!(a.best.is_some());
}

/// About 3 KB of tree per playout on a big map: nodes are expanded only when their visits pay
/// for their children (the whole-tree figure is in docs/benchmarks.md).
#[test]
fn tree_grows_about_three_kilobytes_per_playout_on_19x19() {
    let map = Arc::new(generate("square:19").unwrap());
    let game = ClassicGame::new(map, 2, ClassicRules::default()).unwrap();
    let playouts = 1500;
    let mut s = Searcher::new(config(playouts, 5));
    s.search(&game);
    let per_playout = s.node_count() * Searcher::<ClassicGame>::node_size() / playouts as usize;
    assert!(
        per_playout
            <= SearchConfig::default().bytes_per_playout + 361 * Searcher::<ClassicGame>::node_size() / 10,
        "{per_playout} bytes per playout"
    );
    assert!(s.node_count() > 361, "the tree did grow");
}

/// Gengo on five map families and every region kind and option the bots must handle: every
/// action a bot chooses is legal, and self-play ends (three passes or the turn limit).
#[test]
fn never_illegal_on_any_map_gengo() {
    use gobeyond_rules::gengo::{GengoGame, GengoRules, GengoScoring, Permission, Regions, SelfCaptureOrder};
    let options = [
        GengoRules::default(),
        GengoRules { regions: Regions::Classic, ..GengoRules::default() },
        GengoRules {
            suicide: Permission::Forbidden,
            friendly_fire: Permission::Forbidden,
            ..GengoRules::default()
        },
        GengoRules {
            own_overlap: Permission::Allowed,
            self_capture_order: SelfCaptureOrder::PlayedLast,
            scoring: GengoScoring::Area,
            ..GengoRules::default()
        },
        GengoRules { handicap: 2, ..GengoRules::default() },
    ];
    for (i, spec) in ["square:7", "hex:3", "torus:6", "cube:3", "goldberg:2,1"].iter().enumerate() {
        let map = Arc::new(generate(spec).unwrap());
        let rules = options[i].clone();
        let game = GengoGame::new(map, rules, &[], Player(0)).unwrap();
        let mut bots: Vec<Bot<GengoGame>> =
            (0..2).map(|s| Bot::with_config(config(60, (i * 2 + s) as u64))).collect();
        let end = self_play(game, &mut bots, 2000);
        assert!(end.outcome().is_some(), "{spec}: the game ended");
        let plays = end
            .inputs()
            .iter()
            .filter(|(_, i)| {
                matches!(i, gobeyond_rules::gengo::Input::Act(gobeyond_rules::gengo::Action::Place(_)))
            })
            .count();
        assert!(plays >= 8, "{spec}: {plays} stones played");
    }
}

/// The Way of Go (with and without push) and BeSiege: searching bots play whole games from
/// the pie on four map families with lines, every action checked, and every game ends.
#[test]
fn never_illegal_on_maps_with_lines_way_of_go_and_besiege() {
    use gobeyond_rules::way_of_go::{BesiegeGame, BesiegeRules, Event, WayOfGoGame, WayOfGoRules};
    for (i, spec) in ["square:7", "torus:6", "hex:3", "cube:3"].iter().enumerate() {
        let map = Arc::new(generate(spec).unwrap());
        let rules =
            WayOfGoRules { contracts: [2, 2], push: i % 2 == 1, max_turns: Some(150), ..Default::default() };
        let game = WayOfGoGame::new(map.clone(), rules).unwrap();
        let mut bots: Vec<Bot<WayOfGoGame>> =
            (0..2).map(|s| Bot::with_config(config(40, (i * 2 + s) as u64))).collect();
        let end = self_play(game, &mut bots, 5000);
        assert!(end.outcome().is_some(), "{spec}: The Way of Go ended");
        assert!(end.turns() >= 4, "{spec}: {} turns", end.turns());

        let rules = BesiegeRules { max_turns: Some(150), ..Default::default() };
        let game = BesiegeGame::new(map, rules).unwrap();
        let mut bots: Vec<Bot<BesiegeGame>> =
            (0..2).map(|s| Bot::with_config(config(40, (i * 2 + s + 50) as u64))).collect();
        let end = self_play(game, &mut bots, 5000);
        assert!(end.outcome().is_some(), "{spec}: BeSiege ended");
        let moved =
            end.events().iter().filter(|e| matches!(e, Event::Moved { .. } | Event::Captured { .. })).count();
        assert!(moved > 0, "{spec}: stones moved in BeSiege");
    }
}
