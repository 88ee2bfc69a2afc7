//! Perft: the number of legal action sequences (placements and passes) of a given length from the
//! empty board, on small maps of several topologies and under every ko rule. The expected counts
//! in `perft/perft.txt` come from the naive reference engine (`common`), not from the engine under
//! test; this driver checks both against the file. `PERFT_BLESS=1` rewrites the file from the
//! reference engine.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

mod common;

use std::sync::Arc;

use common::Naive;
use gobeyond_rules::{ClassicRules, Game, KoRule, Scoring, SuicideRule, classic::ClassicGame};

fn ko_of(s: &str) -> KoRule {
    match s {
        "none" => KoRule::None,
        "simple" => KoRule::Simple,
        "positional" => KoRule::PositionalSuperko,
        "situational" => KoRule::SituationalSuperko,
        other => panic!("unknown ko rule {other}"),
    }
}

fn suicide_of(s: &str) -> SuicideRule {
    match s {
        "forbidden" => SuicideRule::Forbidden,
        "multi" => SuicideRule::MultiStoneOnly,
        "allowed" => SuicideRule::Allowed,
        other => panic!("unknown suicide rule {other}"),
    }
}

fn fast_perft(game: &ClassicGame, depth: u32) -> u64 {
    if depth == 0 || game.is_over() {
        return 1;
    }
    let mut actions = Vec::new();
    game.legal_actions(&mut actions);
    actions
        .iter()
        .map(|&a| {
            let mut g = game.clone();
            g.play(a).unwrap();
            fast_perft(&g, depth - 1)
        })
        .sum()
}

fn naive_perft(n: &Naive, depth: u32) -> u64 {
    if depth == 0 || n.passes >= n.players as u32 {
        return 1;
    }
    let mut total = 0;
    for p in n.legal_places() {
        let mut m = n.clone();
        m.place(p).unwrap();
        total += naive_perft(&m, depth - 1);
    }
    let mut m = n.clone();
    m.pass();
    total + naive_perft(&m, depth - 1)
}

struct Case {
    spec: String,
    players: u8,
    ko: String,
    suicide: String,
    depth: u32,
}

const CASES: &[(&str, u8, &str, &str, u32)] = &[
    ("square:3", 2, "simple", "forbidden", 5),
    ("square:3", 2, "positional", "forbidden", 5),
    ("square:3", 2, "none", "allowed", 5),
    ("rect:3x2", 2, "simple", "forbidden", 7),
    ("rect:3x2", 2, "positional", "forbidden", 7),
    ("rect:3x2", 2, "situational", "forbidden", 7),
    ("rect:3x2", 2, "none", "multi", 7),
    ("rect:2x2", 2, "simple", "allowed", 9),
    ("rect:2x2", 2, "situational", "allowed", 9),
    ("hex:2", 2, "simple", "forbidden", 5),
    ("tri:3", 3, "simple", "forbidden", 6),
    ("torus:3", 2, "positional", "forbidden", 4),
    ("cube:1", 2, "simple", "forbidden", 6),
    ("goldberg:1,0", 3, "simple", "forbidden", 4),
    ("honeycomb:2", 2, "simple", "forbidden", 3),
    ("klein:3x3", 2, "simple", "forbidden", 4),
];

#[test]
fn perft_matches_golden_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft/perft.txt");
    if std::env::var("PERFT_BLESS").is_ok() {
        let mut out =
            String::from("# spec players ko suicide depth count (counts from the naive reference engine)\n");
        for &(spec, players, ko, suicide, depth) in CASES {
            let map = Arc::new(gobeyond_maps::generate(spec).unwrap());
            let n = Naive::new(map, players, ko_of(ko), suicide_of(suicide));
            out.push_str(&format!("{spec} {players} {ko} {suicide} {depth} {}\n", naive_perft(&n, depth)));
        }
        std::fs::write(path, out).unwrap();
    }
    let text = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let case = Case {
            spec: f[0].into(),
            players: f[1].parse().unwrap(),
            ko: f[2].into(),
            suicide: f[3].into(),
            depth: f[4].parse().unwrap(),
        };
        let expected: u64 = f[5].parse().unwrap();
        let map = Arc::new(gobeyond_maps::generate(&case.spec).unwrap());
        let rules = ClassicRules {
            ko: ko_of(&case.ko),
            suicide: suicide_of(&case.suicide),
            komi: 0.0,
            scoring: Scoring::Area,
            passes_to_end: None,
            dead_stones: false,
            ..ClassicRules::default()
        };
        let game = ClassicGame::new(map.clone(), case.players as usize, rules).unwrap();
        assert_eq!(fast_perft(&game, case.depth), expected, "fast engine: {line}");
        let n = Naive::new(map, case.players, ko_of(&case.ko), suicide_of(&case.suicide));
        assert_eq!(naive_perft(&n, case.depth), expected, "reference engine: {line}");
        checked += 1;
    }
    assert_eq!(checked, CASES.len(), "every case is in the golden file");
}
