//! SGF's game tree beyond the main line: the reader of the whole tree, the record's variations
//! and comments read from its branches and `C[]`, and the writer of a record with its review
//! tree (`docs/formats.md`, "SGF"). Iterative throughout: a branch thousands of moves deep
//! needs no deep stack.

use std::{collections::HashMap, fmt::Write, rc::Rc};

use gobeyond_maps::{Map, NodeId};

use super::sgf::{MainLine, Node, SgfError, char_of, export_main_line, point};
use crate::{
    AnyGame, Game, Player, RuleSystem,
    record::{Record, RecordedAction},
    system::resolve_node,
    systems::classic::{ClassicGame, Move},
    tree::{self, Comment, MAX_COMMENTS, MAX_VARIATIONS, NodeRef, VariationNode},
};

/// One SGF node and the nodes that follow it (its first child continues its line).
pub(super) struct TreeNode {
    pub props: Node,
    pub children: Vec<usize>,
}

/// The first game tree of `text`, its root at index 0. Text after that tree is ignored, and so
/// is a tree left unclosed at the end of the text.
pub(super) fn parse_tree(text: &str) -> Result<Vec<TreeNode>, SgfError> {
    let b = text.as_bytes();
    let syntax = |offset: usize, message: &str| SgfError::Syntax { offset, message: message.into() };
    let mut i = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    if i >= b.len() || b[i] != b'(' {
        return Err(syntax(i, "expected '(' at the start of a game tree"));
    }
    i += 1;
    let mut nodes: Vec<TreeNode> = Vec::new();
    // The node each open '(' hangs from: where a ')' goes back to.
    let mut open: Vec<Option<usize>> = vec![None];
    let mut current: Option<usize> = None;
    while i < b.len() {
        match b[i] {
            c if c.is_ascii_whitespace() => i += 1,
            b'(' => {
                open.push(current);
                i += 1;
            }
            b')' => {
                i += 1;
                current = open.pop().flatten();
                if open.is_empty() {
                    break;
                }
            }
            b';' => {
                let (props, next) = parse_node(text, i + 1)?;
                i = next;
                let index = nodes.len();
                nodes.push(TreeNode { props, children: Vec::new() });
                // A second sequence with nothing before it (`((;a)(;b))`) has no parent: unread.
                if let Some(parent) = current.and_then(|c| nodes.get_mut(c)) {
                    parent.children.push(index);
                }
                current = Some(index);
            }
            _ => return Err(syntax(i, "unexpected character")),
        }
    }
    if nodes.is_empty() {
        return Err(syntax(0, "no nodes in the game tree"));
    }
    Ok(nodes)
}

/// The properties of the node starting at byte `i` (after its `;`), and where it ends.
fn parse_node(text: &str, mut i: usize) -> Result<(Node, usize), SgfError> {
    let b = text.as_bytes();
    let syntax = |offset: usize, message: &str| SgfError::Syntax { offset, message: message.into() };
    let skip_ws = |i: &mut usize| {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    let mut node: Node = Vec::new();
    loop {
        skip_ws(&mut i);
        let start = i;
        while i < b.len() && b[i].is_ascii_alphabetic() {
            i += 1;
        }
        if i == start {
            return Ok((node, i));
        }
        // FF[3] allowed lower-case letters in names; only the capitals count.
        let ident: String = text[start..i].chars().filter(|c| c.is_ascii_uppercase()).collect();
        let mut values = Vec::new();
        loop {
            skip_ws(&mut i);
            if i >= b.len() || b[i] != b'[' {
                break;
            }
            i += 1;
            let mut v = Vec::new();
            loop {
                match b.get(i) {
                    None => return Err(syntax(i, "unterminated property value")),
                    Some(b'\\') if i + 1 < b.len() => {
                        v.push(b[i + 1]);
                        i += 2;
                    }
                    Some(b']') => {
                        i += 1;
                        break;
                    }
                    Some(&c) => {
                        v.push(c);
                        i += 1;
                    }
                }
            }
            values.push(String::from_utf8_lossy(&v).into_owned());
        }
        if values.is_empty() {
            return Err(syntax(i, &format!("property {ident} has no value")));
        }
        node.push((ident, values));
    }
}

/// The main line: the root and, from each node, its first child.
pub(super) fn main_line(tree: &[TreeNode]) -> Vec<usize> {
    let mut line = vec![0];
    let mut at = 0;
    while let Some(&next) = tree.get(at).and_then(|n| n.children.first()) {
        line.push(next);
        at = next;
    }
    line
}

/// The moves (`B`, `W`) of one node, in the order written.
pub(super) fn moves_of(map: &Map, props: &Node) -> Result<Vec<RecordedAction>, SgfError> {
    let mut out = Vec::new();
    for (k, v) in props {
        let player = match k.as_str() {
            "B" => 0,
            "W" => 1,
            _ => continue,
        };
        let input = match point(map, k, v[0].trim())? {
            Some(n) => Move::place(map, n),
            None => Move::Pass,
        };
        out.push(RecordedAction::new(Player(player), &input));
    }
    Ok(out)
}

/// Reads the branches off the main line as variations and every `C[]` as a comment (no
/// author: SGF names none). A node of a branch with no move is passed over (its comment goes to
/// the position before it); past [`MAX_VARIATIONS`] nodes or [`MAX_COMMENTS`] comments the rest
/// is left out, and so is every branch the rules refuse (with the branches below it).
pub(super) fn read_branches(
    tree: &[TreeNode],
    main: &[usize],
    actions_after: &[u32],
    map: &Map,
    record: &mut Record,
) -> Result<(), SgfError> {
    let comment = |record: &mut Record, node: NodeRef, props: &Node| {
        let texts = props.iter().filter(|(k, _)| k == "C").flat_map(|(_, v)| v.iter());
        for text in texts.filter(|t| !t.trim().is_empty()) {
            if record.comments.len() < MAX_COMMENTS {
                let id = record.comments.len() as u32 + 1;
                let c = Comment { id, node, author: String::new(), text: text.clone(), at_ms: 0 };
                record.comments.push(c);
            }
        }
    };
    // Branches to read: an SGF node and the position it follows.
    let mut pending: Vec<(usize, NodeRef)> = Vec::new();
    for (p, (&i, &after)) in main.iter().zip(actions_after).enumerate() {
        let here = NodeRef::At(after);
        comment(record, here, &tree[i].props);
        // A branch repeating the main line's next move carries variations from after that
        // move (how `export_record` writes those off the last move): they hang there.
        let next = main.get(p + 1).zip(actions_after.get(p + 1));
        let next_moves = match next {
            Some((&n, _)) => moves_of(map, &tree[n].props)?,
            None => Vec::new(),
        };
        for &c in tree[i].children.iter().skip(1) {
            match next {
                Some((_, &next_after))
                    if !next_moves.is_empty() && moves_of(map, &tree[c].props)? == next_moves =>
                {
                    comment(record, NodeRef::At(next_after), &tree[c].props);
                    pending.extend(tree[c].children.iter().map(|&k| (k, NodeRef::At(next_after))));
                }
                _ => pending.push((c, here)),
            }
        }
    }
    // Depth first, so that parents are written before their children.
    pending.reverse();
    while let Some((i, parent)) = pending.pop() {
        let mut here = parent;
        for action in moves_of(map, &tree[i].props)? {
            if record.variations.len() >= MAX_VARIATIONS {
                break;
            }
            let id = record.variations.len() as u32 + 1;
            let v =
                VariationNode { id, parent: here, player: action.player, input: action.input, author: None };
            record.variations.push(v);
            here = NodeRef::Var(id);
        }
        comment(record, here, &tree[i].props);
        pending.extend(tree[i].children.iter().rev().map(|&c| (c, here)));
    }
    keep_playable(record);
    Ok(())
}

/// Drops the variations the rules refuse (and those below them) and the comments on them.
fn keep_playable(record: &mut Record) {
    if record.variations.is_empty() {
        return;
    }
    let Ok(mut game) = record.new_game() else { return };
    let kids = tree::children(&record.variations);
    let mut kept = std::collections::HashSet::new();
    for k in 0..=record.actions.len() {
        if let Some(first) = kids.get(&NodeRef::At(k as u32)) {
            let start = Rc::new(game.clone());
            let mut pending: Vec<(Rc<AnyGame>, usize)> = first.iter().map(|&i| (start.clone(), i)).collect();
            while let Some((parent, i)) = pending.pop() {
                let v = &record.variations[i];
                let mut g = (*parent).clone();
                if g.submit(Player(v.player), &v.input).is_ok() {
                    kept.insert(v.id);
                    let g = Rc::new(g);
                    let below = kids.get(&NodeRef::Var(v.id)).into_iter().flatten();
                    pending.extend(below.map(|&c| (g.clone(), c)));
                }
            }
        }
        let Some(a) = record.actions.get(k) else { break };
        if game.submit(Player(a.player), &a.input).is_err() {
            break;
        }
    }
    record.variations.retain(|v| kept.contains(&v.id));
    record.comments.retain(|c| {
        matches!(c.node, NodeRef::At(_)) || matches!(c.node, NodeRef::Var(id) if kept.contains(&id))
    });
}

/// A place in the SGF being written: a main-line node (0: the root) or a variation (its index in
/// the record).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Item {
    Main(usize),
    Var(usize),
    /// The main line's last move again, as a branch off the move before: variations played from
    /// the game's last position hang below it. Written directly below the last move, SGF would
    /// read them as more of the main line.
    Again(usize),
}

enum Step {
    Open,
    Close,
    Write(Item),
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// SGF's `EV[name]` and `RO[round]` of a game's event.
pub(super) fn event_properties(event: &crate::record::RecordEvent) -> String {
    let mut s = format!("EV[{}]", escape(&event.name));
    if let Some(round) = event.round {
        s.push_str(&format!("RO[{round}]"));
    }
    s
}

/// A classic record as SGF with its review tree: each variation a branch after the node it was
/// played from, each node's comments one `C[]` ("author: text", a blank line between). A
/// variation SGF cannot write (an action other than a stone or a pass) is left out with the
/// branches below it, and so is one played from a position SGF has no node for (between free
/// handicap stones, or after a dead-stone marking); comments on those are left out too.
pub fn export_record(record: &Record) -> Result<String, SgfError> {
    let (game, moves_after) = replay_counting_moves(record)?;
    let mut main = export_main_line(&game, &record.players, record.date.as_deref(), None)?;
    if let Some(event) = &record.event {
        // The root node is still open: the event's properties join it.
        main.root.push_str(&event_properties(event));
    }
    let branches = Branches::of(record, &main, &moves_after, game.map());
    Ok(branches.write(main))
}

/// The record's game replayed, with the game's count of moves after each number of actions:
/// where each action's node is.
fn replay_counting_moves(record: &Record) -> Result<(ClassicGame, Vec<usize>), SgfError> {
    let not_classic = || SgfError::Export("SGF describes classic games only".into());
    let mut game = ClassicGame::try_from(record.new_game().map_err(|e| SgfError::Export(e.to_string()))?)
        .map_err(|_| not_classic())?;
    let mut moves_after = vec![game.moves().len()];
    for (index, a) in record.actions.iter().enumerate() {
        let input: Move = serde_json::from_value(serde_json::Value::Object(a.input.clone()))
            .map_err(|e| SgfError::Export(format!("action {index}: {e}")))?;
        game.submit(Player(a.player), &input)
            .map_err(|r| SgfError::Export(format!("action {index}: {}", r.message)))?;
        moves_after.push(game.moves().len());
    }
    Ok((game, moves_after))
}

/// Where a record's variations and comments go around its main line.
struct Branches {
    /// Each item's children, in order.
    kids: HashMap<Item, Vec<Item>>,
    /// The move of each variation SGF can write, by its index in the record.
    texts: HashMap<usize, String>,
    /// The comments of each item, each "author: text".
    notes: HashMap<Item, Vec<String>>,
}

impl Branches {
    fn of(record: &Record, main: &MainLine, moves_after: &[usize], map: &Map) -> Branches {
        let node_of_move: HashMap<usize, usize> =
            main.nodes.iter().enumerate().map(|(j, &(m, _))| (m, j + 1)).collect();
        // The node whose position follows action k exactly (branches hang only there)...
        let exact = |k: usize| -> Option<usize> {
            if k == 0 {
                return (main.free == 0).then_some(0);
            }
            let (before, after) = (*moves_after.get(k - 1)?, *moves_after.get(k)?);
            if after == before {
                return None;
            }
            if after == main.free {
                return Some(0);
            }
            node_of_move.get(&(after - 1)).copied()
        };
        // ...and the last node written by then (comments go there).
        let last_written = |k: usize| -> usize {
            let moves = moves_after.get(k).copied().unwrap_or(0);
            main.nodes.iter().take_while(|&&(m, _)| m < moves).count()
        };
        let mut kids: HashMap<Item, Vec<Item>> = HashMap::new();
        for j in 0..main.nodes.len() {
            kids.entry(Item::Main(j)).or_default().push(Item::Main(j + 1));
        }
        let mut texts: HashMap<usize, String> = HashMap::new();
        let mut var_item: HashMap<u32, Item> = HashMap::new();
        for (i, v) in record.variations.iter().enumerate() {
            let parent = match v.parent {
                NodeRef::At(k) => exact(k as usize).map(Item::Main),
                NodeRef::Var(id) => var_item.get(&id).copied(),
            };
            let (Some(parent), Some(text)) = (parent, variation_text(map, v)) else { continue };
            texts.insert(i, text);
            var_item.insert(v.id, Item::Var(i));
            kids.entry(parent).or_default().push(Item::Var(i));
        }
        // Variations from the last position hang below that move written again (`Item::Again`);
        // a game with no move written has none to repeat, and SGF no way to write them.
        let last = main.nodes.len();
        if let Some(after_last) = kids.remove(&Item::Main(last))
            && last > 0
        {
            kids.entry(Item::Main(last - 1)).or_default().push(Item::Again(last));
            kids.insert(Item::Again(last), after_last);
        }
        let mut notes: HashMap<Item, Vec<String>> = HashMap::new();
        for c in &record.comments {
            let item = match c.node {
                NodeRef::At(k) => Some(Item::Main(last_written(k as usize))),
                NodeRef::Var(id) => var_item.get(&id).copied(),
            };
            let note = if c.author.is_empty() { c.text.clone() } else { format!("{}: {}", c.author, c.text) };
            if let Some(item) = item {
                notes.entry(item).or_default().push(note);
            }
        }
        Branches { kids, texts, notes }
    }

    /// The SGF: the main line from its root, each node with its comments, branches in order.
    fn write(&self, main: MainLine) -> String {
        let mut s = main.root;
        let mut steps = vec![Step::Write(Item::Main(0))];
        while let Some(step) = steps.pop() {
            let item = match step {
                Step::Open => {
                    s.push_str("\n(");
                    continue;
                }
                Step::Close => {
                    s.push(')');
                    continue;
                }
                Step::Write(item) => item,
            };
            match item {
                Item::Main(0) => {}
                Item::Main(j) | Item::Again(j) => {
                    let _ = write!(s, "\n;{}", main.nodes.get(j - 1).map_or("", |(_, t)| t.as_str()));
                }
                Item::Var(i) => {
                    let _ = write!(s, "\n;{}", self.texts.get(&i).map_or("", |t| t.as_str()));
                }
            }
            if let Some(list) = self.notes.get(&item) {
                let _ = write!(s, "C[{}]", escape(&list.join("\n\n")));
            }
            match self.kids.get(&item).map(Vec::as_slice) {
                None | Some([]) => {}
                // A variation's first node starts a branch even alone: inline, it would read back
                // as more of the line above it.
                Some([only]) if !matches!((item, only), (Item::Main(_), Item::Var(_))) => {
                    steps.push(Step::Write(*only))
                }
                Some(list) => {
                    for &kid in list.iter().rev() {
                        steps.extend([Step::Close, Step::Write(kid), Step::Open]);
                    }
                }
            }
        }
        s.push_str(")\n");
        s
    }
}

/// A variation's move as SGF writes it (`B[dd]`, `W[]`), if it is a stone or a pass of one of
/// the two players.
fn variation_text(map: &Map, v: &VariationNode) -> Option<String> {
    let color = match v.player {
        0 => 'B',
        1 => 'W',
        _ => return None,
    };
    match serde_json::from_value::<Move>(serde_json::Value::Object(v.input.clone())).ok()? {
        Move::Place { node, at } => {
            let n: NodeId = resolve_node(map, node, at.as_deref()).ok()?;
            let (x, y) = map.grid_position(n)?;
            Some(format!("{color}[{}{}]", char_of(x), char_of(y)))
        }
        Move::Pass => Some(format!("{color}[]")),
        _ => None,
    }
}
