//! Life tables: the fewest stones that form an unconditionally alive group (Benson's
//! pass-alive: alive however many moves the opponent makes in a row, with no answer), at each
//! kind of place a map has — by the degree of its lowest-degree node: a square board's corner
//! (2), edge (3) and open (4); a hex board's; a Goldberg sphere's pentagons (5) against its
//! hexagons (6); a torus has only the open.
//!
//! The search is exhaustive within stated bounds. A pass-alive group's stones either border one
//! of its eyes (the small empty regions every point of which touches the chain) or connect
//! chains that do; so the search places eyes first — two or three regions of one or two points,
//! four points in all, within four steps of the place's anchor — which forces every stone
//! around them, then adds the fewest connecting stones that make every chain pass-alive
//! (iterative deepening over connected additions, bounded by the best group found). Every candidate is checked by
//! Benson's algorithm on the whole map.

use std::collections::HashSet;

use anyhow::{Result, bail};
use gobeyond_maps::{Map, NodeId};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct LifeRow {
    /// `corner`, `edge`, `open`, or `degree N`.
    pub location: String,
    /// The lowest degree among the group's nodes (stones and eyes).
    pub degree: usize,
    pub anchor: String,
    pub stones: Option<usize>,
    /// The group found: its stones and its eyes, by label.
    pub group: Vec<String>,
    pub eyes: Vec<String>,
    /// The group drawn (grid maps): `X` stones, `o` eyes, `.` empty.
    pub diagram: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct LifeReport {
    pub rules: String,
    pub map: String,
    pub method: String,
    /// Only groups of one chain were counted.
    pub one_chain: bool,
    pub rows: Vec<LifeRow>,
}

/// Eyes are placed within this many steps of the anchor.
const RADIUS: u32 = 4;

/// Whether every stone of `stones` is pass-alive (Benson), nothing else on the board.
pub fn pass_alive(map: &Map, stones: &[bool]) -> bool {
    let n = map.len();
    // Chains.
    let mut chain = vec![usize::MAX; n];
    let mut chains = 0;
    for s in 0..n {
        if stones[s] && chain[s] == usize::MAX {
            let mut stack = vec![s];
            chain[s] = chains;
            while let Some(x) = stack.pop() {
                for &y in map.neighbors(x as NodeId) {
                    let y = y as usize;
                    if stones[y] && chain[y] == usize::MAX {
                        chain[y] = chains;
                        stack.push(y);
                    }
                }
            }
            chains += 1;
        }
    }
    if chains == 0 {
        return false;
    }
    // Small empty regions next to the stones: their chains, and those each is vital to.
    let mut seen = vec![false; n];
    let mut regions: Vec<(Vec<usize>, Vec<usize>)> = Vec::new(); // (bordering chains, vital to)
    for s in 0..n {
        if !stones[s] {
            continue;
        }
        for &e in map.neighbors(s as NodeId) {
            let e = e as usize;
            if stones[e] || seen[e] {
                continue;
            }
            let mut points = vec![e];
            seen[e] = true;
            let mut i = 0;
            // Every region is walked whole: a big one is vital too when each of its points is
            // a liberty of one chain (Benson sets no size limit).
            while i < points.len() {
                for &y in map.neighbors(points[i] as NodeId) {
                    let y = y as usize;
                    if !stones[y] && !seen[y] {
                        seen[y] = true;
                        points.push(y);
                    }
                }
                i += 1;
            }
            let mut border: Vec<usize> = points
                .iter()
                .flat_map(|&p| map.neighbors(p as NodeId).iter().map(|&y| y as usize))
                .filter(|&y| stones[y])
                .map(|y| chain[y])
                .collect();
            border.sort_unstable();
            border.dedup();
            let vital: Vec<usize> = border
                .iter()
                .copied()
                .filter(|&c| {
                    points.iter().all(|&p| map.neighbors(p as NodeId).iter().any(|&y| chain[y as usize] == c))
                })
                .collect();
            regions.push((border, vital));
        }
    }
    benson(chains, &regions)
}

/// Benson's fixpoint over `chains` chains and the regions next to them, each given as (the
/// chains bordering it, the chains it is vital to): drop the chains with fewer than two vital
/// regions among those still standing, then the regions next to a dropped chain, until nothing
/// changes. Whether every chain stands.
pub(super) fn benson(chains: usize, regions: &[(Vec<usize>, Vec<usize>)]) -> bool {
    let mut alive = vec![true; chains];
    let mut region_alive = vec![true; regions.len()];
    loop {
        let mut changed = false;
        for (c, live) in alive.iter_mut().enumerate() {
            if *live {
                let vital =
                    regions.iter().zip(&region_alive).filter(|(r, a)| **a && r.1.contains(&c)).count();
                if vital < 2 {
                    *live = false;
                    changed = true;
                }
            }
        }
        for (r, (border, _)) in regions.iter().enumerate() {
            if region_alive[r] && border.iter().any(|&c| !alive[c]) {
                region_alive[r] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    alive.iter().all(|&a| a)
}

/// The best group found for one place.
struct Best {
    stones: Vec<usize>,
    eyes: Vec<usize>,
}

/// Connected sets of one or two nodes among `pool`: the eye regions tried.
fn eye_regions(map: &Map, pool: &[usize]) -> Vec<Vec<usize>> {
    let inside: HashSet<usize> = pool.iter().copied().collect();
    let mut out: Vec<Vec<usize>> = pool.iter().map(|&p| vec![p]).collect();
    for &p in pool {
        for &q in map.neighbors(p as NodeId) {
            let q = q as usize;
            if q > p && inside.contains(&q) {
                out.push(vec![p, q]);
            }
        }
    }
    out
}

/// The fewest stones of a pass-alive group whose nodes include `anchor` and have lowest degree
/// `degree`, fewer than `limit`.
fn search(map: &Map, anchor: usize, degree: usize, limit: usize, one_chain: bool) -> Option<Best> {
    let dist = map.distances_from(anchor as NodeId);
    let pool: Vec<usize> = (0..map.len()).filter(|&i| dist[i] <= RADIUS).collect();
    let regions = eye_regions(map, &pool);
    let adjacent = |a: &[usize], b: &[usize]| {
        a.iter().any(|&x| b.iter().any(|&y| x == y || map.are_adjacent(x as NodeId, y as NodeId)))
    };
    // Every eye set with the stones it forces, fewest forced first: the first groups found
    // bound the rest.
    let mut sets: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    let mut add = |eyes: Vec<usize>| {
        let mut forced: Vec<usize> = eyes
            .iter()
            .flat_map(|&p| map.neighbors(p as NodeId).iter().map(|&y| y as usize))
            .filter(|y| !eyes.contains(y))
            .collect();
        forced.sort_unstable();
        forced.dedup();
        if forced.len() < limit {
            sets.push((eyes, forced));
        }
    };
    for (i, a) in regions.iter().enumerate() {
        for (j, b) in regions.iter().enumerate().skip(i + 1) {
            if adjacent(a, b) {
                continue;
            }
            add(a.iter().chain(b).copied().collect());
            for c in regions.iter().skip(j + 1) {
                if a.len() + b.len() + c.len() <= 4 && !adjacent(a, c) && !adjacent(b, c) {
                    add(a.iter().chain(b).chain(c).copied().collect());
                }
            }
        }
    }
    sets.sort_by_key(|(_, forced)| forced.len());
    let mut best: Option<Best> = None;
    let mut bound = limit;
    for (eyes, forced) in &sets {
        if forced.len() >= bound {
            break;
        }
        // Connectors: not an eye, not next to one (those are forced already).
        let banned: HashSet<usize> = eyes.iter().chain(forced).copied().collect();
        let ok = |s: &[bool]| {
            let area: Vec<usize> = (0..map.len()).filter(|&i| s[i]).chain(eyes.iter().copied()).collect();
            area.contains(&anchor)
                && area.iter().map(|&i| map.degree(i as NodeId)).min() == Some(degree)
                && (!one_chain || connected(s, |x| map.neighbors(x as NodeId)))
                && pass_alive(map, s)
        };
        for extra in 0..(bound - forced.len()) {
            let mut stones = vec![false; map.len()];
            for &f in forced {
                stones[f] = true;
            }
            let mut seen = HashSet::new();
            if connect(map, &mut stones, &mut Vec::new(), extra, &banned, &ok, &mut seen) {
                let stones: Vec<usize> = (0..map.len()).filter(|&i| stones[i]).collect();
                bound = stones.len();
                best = Some(Best { stones, eyes: eyes.clone() });
                break;
            }
        }
    }
    best
}

/// Whether the stones form one chain, stones being linked to those in `linked(stone)` (the
/// map's neighbours in Go, the neighbour regions in Gengo).
pub(super) fn connected<'a>(stones: &[bool], linked: impl Fn(usize) -> &'a [NodeId]) -> bool {
    let Some(first) = stones.iter().position(|&s| s) else { return false };
    let mut seen = vec![false; stones.len()];
    seen[first] = true;
    let mut stack = vec![first];
    let mut count = 1;
    while let Some(x) = stack.pop() {
        for &y in linked(x) {
            let y = y as usize;
            if stones[y] && !seen[y] {
                seen[y] = true;
                count += 1;
                stack.push(y);
            }
        }
    }
    count == stones.iter().filter(|&&s| s).count()
}

/// Adds `extra` connecting stones, each next to a stone already there (a stone that is not
/// would be a chain without eyes), until `ok` holds; each set of connectors is tried once.
fn connect(
    map: &Map,
    stones: &mut [bool],
    chosen: &mut Vec<usize>,
    extra: usize,
    banned: &HashSet<usize>,
    ok: &dyn Fn(&[bool]) -> bool,
    seen: &mut HashSet<Vec<usize>>,
) -> bool {
    if extra == 0 {
        return ok(stones);
    }
    let mut candidates: Vec<usize> = (0..map.len())
        .filter(|&i| stones[i])
        .flat_map(|i| map.neighbors(i as NodeId).iter().map(|&y| y as usize))
        .filter(|&y| !stones[y] && !banned.contains(&y))
        .collect();
    candidates.sort_unstable();
    candidates.dedup();
    for c in candidates {
        chosen.push(c);
        let mut key = chosen.clone();
        key.sort_unstable();
        if seen.insert(key) {
            stones[c] = true;
            if connect(map, stones, chosen, extra - 1, banned, ok, seen) {
                return true;
            }
            stones[c] = false;
        }
        chosen.pop();
    }
    false
}

/// The node of degree `d` farthest from every node of lower degree: a corner, the middle of an
/// edge, the centre.
pub(super) fn anchor(map: &Map, d: usize) -> Option<usize> {
    let lower: Vec<usize> = (0..map.len()).filter(|&i| map.degree(i as NodeId) < d).collect();
    let mut far = vec![u32::MAX; map.len()];
    for &l in &lower {
        for (i, x) in map.distances_from(l as NodeId).into_iter().enumerate() {
            far[i] = far[i].min(x);
        }
    }
    (0..map.len()).filter(|&i| map.degree(i as NodeId) == d).max_by_key(|&i| (far[i], std::cmp::Reverse(i)))
}

pub(super) fn diagram(map: &Map, stones: &[usize], eyes: &[usize]) -> String {
    let cells: Vec<(usize, (u32, u32))> =
        stones.iter().chain(eyes).filter_map(|&i| Some((i, map.grid_position(i as NodeId)?))).collect();
    if cells.is_empty() {
        return String::new();
    }
    let (x0, x1) =
        (cells.iter().map(|c| c.1.0).min().unwrap_or(0), cells.iter().map(|c| c.1.0).max().unwrap_or(0));
    let (y0, y1) =
        (cells.iter().map(|c| c.1.1).min().unwrap_or(0), cells.iter().map(|c| c.1.1).max().unwrap_or(0));
    let mut out = String::new();
    // Grid row 0 is the board's top line.
    for y in y0.saturating_sub(1)..=y1 + 1 {
        for x in x0.saturating_sub(1)..=x1 + 1 {
            let ch = match map.grid_node(x, y).map(|n| n as usize) {
                Some(n) if stones.contains(&n) => 'X',
                Some(n) if eyes.contains(&n) => 'o',
                Some(_) => '.',
                None => ' ',
            };
            out.push(ch);
        }
        out.push('\n');
    }
    out
}

/// The kinds of place of a map, by node degree, lowest first: a grid's corner, edge and open,
/// elsewhere `degree N`.
pub(super) fn place_names(map: &Map) -> Vec<(usize, String)> {
    let mut degrees: Vec<usize> = map.nodes().map(|n| map.degree(n)).collect();
    degrees.sort_unstable();
    degrees.dedup();
    let grid = map.grid().is_some();
    let count = degrees.len();
    degrees
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            let name = match (grid, count, i) {
                (true, 3, 0) => "corner".into(),
                (true, 3, 1) => "edge".into(),
                (true, _, i) if i + 1 == count => "open".into(),
                _ => format!("degree {d}"),
            };
            (d, name)
        })
        .collect()
}

/// The life table of classic Go (Benson) on `map`: one row per kind of place, groups of fewer
/// than `limit` stones.
/// With `one_chain`, only groups made of one chain count.
pub fn table(spec: &str, map: &Map, limit: usize, one_chain: bool) -> Result<LifeReport> {
    if map.len() > 10_000 {
        bail!("life tables are computed on maps of at most 10,000 nodes");
    }
    let mut rows = Vec::new();
    for (d, location) in place_names(map) {
        let Some(a) = anchor(map, d) else { continue };
        let found = search(map, a, d, limit, one_chain);
        let (stones, eyes) = found.map_or((Vec::new(), Vec::new()), |b| (b.stones, b.eyes));
        let label =
            |v: &[usize]| -> Vec<String> { v.iter().map(|&i| map.label(i as NodeId).to_string()).collect() };
        rows.push(LifeRow {
            location,
            degree: d,
            anchor: map.label(a as NodeId).to_string(),
            stones: (!stones.is_empty()).then_some(stones.len()),
            group: label(&stones),
            eyes: label(&eyes),
            diagram: diagram(map, &stones, &eyes),
        });
    }
    Ok(LifeReport {
        rules: "classic".into(),
        map: spec.to_string(),
        method: format!(
            "Benson pass-alive{}; eyes: 2-3 regions of 1-2 points (4 in all) within {RADIUS} steps of the anchor; groups under {limit} stones",
            if one_chain { ", one chain" } else { "" }
        ),
        one_chain,
        rows,
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::lab) fn square(n: u32) -> Map {
        gobeyond_maps::generate(&format!("square:{n}")).unwrap()
    }

    pub(in crate::lab) fn set(map: &Map, labels: &[&str]) -> Vec<bool> {
        let mut s = vec![false; map.len()];
        for l in labels {
            s[map.node_by_label(l).unwrap() as usize] = true;
        }
        s
    }

    #[test]
    fn benson_tells_two_eyes_from_one() {
        let map = square(9);
        // Eyes at A1 and C1.
        let alive = set(&map, &["B1", "A2", "B2", "C2", "D2", "D1"]);
        assert!(pass_alive(&map, &alive));
        // One eye (A1) and a big inside: not pass-alive.
        let one = set(&map, &["B1", "A2", "B2", "C2", "D1"]);
        assert!(!pass_alive(&map, &one));
        // A lone stone.
        assert!(!pass_alive(&map, &set(&map, &["E5"])));
    }

    #[test]
    fn the_corner_of_a_square_board_needs_six_stones() {
        let map = square(11);
        let report = table("square:11", &map, 9, false).unwrap();
        let corner = report.rows.iter().find(|r| r.location == "corner").unwrap();
        assert_eq!(corner.stones, Some(6), "{corner:?}");
        // The group found is pass-alive and has no fewer-stone subset that is.
        let stones: Vec<&str> = corner.group.iter().map(String::as_str).collect();
        assert!(pass_alive(&map, &set(&map, &stones)));
    }
}
