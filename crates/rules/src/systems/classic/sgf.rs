//! SGF `FF[4]` for two-player games on rectangular boards: import into a [`Record`], export from a
//! [`ClassicGame`]. Only the main line is read (the first variation at every branch).
//! Properties: `SZ KM RU HA AB AW PB PW RE DT PL`, moves `B W` (pass as `[]`, or `[tt]` on boards
//! up to 19×19).

use std::fmt::Write;

use gobeyond_maps::{Map, NodeId};

use super::sgf_tree;
pub use super::sgf_tree::export_record;
use crate::{
    ClassicRules, EndReason, Game, Player,
    record::{MapSource, PlayerInfo, Record, RulesSpec, SetupStone},
    systems::classic::{Action, ClassicGame, HandicapPlacement, MAX_HANDICAP},
};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SgfError {
    #[error("SGF syntax error at byte {offset}: {message}")]
    Syntax { offset: usize, message: String },
    #[error("SGF property {property}[{value}]: {message}")]
    Property { property: String, value: String, message: String },
    #[error("SGF export: {0}")]
    Export(String),
}

pub(super) type Node = Vec<(String, Vec<String>)>;

fn coord_char(c: u8) -> Option<u32> {
    match c {
        b'a'..=b'z' => Some((c - b'a') as u32),
        b'A'..=b'Z' => Some((c - b'A') as u32 + 26),
        _ => None,
    }
}

pub(super) fn char_of(v: u32) -> char {
    if v < 26 { (b'a' + v as u8) as char } else { (b'A' + (v - 26) as u8) as char }
}

/// An SGF point (`"dd"`) to a node; `None` for a pass.
pub(super) fn point(map: &Map, prop: &str, v: &str) -> Result<Option<NodeId>, SgfError> {
    let g = map.grid().ok_or_else(|| SgfError::Export("not a grid map".into()))?;
    let bad = |m: &str| SgfError::Property { property: prop.into(), value: v.into(), message: m.into() };
    if v.is_empty() || (v == "tt" && g.width <= 19 && g.height <= 19) {
        return Ok(None);
    }
    let bytes = v.as_bytes();
    if bytes.len() != 2 {
        return Err(bad("a point is two letters"));
    }
    let (x, y) = (
        coord_char(bytes[0]).ok_or_else(|| bad("bad letter"))?,
        coord_char(bytes[1]).ok_or_else(|| bad("bad letter"))?,
    );
    map.grid_node(x, y).map(Some).ok_or_else(|| bad("the point is off the board"))
}

/// Points of a setup list, expanding compressed rectangles (`aa:cc`).
fn points(map: &Map, prop: &str, values: &[String]) -> Result<Vec<NodeId>, SgfError> {
    let mut out = Vec::new();
    for v in values {
        if let Some((a, b)) = v.split_once(':') {
            let (Some(pa), Some(pb)) = (point(map, prop, a)?, point(map, prop, b)?) else { continue };
            let (Some((x1, y1)), Some((x2, y2))) = (map.grid_position(pa), map.grid_position(pb)) else {
                continue;
            };
            for y in y1.min(y2)..=y1.max(y2) {
                for x in x1.min(x2)..=x1.max(x2) {
                    out.extend(map.grid_node(x, y));
                }
            }
        } else if let Some(p) = point(map, prop, v)? {
            out.push(p);
        }
    }
    Ok(out)
}

/// How many of the game's first moves are free handicap stones (all of them once placed).
fn free_handicap_moves(game: &ClassicGame) -> usize {
    let rules = game.rules();
    if rules.handicap_placement != HandicapPlacement::Free || !game.setup().is_empty() {
        return 0;
    }
    let placed = game.moves().iter().take_while(|(p, a)| p.0 == 0 && a.node().is_some()).count();
    placed.min(rules.handicap as usize)
}

/// Reads an SGF game into a record (two players: Black is player 0): its main line (the first
/// variation at every branch) as the actions, the other branches as the record's variations and
/// the `C[]` comments as its comments (`sgf_tree`).
pub fn import(text: &str) -> Result<Record, SgfError> {
    let tree = sgf_tree::parse_tree(text)?;
    let main = sgf_tree::main_line(&tree);
    let root = &tree[0].props;
    let get = |name: &str| root.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let prop_err = |p: &str, v: &str, m: &str| SgfError::Property {
        property: p.into(),
        value: v.into(),
        message: m.into(),
    };
    if let Some(gm) = get("GM").filter(|gm| gm[0].trim() != "1") {
        return Err(prop_err("GM", &gm[0], "only Go (GM[1]) games can be read"));
    }
    let (w, h) = match get("SZ") {
        None => (19, 19),
        Some(v) => {
            let s = v[0].trim();
            let parse = |t: &str| t.trim().parse::<u32>().map_err(|_| prop_err("SZ", s, "not a board size"));
            match s.split_once(':') {
                Some((a, b)) => (parse(a)?, parse(b)?),
                None => {
                    let n = parse(s)?;
                    (n, n)
                }
            }
        }
    };
    if !(1..=52).contains(&w) || !(1..=52).contains(&h) || w * h < 2 {
        return Err(prop_err("SZ", &format!("{w}:{h}"), "board sizes are 1 to 52 (and at least 2 points)"));
    }
    let spec = if w == h { format!("square:{w}") } else { format!("rect:{w}x{h}") };
    let map = gobeyond_maps::generate(&spec).map_err(|e| SgfError::Export(e.to_string()))?;
    let mut rules = match get("RU").map(|v| v[0].to_ascii_lowercase()) {
        Some(r) if r.contains("japan") => ClassicRules::preset("japanese"),
        Some(r) if r.contains("korea") => ClassicRules::preset("korean"),
        Some(r) if r.contains("aga") => ClassicRules::preset("aga"),
        Some(r) if r.contains("nz") || r.contains("zealand") => ClassicRules::preset("new-zealand"),
        Some(r) if r.contains("tromp") => ClassicRules::preset("tromp-taylor"),
        _ => ClassicRules::preset("chinese"),
    }
    .unwrap_or_default();
    // An SGF game ends at its last node: it carries no dead-stone agreement to replay.
    rules.dead_stones = false;
    if let Some(km) = get("KM") {
        rules.komi = km[0].trim().parse::<f64>().map_err(|_| prop_err("KM", &km[0], "not a number"))?;
    }
    let name = |p: &str| PlayerInfo { name: get(p).map(|v| v[0].clone()).unwrap_or_default() };
    let mut record = Record::new(
        MapSource::Spec(spec),
        RulesSpec::of::<ClassicGame>(&rules),
        vec![name("PB"), name("PW")],
    );
    record.date = get("DT").map(|v| v[0].clone());
    // RO is free text ("3 (final)"): its leading number is the round.
    record.event = get("EV").map(|v| crate::record::RecordEvent {
        tournament: None,
        name: v[0].clone(),
        round: get("RO").and_then(|r| {
            let digits: String = r[0].trim().chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        }),
        table: None,
    });
    for (prop, player) in [("AB", 0u8), ("AW", 1u8)] {
        if let Some(v) = get(prop) {
            for node in points(&map, prop, &v)? {
                record.setup.push(SetupStone { player, node });
            }
        }
    }
    let handicap = get("HA").and_then(|v| v[0].trim().parse::<u32>().ok()).unwrap_or(0);
    // The handicap stones are the setup (AB); the setting says how many there were.
    if (2..=MAX_HANDICAP).contains(&handicap) && record.setup.len() == handicap as usize {
        rules.handicap = handicap;
        record.rules = RulesSpec::of::<ClassicGame>(&rules);
    }
    record.first = match get("PL").map(|v| v[0].trim().to_ascii_uppercase()) {
        Some(p) if p.starts_with('W') => Some(1),
        Some(_) => None,
        None if handicap >= 2 && !record.setup.is_empty() => Some(1),
        None => None,
    };
    // How many actions the main line has after each of its nodes: where its branches hang.
    let mut actions_after = Vec::with_capacity(main.len());
    for &i in &main {
        record.actions.extend(sgf_tree::moves_of(&map, &tree[i].props)?);
        actions_after.push(record.actions.len() as u32);
    }
    sgf_tree::read_branches(&tree, &main, &actions_after, &map, &mut record)?;
    Ok(record)
}

/// Writes a two-player game on a plain rectangular board as SGF.
pub fn export(game: &ClassicGame, players: &[PlayerInfo], date: Option<&str>) -> Result<String, SgfError> {
    export_with_result(game, players, date, None)
}

/// A two-player score as SGF's `RE` and GTP's `final_score` write it: `B+12`, `W+0.5`, or `0`
/// for a draw, from Black's score minus White's.
pub fn score_result(black_minus_white: f64) -> String {
    if black_minus_white > 0.0 {
        format!("B+{black_minus_white}")
    } else if black_minus_white < 0.0 {
        format!("W+{}", -black_minus_white)
    } else {
        "0".to_string()
    }
}

/// [`export`] with the result (`RE`, e.g. `"B+12"`) given by a referee instead of taken from the
/// game's own outcome: a game that ended by passes with dead stones on the board, or one stopped
/// at a move limit, is scored by whoever ran it.
pub fn export_with_result(
    game: &ClassicGame,
    players: &[PlayerInfo],
    date: Option<&str>,
    result: Option<&str>,
) -> Result<String, SgfError> {
    let main = export_main_line(game, players, date, result)?;
    let mut s = main.root;
    for (_, node) in &main.nodes {
        let _ = write!(s, "\n;{node}");
    }
    s.push_str(")\n");
    Ok(s)
}

/// A game's main line as SGF writes it, in pieces a writer of branches can place.
pub(super) struct MainLine {
    /// `(;GM[1]...`: the root node, unclosed.
    pub root: String,
    /// One per move written (`B[dd]`, without the `;`), with its index in the game's moves.
    pub nodes: Vec<(usize, String)>,
    /// How many of the first moves are free handicap stones, written in the root as `AB`.
    pub free: usize,
}

pub(super) fn export_main_line(
    game: &ClassicGame,
    players: &[PlayerInfo],
    date: Option<&str>,
    result: Option<&str>,
) -> Result<MainLine, SgfError> {
    let map = game.map();
    let g = map
        .grid()
        .filter(|g| g.plain && g.width <= 52 && g.height <= 52)
        .ok_or_else(|| SgfError::Export("SGF describes plain rectangular boards up to 52×52 only".into()))?;
    if game.player_count() != 2 {
        return Err(SgfError::Export("SGF describes two-player games only".into()));
    }
    let esc = |s: &str| s.replace('\\', "\\\\").replace(']', "\\]");
    let pt = |n: NodeId| {
        let (x, y) = map.grid_position(n).unwrap_or((0, 0));
        format!("{}{}", char_of(x), char_of(y))
    };
    let mut s = String::from("(;GM[1]FF[4]CA[UTF-8]AP[GoBeyond:");
    s.push_str(env!("CARGO_PKG_VERSION"));
    s.push(']');
    if g.width == g.height {
        let _ = write!(s, "SZ[{}]", g.width);
    } else {
        let _ = write!(s, "SZ[{}:{}]", g.width, g.height);
    }
    let rules = game.rules();
    let _ = write!(s, "KM[{}]", rules.komi);
    let ru = match (rules.scoring, rules.ko) {
        (crate::Scoring::Territory, _) => "Japanese",
        (_, crate::KoRule::SituationalSuperko) => "AGA",
        _ => "Chinese",
    };
    let _ = write!(s, "RU[{ru}]");
    let mut black_setup: Vec<NodeId> =
        game.setup().iter().filter(|(_, p)| p.0 == 0).map(|(n, _)| *n).collect();
    let white_setup: Vec<NodeId> = game.setup().iter().filter(|(_, p)| p.0 == 1).map(|(n, _)| *n).collect();
    // Free handicap stones are Black's first moves here; SGF writes them as setup (AB), with
    // White to move after them.
    let free = free_handicap_moves(game);
    black_setup.extend(game.moves()[..free].iter().filter_map(|(_, a)| a.node()));
    let handicap =
        black_setup.len() >= 2 && white_setup.is_empty() && (free > 0 || game.first_player() == Player(1));
    if handicap {
        let _ = write!(s, "HA[{}]", black_setup.len());
    }
    for (i, prop) in ["PB", "PW"].iter().enumerate() {
        if let Some(p) = players.get(i).filter(|p| !p.name.is_empty()) {
            let _ = write!(s, "{prop}[{}]", esc(&p.name));
        }
    }
    if let Some(d) = date {
        let _ = write!(s, "DT[{}]", esc(d));
    }
    if let Some(re) = result {
        let _ = write!(s, "RE[{}]", esc(re));
    } else if let Some(o) = game.outcome() {
        // SGF writes a jigo as `0`; otherwise as players read it (`W+8.5`, `B+R`, `W+T`).
        let re = match o.reason {
            EndReason::Resignation | EndReason::Time => super::notation(o, 2).unwrap_or_default(),
            _ => score_result(o.scores[0] - o.scores[1]),
        };
        let _ = write!(s, "RE[{re}]");
    }
    for (prop, list) in [("AB", &black_setup), ("AW", &white_setup)] {
        if !list.is_empty() {
            s.push_str(prop);
            for &n in list.iter() {
                let _ = write!(s, "[{}]", pt(n));
            }
        }
    }
    if game.first_player() == Player(1) && !handicap {
        s.push_str("PL[W]");
    }
    let mut nodes = Vec::new();
    for (index, &(p, a)) in game.moves().iter().enumerate().skip(free) {
        let c = if p.0 == 0 { 'B' } else { 'W' };
        match a {
            Action::Place(n) => nodes.push((index, format!("{c}[{}]", pt(n)))),
            Action::Pass => nodes.push((index, format!("{c}[]"))),
            Action::Resign => {}
        }
    }
    Ok(MainLine { root: s, nodes, free })
}
