//! SGF with the review tree: a record's variations written as branches and its comments as
//! `C[]`, read back by the same reader `gobeyond analyze` and `replay` use.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeSet, HashMap};

use gobeyond_rules::{
    record::Record,
    sgf,
    tree::{Comment, NodeRef, VariationNode},
};
use serde_json::json;

const MAIN: &str = "(;GM[1]FF[4]SZ[9]KM[7]PB[alice]PW[bob];B[cc];W[gg];B[cg];W[gc])";

fn node(x: u32, y: u32) -> u64 {
    gobeyond_maps::generate("square:9").unwrap().grid_node(x, y).unwrap() as u64
}

fn stone(id: u32, parent: NodeRef, player: u8, x: u32, y: u32) -> VariationNode {
    let input = json!({"type": "place", "node": node(x, y)});
    VariationNode { id, parent, player, input: input.as_object().unwrap().clone(), author: None }
}

fn comment(id: u32, node: NodeRef, author: &str, text: &str) -> Comment {
    Comment { id, node, author: author.into(), text: text.into(), at_ms: 1 }
}

/// Each variation node as the main-line position it starts from and the moves (seat, type,
/// node) leading to it: the same whatever ids a writer or reader gives.
type Path = (u32, Vec<(u8, String, Option<u64>)>);

fn paths(r: &Record) -> HashMap<u32, Path> {
    let mut out: HashMap<u32, Path> = HashMap::new();
    for v in &r.variations {
        let step = (v.player, v.input["type"].as_str().unwrap().to_string(), v.input["node"].as_u64());
        let path = match v.parent {
            NodeRef::At(k) => (k, vec![step]),
            NodeRef::Var(p) => {
                let (k, mut moves) = out[&p].clone();
                moves.push(step);
                (k, moves)
            }
        };
        out.insert(v.id, path);
    }
    out
}

fn comments(r: &Record) -> BTreeSet<(Path, String)> {
    let p = paths(r);
    r.comments
        .iter()
        .map(|c| {
            let at = match c.node {
                NodeRef::At(k) => (k, Vec::new()),
                NodeRef::Var(id) => p[&id].clone(),
            };
            (at, c.text.clone())
        })
        .collect()
}

#[test]
fn variations_and_comments_go_to_sgf_and_come_back() {
    let mut r = sgf::import(MAIN).unwrap();
    // Off the start, off the second move with a branch nested below it, off the last move.
    r.variations = vec![
        stone(1, NodeRef::At(2), 0, 4, 4),
        stone(2, NodeRef::Var(1), 1, 5, 5),
        stone(3, NodeRef::Var(1), 1, 3, 3),
        stone(4, NodeRef::Var(3), 0, 5, 3),
        stone(5, NodeRef::At(0), 0, 4, 4),
        stone(6, NodeRef::At(4), 0, 1, 1),
    ];
    r.comments = vec![
        comment(1, NodeRef::At(2), "alice", "why ] not \\ here?"),
        comment(2, NodeRef::At(2), "bob", "fine"),
        comment(3, NodeRef::Var(3), "carol", "better"),
        comment(4, NodeRef::At(0), "dave", "a quiet start"),
    ];
    r.replay().unwrap();
    let text = sgf::export_record(&r).unwrap();
    assert!(text.contains("C[alice: why \\] not \\\\ here?\n\nbob: fine]"), "{text}");
    assert!(text.contains("(;"), "{text}");

    let back = sgf::import(&text).unwrap();
    back.replay().unwrap();
    assert_eq!(back.actions, r.actions, "{text}");
    let (want, got) = (paths(&r), paths(&back));
    assert_eq!(want.values().collect::<BTreeSet<_>>(), got.values().collect::<BTreeSet<_>>(), "{text}");
    let texts = |r: &Record| -> BTreeSet<(Path, String)> {
        // Written with their authors, several on one node joined: compare as written.
        let mut joined: HashMap<Path, Vec<String>> = HashMap::new();
        let p = paths(r);
        for c in &r.comments {
            let at = match c.node {
                NodeRef::At(k) => (k, Vec::new()),
                NodeRef::Var(id) => p[&id].clone(),
            };
            let note = if c.author.is_empty() { c.text.clone() } else { format!("{}: {}", c.author, c.text) };
            joined.entry(at).or_default().push(note);
        }
        joined.into_iter().map(|(at, notes)| (at, notes.join("\n\n"))).collect()
    };
    assert_eq!(texts(&r), comments(&back), "{text}");

    // Written again, the same SGF: nothing is lost or moved on the way.
    assert_eq!(sgf::export_record(&back).unwrap(), text);
}

#[test]
fn a_variation_sgf_cannot_write_is_left_out_with_its_branch() {
    let mut r = sgf::import(MAIN).unwrap();
    let resign = json!({"type": "resign"}).as_object().unwrap().clone();
    r.variations = vec![
        VariationNode { id: 1, parent: NodeRef::At(1), player: 1, input: resign, author: None },
        stone(2, NodeRef::At(1), 1, 4, 4),
    ];
    r.comments = vec![comment(1, NodeRef::Var(1), "eve", "gone")];
    let text = sgf::export_record(&r).unwrap();
    assert!(!text.contains("gone"), "{text}");
    let back = sgf::import(&text).unwrap();
    assert_eq!(paths(&back).len(), 1, "{text}");
}

#[test]
fn a_branch_the_rules_refuse_is_left_out_when_read() {
    // White's branch plays on Black's stone at cc.
    let text = "(;GM[1]SZ[9];B[cc](;W[dd];B[ee])(;W[cc];B[ff]));";
    let r = sgf::import(text).unwrap();
    assert_eq!(r.actions.len(), 3);
    assert!(r.variations.is_empty(), "{:?}", r.variations);
    r.replay().unwrap();
}

#[test]
fn a_deep_branch_needs_no_deep_stack() {
    // Fifty thousand nested '(' and nodes: read iteratively.
    let mut text = String::from("(;GM[1]SZ[19];B[aa]");
    for _ in 0..50_000 {
        text.push_str("(;C[x]");
    }
    text.push(')');
    let r = sgf::import(&text).unwrap();
    assert_eq!(r.actions.len(), 1);
}
