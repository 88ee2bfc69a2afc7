//! Record version 2: the review tree (variations and comments) read, written, replayed and
//! bounded; version 1 records still read; move numbers of a played game.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use gobeyond_rules::{
    record::{Record, RecordError, VERSION},
    tree::{self, Comment, MAX_VARIATIONS, NodeRef, TreeError, VariationNode},
};
use serde_json::json;

/// A classic game on hex:7 written as version 1, ended by passes and dead-stone marking.
const CLASSIC_V1: &str = include_str!("../../../data/patterns/bot-hex7/game-005.json");

fn place(id: u32, parent: NodeRef, player: u8, node: u32) -> VariationNode {
    let input = json!({"type": "place", "node": node});
    VariationNode { id, parent, player, input: input.as_object().unwrap().clone(), author: None }
}

#[test]
fn a_version_1_record_reads_and_is_written_as_version_2() {
    assert!(CLASSIC_V1.contains("\"version\": 1"));
    let r = Record::from_json(CLASSIC_V1).unwrap();
    assert!(r.replay().unwrap().outcome().is_some());
    let again = Record::from_json(&r.to_json()).unwrap();
    assert_eq!(again.version, VERSION);
    assert_eq!(again.actions, r.actions);
}

#[test]
fn variations_and_comments_round_trip_and_replay() {
    let mut r = Record::from_json(CLASSIC_V1).unwrap();
    // Off the start, off the sixth position, and one below a variation.
    r.variations =
        vec![place(1, NodeRef::At(0), 0, 0), place(2, NodeRef::At(6), 0, 1), place(3, NodeRef::Var(1), 1, 2)];
    r.comments = vec![
        Comment { id: 1, node: NodeRef::At(3), author: "alice".into(), text: "why here?".into(), at_ms: 5 },
        Comment { id: 2, node: NodeRef::Var(3), author: "bob".into(), text: "better".into(), at_ms: 6 },
    ];
    let text = r.to_json();
    assert!(text.contains("\"var\": 1"), "{text}");
    let back = Record::from_json(&text).unwrap();
    assert_eq!(back, r);
    back.replay().unwrap();
}

#[test]
fn an_illegal_variation_is_named_with_the_engines_reason() {
    let mut r = Record::from_json(CLASSIC_V1).unwrap();
    r.variations = vec![place(1, NodeRef::At(0), 0, 0), place(7, NodeRef::Var(1), 1, 0)];
    let e = Record::from_json(&r.to_json()).unwrap().replay().unwrap_err();
    match &e {
        RecordError::Tree(TreeError::Variation { id: 7, reason }) => assert!(!reason.is_empty()),
        other => panic!("{other:?}"),
    }
    assert!(e.to_string().starts_with("variation 7: "), "{e}");
}

#[test]
fn a_tree_of_a_hundred_thousand_nodes_is_refused_as_too_big() {
    let mut r = Record::from_json(CLASSIC_V1).unwrap();
    r.variations = (1..=100_000).map(|id| place(id, NodeRef::At(0), 0, id % 100)).collect();
    let e = Record::from_json(&r.to_json()).unwrap_err();
    assert!(e.to_string().contains("too big"), "{e}");
    assert!(e.to_string().contains(&MAX_VARIATIONS.to_string()), "{e}");
}

#[test]
fn a_tree_whose_nodes_do_not_fit_is_refused() {
    let base = Record::from_json(CLASSIC_V1).unwrap();
    let too_far = base.actions.len() as u32 + 1;
    for (variations, comments, wanted) in [
        (vec![place(1, NodeRef::Var(2), 0, 0), place(2, NodeRef::At(0), 0, 1)], vec![], "parent"),
        (vec![place(1, NodeRef::At(too_far), 0, 0)], vec![], "parent"),
        (vec![place(0, NodeRef::At(0), 0, 0)], vec![], "unique"),
        (vec![place(1, NodeRef::At(0), 0, 0), place(1, NodeRef::At(0), 0, 1)], vec![], "unique"),
        (
            vec![],
            vec![Comment { id: 1, node: NodeRef::Var(9), author: "a".into(), text: "x".into(), at_ms: 0 }],
            "node",
        ),
    ] {
        let r = Record { variations, comments, ..base.clone() };
        let e = Record::from_json(&r.to_json()).unwrap_err();
        assert!(e.to_string().contains(wanted), "{e}");
    }
}

#[test]
fn classic_moves_are_numbered_and_dead_stone_marking_is_not() {
    let r = Record::from_json(CLASSIC_V1).unwrap();
    let actions: Vec<(u8, &gobeyond_rules::registry::Object)> =
        r.actions.iter().map(|a| (a.player, &a.input)).collect();
    let (numbers, counters) = tree::number_moves(r.new_game().unwrap(), &actions);
    assert_eq!(counters.len(), actions.len() + 1);
    let mut expected = 0;
    for (a, n) in r.actions.iter().zip(&numbers) {
        if matches!(a.kind(), "place" | "pass") {
            expected += 1;
            assert_eq!(*n, Some(expected), "{a:?}");
        } else {
            assert_eq!(*n, None, "marking and accepting are no moves: {a:?}");
        }
    }
    assert!(numbers.iter().any(Option::is_none));
}
