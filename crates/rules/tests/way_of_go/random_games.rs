//! Random games on four map families: stones are conserved, refusals change nothing,
//! records replay; the registry and custom maps.

use super::*;

/// Stones on the board = pie stones + drops − stones removed by captures (both sides).
fn conserved<V: Variant>(g: &WayGame<V>) -> Result<(), String> {
    let (mut placed, mut removed) = (0i64, 0i64);
    for e in g.events() {
        match e {
            Event::PieStone { .. } | Event::Dropped { .. } => placed += 1,
            Event::Captured { removed: r, lost: l, .. } => removed += (*r + *l) as i64,
            _ => {}
        }
    }
    let on_board = (g.board().stones(BLACK) + g.board().stones(WHITE)) as i64;
    if on_board == placed - removed {
        Ok(())
    } else {
        Err(format!("{on_board} stones on the board, {placed} placed, {removed} removed"))
    }
}

fn random_games<V: Variant>(rules: V::Settings)
where
    AnyGame: From<WayGame<V>>,
    WayGame<V>: TryFrom<AnyGame>,
{
    let mut tallest = 0;
    for (k, spec) in ["square:7", "torus:6", "hex:4", "cube:3"].iter().enumerate() {
        let m = map(spec);
        let mut g = WayGame::<V>::new(m.clone(), rules.clone()).unwrap();
        let mut rng = Rng::new(k as u64 + 11);
        let mut legal = Vec::new();
        let mut steps = 0;
        while g.outcome().is_none() && steps < 400 {
            steps += 1;
            // A refused action changes nothing.
            let junk = Action::Drop(rng.below(m.len() as u32));
            if g.check(junk).is_err() {
                let (hash, inputs, phase) = (g.board().hash(), g.inputs().len(), g.phase());
                assert!(g.play(junk).is_err());
                assert_eq!((g.board().hash(), g.inputs().len(), g.phase()), (hash, inputs, phase));
            }
            g.legal_actions(&mut legal);
            assert!(!legal.is_empty(), "{spec}: a game not over has an action");
            // Captures are rarer than drops; prefer them now and then so that games have some.
            let captures: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|a| match *a {
                    Action::Move { from, count, dir, to } => {
                        g.find_move(from, count, to, Some(dir)).is_ok_and(|(_, l)| l.captures())
                    }
                    _ => false,
                })
                .collect();
            let a = if !captures.is_empty() && rng.below(2) == 0 {
                captures[rng.below(captures.len() as u32) as usize]
            } else {
                legal[rng.below(legal.len() as u32) as usize]
            };
            g.check(a).unwrap_or_else(|e| panic!("{spec}: {a:?} was listed: {e}"));
            g.play(a).unwrap_or_else(|e| panic!("{spec}: {a:?} was listed: {e}"));
            conserved(&g).unwrap_or_else(|e| panic!("{spec} after {a:?}: {e}"));
            // The level-by-level attack table equals one BFS per stack and top part.
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            g.board().attacked(&mut fast);
            g.board().attacked_slowly(&mut slow);
            assert_eq!(fast, slow, "{spec} after {a:?}");
            tallest = tallest.max(m.nodes().map(|n| g.board().height(n)).max().unwrap_or(0));
        }
        let names = vec![PlayerInfo { name: "a".into() }, PlayerInfo { name: "b".into() }];
        let record = Record::of(&g, MapSource::Spec((*spec).into()), names);
        let json = serde_json::to_string(&record).unwrap();
        let again: Record = serde_json::from_str(&json).unwrap();
        let Ok(r) = WayGame::<V>::try_from(again.replay().unwrap()) else { panic!("{spec}: same system") };
        assert_eq!(r.board().hash(), g.board().hash(), "{spec}: the record replays");
        assert_eq!(
            (r.captures(Player(0)), r.captures(Player(1))),
            (g.captures(Player(0)), g.captures(Player(1)))
        );
        assert_eq!(r.outcome(), g.outcome());
        let mut u = g.clone();
        if !g.inputs().is_empty() {
            assert!(u.undo());
            assert_eq!(u.inputs().len(), g.inputs().len() - 1);
        }
    }
    if WayGame::<V>::from_position(map("square:5"), rules, &[], BLACK).unwrap().config().stacks {
        assert!(tallest >= 3, "stacks were built (the tallest had {tallest} stones)");
    }
}

#[test]
fn random_way_of_go_games_conserve_stones_and_replay() {
    random_games::<gobeyond_rules::way_of_go::WayOfGo>(WayOfGoRules::default());
    random_games::<gobeyond_rules::way_of_go::WayOfGo>(WayOfGoRules {
        push: true,
        contracts: [2, 3],
        ..WayOfGoRules::default()
    });
}

#[test]
fn random_besiege_games_conserve_stones_and_replay() {
    random_games::<gobeyond_rules::way_of_go::Besiege>(BesiegeRules::default());
}

#[test]
fn both_systems_are_in_the_registry() {
    for name in ["way-of-go", "besiege"] {
        let info = gobeyond_rules::SystemInfo::get(name).unwrap();
        assert_eq!(info.name, name);
    }
    assert_eq!(<WayOfGoGame as RuleSystem>::NAME, "way-of-go");
    assert_eq!(<BesiegeGame as RuleSystem>::NAME, "besiege");
}

#[test]
fn custom_maps_play_with_declared_or_derived_lines_and_are_refused_without() {
    use gobeyond_maps::{CustomLines, CustomMap, Derived};
    let plain = CustomMap::from_map(&generate("square:9").unwrap());
    let mut named = plain.clone();
    named.name = "My nine".into();
    let e =
        WayOfGoGame::new(Arc::new(named.build().unwrap()), WayOfGoRules::default()).unwrap_err().to_string();
    assert!(e.contains("My nine") && e.contains("straight lines"), "{e}");
    // Derived: in the open, a lone stone moves as on the generated board.
    let mut d = plain.clone();
    d.lines = Some(CustomLines::Derived(Derived::Derived));
    let m = Arc::new(d.build().unwrap());
    let e5 = node(&m, "E5");
    let g = WayOfGoGame::from_position(m.clone(), WayOfGoRules::default(), &[(e5, BLACK, 1)], BLACK).unwrap();
    let mut got = Vec::new();
    g.board().steps(e5, 1, |s| got.push(m.label(s.to).to_string()));
    got.sort();
    assert_eq!(got, ["A5", "E1", "E9", "J5"]);
    // Declared: a ring of eight nodes, closed. A lone stone has two liberties, so it moves two
    // steps either way round, across the ring's join.
    let ring = CustomMap {
        name: "Ring".into(),
        nodes: (0..8)
            .map(|i| {
                let a = i as f64 * std::f64::consts::PI / 4.0;
                gobeyond_maps::CustomNode { x: Some(a.cos()), y: Some(a.sin()), ..Default::default() }
            })
            .collect(),
        edges: (0..8u64).map(|i| [i, (i + 1) % 8]).collect(),
        lines: Some(CustomLines::Declared(vec![vec![0, 1, 2, 3, 4, 5, 6, 7, 0]])),
        ..Default::default()
    };
    let m = Arc::new(ring.build().unwrap());
    let g = WayOfGoGame::from_position(m, WayOfGoRules::default(), &[(1, BLACK, 1)], BLACK).unwrap();
    let mut got = Vec::new();
    g.board().steps(1, 1, |s| got.push(s.to));
    got.sort();
    assert_eq!(got, [3, 7]);
}
