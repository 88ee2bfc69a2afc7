//! Tests of the fit: what it learns, extending a model, large shapes.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use gobeyond_rules::{ClassicGame, Game, classic::Action, playout::PlayoutTables};

use super::*;
use crate::go::patterns::is_candidate;

/// Games on 7×7 in which the mover captures whenever it can and plays at random otherwise.
fn capturing_games() -> Samples {
    let mut samples = Samples::new(true, &[]);
    for g in capturing_game_records() {
        samples.add_game(&g).unwrap();
    }
    samples
}

fn capturing_game_records() -> Vec<ClassicGame> {
    let map = Arc::new(gobeyond_maps::generate("square:7").unwrap());
    let tables = PlayoutTables::new(&map);
    let mut games = Vec::new();
    let mut rng = gobeyond_rules::Rng::new(9);
    for _ in 0..12 {
        let mut g = ClassicGame::new(map.clone(), 2, gobeyond_rules::ClassicRules::default()).unwrap();
        for _ in 0..60 {
            let p = g.next_player();
            let board = g.board();
            let legal: Vec<u32> =
                board.empties().iter().copied().filter(|&v| is_candidate(board, &tables, v, p)).collect();
            if legal.is_empty() {
                break;
            }
            let capture = legal.iter().copied().find(|&v| {
                map.neighbors(v).iter().any(|&q| {
                    board.color(q) != 0 && board.color(q) != p.stone() && board.atari_liberty(q) == Some(v)
                })
            });
            let v = capture.unwrap_or(legal[rng.below(legal.len() as u32) as usize]);
            if g.play(Action::Place(v)).is_err() {
                break;
            }
        }
        games.push(g);
    }
    games
}

/// Large shapes played often enough are fitted beside the rest: the weights name each with
/// its γ and "none" for the others, they fit the games better than without, and the model
/// reads them back.
#[test]
fn the_fit_weighs_the_large_shapes_played_often() {
    let games = capturing_game_records();
    let large = played_large_shapes(&games, 2).unwrap();
    assert!(large.len() >= 5, "{} large shapes played twice", large.len());
    let mut samples = Samples::new(true, &large);
    for g in &games {
        samples.add_game(g).unwrap();
    }
    let with = fit(&samples, Start::fresh(&samples), 5, |_, _| {});
    let without = capturing_games();
    let plain = fit(&without, Start::fresh(&without), 5, |_, _| {});
    let (a, b) = (with.gamma.quality(&samples), plain.gamma.quality(&without));
    assert!(a.log_likelihood > b.log_likelihood, "with large shapes {a:?}, without {b:?}");
    let w = with.weights(&samples, "test".into());
    assert_eq!(w.large_shapes.len(), large.len() + 1);
    assert!(w.large_shapes.contains_key(NO_LARGE_SHAPE));
    assert!(w.large_shapes.values().any(|&g| g != 1.0), "{:?}", w.large_shapes);
    assert!(super::super::Model::from_weights(&w).unwrap().reads_large_shapes());
    // More virtual games keep the large shapes' γ nearer 1.
    let spread = |f: &Fitted| {
        let w = f.weights(&samples, "test".into());
        w.large_shapes.values().map(|g| g.ln().abs()).fold(0.0, f64::max)
    };
    let tamed = fit(&samples, Start::fresh(&samples).with_large_prior(20.0), 5, |_, _| {});
    assert!(spread(&tamed) < spread(&with), "{} against {}", spread(&tamed), spread(&with));
    // A cap holds every large shape's γ within it; the other features stay free.
    let capped = fit(&samples, Start::fresh(&samples).with_large_cap(1.5), 5, |_, _| {});
    assert!(spread(&capped) <= 1.5f64.ln() + 1e-3, "{}", spread(&capped));
    assert_eq!(capped.weights(&samples, "test".into()).groups, with.weights(&samples, "test".into()).groups);
    // Without large shapes to fit, no weights for them are written.
    assert!(plain.weights(&without, "test".into()).large_shapes.is_empty());
}

/// The fit must learn that captures are strong, and predict better than equal weights.
#[test]
fn the_fit_learns_what_the_players_did() {
    let samples = capturing_games();
    assert!(samples.positions() > 300, "{}", samples.positions());
    let (train, test) = samples.split(5);
    let before = equal_weights(&train).quality(&test);
    let fitted = fit(&train, Start::fresh(&train), 5, |_, _| {});
    let after = fitted.gamma.quality(&test);
    assert!(after.log_likelihood > before.log_likelihood, "{before:?} → {after:?}");
    let w = fitted.weights(&train, "test".into());
    let capture = &w.groups["capture"];
    assert!(capture["one"] > 5.0 * capture["none"], "{capture:?}");
    // The file reads back.
    assert!(super::super::Model::from_weights(&w).is_ok());
}

/// Extending a model fits only the shapes it has never seen: its fixed groups and known
/// shapes come out as they went in, and shapes the new games never met are kept.
#[test]
fn extending_a_model_fits_only_its_unknown_shapes() {
    let samples = capturing_games();
    let first = fit(&samples, Start::fresh(&samples), 5, |_, _| {}).weights(&samples, "first".into());
    let mut base = first.clone();
    // A base that knows captures less well, misses the commonest shape, and holds a shape
    // of another map family.
    base.groups.get_mut("capture").unwrap().insert("one".into(), 3.0);
    let (common, _) = samples
        .shapes
        .iter()
        .max_by_key(|&(_, &slot)| {
            (0..samples.candidates()).filter(|&i| samples.teams[i][SHAPE] == slot).count()
        })
        .unwrap();
    let common = common.text();
    base.shapes.remove(&common);
    base.shapes.insert("0060/0060".into(), 2.5);
    let start = Start::extending(&samples, &base).unwrap();
    let w = fit(&samples, start, 5, |_, _| {}).weights(&samples, "extended".into());
    assert_eq!(w.groups, base.groups);
    assert_eq!(w.shapes.get("0060/0060"), Some(&2.5));
    for (k, g) in &base.shapes {
        assert_eq!(w.shapes.get(k), Some(g), "{k}");
    }
    // The missing shape was fitted again (and moved off 1, where it started).
    assert!(w.shapes.get(&common).is_some_and(|&g| g != 1.0), "{common}: {:?}", w.shapes.get(&common));
    assert_eq!(w.shapes.len(), base.shapes.len() + 1);
    // A base without a group is refused with its name.
    base.groups.remove("atari");
    assert!(Start::extending(&samples, &base).unwrap_err().contains("atari"));
}
