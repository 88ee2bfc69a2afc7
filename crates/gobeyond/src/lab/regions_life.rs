//! Life tables for rule systems whose stones cover regions (Gengo, any region setting).
//!
//! **Pass-alive on regions** generalises Benson's algorithm; `docs/lab.md` gives the argument.
//! With the defender's stones fixed, call a space *free* when no stone of theirs overlaps it.
//! Two spaces are *related* when one lies in the other's overlap or neighbour region: only
//! related spaces can hold connected attackers, or a stone and a space it covers or counts as
//! a liberty. The free spaces fall into *regions* (components under that relation). A region
//! is *vital* to a defending group when every space of it is in the neighbour region of a
//! stone of the group (each is a liberty of the group while empty), and it *borders* a group
//! when a space the group's stones overlap is related to it. Then, as in Benson: drop every
//! group with fewer than two vital regions whose bordering groups all still stand, drop the
//! regions that border a dropped group, until nothing changes; the stones are pass-alive when
//! no group was dropped. With classic regions (overlap = the node, neighbours = the adjacent
//! nodes) this is exactly Benson's test, and a test checks that it agrees with [`super::life`].
//!
//! The search places *eyes* first — two regions of one or two related spaces within a few steps
//! of the place's anchor, not related to each other — and then every set of non-overlapping
//! stones that covers every space related to an eye without covering an eye (an exact
//! branch-and-bound over the stones that can cover the first uncovered space), adding
//! connecting stones (each in the neighbour region of one already there) where the cover is
//! not pass-alive on its own, fewest stones first, bounded by the best group found.

use std::collections::HashSet;

use anyhow::{Result, bail};
use gobeyond_maps::{Map, NodeId};
use gobeyond_rules::gengo::{RegionTables, Regions};

use super::life::{LifeReport, LifeRow, anchor, connected, diagram, place_names};

/// Eyes are placed within this many steps of the anchor.
const RADIUS: u32 = 4;
/// Search nodes of one place before it gives up (a custom region can make the cover search
/// explode; the report then says no group was found under the bound).
const BUDGET: u64 = 3_000_000;

/// Whether every stone of `stones` is pass-alive under the region rules of `t` (see the module
/// documentation), nothing else on the board.
pub fn pass_alive(t: &RegionTables, stones: &[bool]) -> bool {
    let n = t.len();
    let mut covered = vec![false; n];
    for s in (0..n).filter(|&s| stones[s]) {
        for &q in t.overlap(s as NodeId) {
            covered[q as usize] = true;
        }
    }
    // Groups: stones in each other's neighbour regions.
    let mut group = vec![usize::MAX; n];
    let mut groups = 0;
    for s in 0..n {
        if stones[s] && group[s] == usize::MAX {
            group[s] = groups;
            let mut stack = vec![s];
            while let Some(x) = stack.pop() {
                for &y in t.neighbours(x as NodeId) {
                    let y = y as usize;
                    if stones[y] && group[y] == usize::MAX {
                        group[y] = groups;
                        stack.push(y);
                    }
                }
            }
            groups += 1;
        }
    }
    if groups == 0 {
        return false;
    }
    let related =
        |x: usize| t.overlap(x as NodeId).iter().chain(t.neighbours(x as NodeId)).map(|&y| y as usize);
    // Regions of free spaces: (bordering groups, groups it is vital to).
    let mut seen = vec![false; n];
    let mut regions: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    for start in 0..n {
        if covered[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        let mut spaces = vec![start];
        let mut i = 0;
        while i < spaces.len() {
            let x = spaces[i];
            i += 1;
            for y in related(x) {
                if !covered[y] && !seen[y] {
                    seen[y] = true;
                    spaces.push(y);
                }
            }
        }
        let mut border: Vec<usize> = spaces
            .iter()
            .flat_map(|&x| related(x))
            .filter(|&q| covered[q])
            .flat_map(|q| t.overlap(q as NodeId).iter().map(|&s| s as usize))
            .filter(|&s| stones[s])
            .map(|s| group[s])
            .collect();
        border.sort_unstable();
        border.dedup();
        let vital: Vec<usize> = border
            .iter()
            .copied()
            .filter(|&g| {
                spaces.iter().all(|&x| t.neighbours(x as NodeId).iter().any(|&s| group[s as usize] == g))
            })
            .collect();
        if !border.is_empty() {
            regions.push((border, vital));
        }
    }
    super::life::benson(groups, &regions)
}

fn related(t: &RegionTables, a: usize, b: usize) -> bool {
    t.overlap(a as NodeId).contains(&(b as NodeId)) || t.neighbours(a as NodeId).contains(&(b as NodeId))
}

/// One place's search.
struct Search<'a> {
    t: &'a RegionTables,
    map: &'a Map,
    anchor: usize,
    degree: usize,
    /// In the open, the first eye holds the anchor (every group can be moved there).
    anchor_in_eye: bool,
    one_chain: bool,
    best: Option<(Vec<usize>, Vec<usize>)>,
    /// Groups must have fewer stones than this.
    bound: usize,
    nodes: u64,
}

impl Search<'_> {
    fn run(&mut self) {
        let dist = self.map.distances_from(self.anchor as NodeId);
        let pool: Vec<usize> = (0..self.map.len()).filter(|&i| dist[i] <= RADIUS).collect();
        let mut eyes: Vec<Vec<usize>> = pool.iter().map(|&p| vec![p]).collect();
        for (i, &p) in pool.iter().enumerate() {
            for &q in &pool[i + 1..] {
                if related(self.t, p, q) {
                    eyes.push(vec![p, q]);
                }
            }
        }
        let mut sets: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
        for (i, a) in eyes.iter().enumerate() {
            if self.anchor_in_eye && !a.contains(&self.anchor) {
                continue;
            }
            for (j, b) in eyes.iter().enumerate() {
                if (!self.anchor_in_eye && j <= i)
                    || a.iter().any(|&x| b.iter().any(|&y| x == y || related(self.t, x, y)))
                {
                    continue;
                }
                let e: Vec<usize> = a.iter().chain(b).copied().collect();
                let mut must: Vec<usize> = e
                    .iter()
                    .flat_map(|&x| {
                        self.t
                            .overlap(x as NodeId)
                            .iter()
                            .chain(self.t.neighbours(x as NodeId))
                            .map(|&y| y as usize)
                    })
                    .filter(|y| !e.contains(y))
                    .collect();
                must.sort_unstable();
                must.dedup();
                sets.push((e, must));
            }
        }
        // Fewest spaces to cover first: small groups are found early and bound the rest.
        sets.sort_by_key(|(_, m)| m.len());
        for (eyes, must) in &sets {
            if self.nodes > BUDGET {
                break;
            }
            let mut stones = vec![false; self.map.len()];
            let mut cover = vec![0u16; self.map.len()];
            self.cover(eyes, must, &mut stones, &mut cover, &mut Vec::new());
        }
    }

    /// Whether `c` can hold a stone next to `chosen` without covering an eye.
    fn placeable(&self, c: usize, eyes: &[usize], stones: &[bool], cover: &[u16]) -> bool {
        !stones[c]
            && cover[c] == 0
            && !self
                .t
                .overlap(c as NodeId)
                .iter()
                .any(|&q| eyes.contains(&(q as usize)) || stones[q as usize])
    }

    fn put(&self, c: usize, stones: &mut [bool], cover: &mut [u16], on: bool) {
        stones[c] = on;
        for &q in self.t.overlap(c as NodeId) {
            if on {
                cover[q as usize] += 1;
            } else {
                cover[q as usize] -= 1;
            }
        }
    }

    fn cover(
        &mut self,
        eyes: &[usize],
        must: &[usize],
        stones: &mut [bool],
        cover: &mut [u16],
        chosen: &mut Vec<usize>,
    ) {
        self.nodes += 1;
        if chosen.len() >= self.bound || self.nodes > BUDGET {
            return;
        }
        let Some(&m) = must.iter().find(|&&m| cover[m] == 0) else {
            // Every related space covered: pass-alive as it is, or with connectors.
            for extra in 0..(self.bound - chosen.len()) {
                let mut tried = HashSet::new();
                if self.connect(eyes, stones, cover, chosen, extra, &mut tried) {
                    return;
                }
            }
            return;
        };
        if chosen.len() + 1 >= self.bound {
            return;
        }
        // The stones that would cover `m`: those in its overlap (regions are symmetric).
        let candidates: Vec<usize> = self
            .t
            .overlap(m as NodeId)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| self.placeable(c, eyes, stones, cover))
            .collect();
        for c in candidates {
            self.put(c, stones, cover, true);
            chosen.push(c);
            self.cover(eyes, must, stones, cover, chosen);
            chosen.pop();
            self.put(c, stones, cover, false);
        }
    }

    fn connect(
        &mut self,
        eyes: &[usize],
        stones: &mut [bool],
        cover: &mut [u16],
        chosen: &mut Vec<usize>,
        extra: usize,
        tried: &mut HashSet<Vec<usize>>,
    ) -> bool {
        self.nodes += 1;
        if extra == 0 {
            if self.accept(eyes, stones) {
                let mut group = chosen.clone();
                group.sort_unstable();
                self.bound = group.len();
                self.best = Some((group, eyes.to_vec()));
                return true;
            }
            return false;
        }
        let mut candidates: Vec<usize> = chosen
            .iter()
            .flat_map(|&s| self.t.neighbours(s as NodeId).iter().map(|&y| y as usize))
            .filter(|&c| self.placeable(c, eyes, stones, cover))
            .collect();
        candidates.sort_unstable();
        candidates.dedup();
        for c in candidates {
            chosen.push(c);
            let mut key = chosen.clone();
            key.sort_unstable();
            if tried.insert(key) {
                self.put(c, stones, cover, true);
                let found = self.connect(eyes, stones, cover, chosen, extra - 1, tried);
                self.put(c, stones, cover, false);
                if found {
                    chosen.pop();
                    return true;
                }
            }
            chosen.pop();
        }
        false
    }

    /// Pass-alive, at the right kind of place, and one group when asked.
    fn accept(&self, eyes: &[usize], stones: &[bool]) -> bool {
        let area = (0..self.map.len()).filter(|&i| stones[i]).chain(eyes.iter().copied());
        let lowest = area.clone().map(|i| self.map.degree(i as NodeId)).min();
        lowest == Some(self.degree)
            && area.clone().any(|i| i == self.anchor || self.map.degree(i as NodeId) == self.degree)
            && (!self.one_chain || connected(stones, |x| self.t.neighbours(x as NodeId)))
            && pass_alive(self.t, stones)
    }
}

/// The life table of Gengo with `regions` on `map`: one row per kind of place, groups of fewer
/// than `limit` stones.
pub fn table(spec: &str, map: &Map, regions: &Regions, limit: usize, one_chain: bool) -> Result<LifeReport> {
    if map.len() > 10_000 {
        bail!("life tables are computed on maps of at most 10,000 nodes");
    }
    let t = RegionTables::new(map, regions).map_err(|e| anyhow::anyhow!("{e}"))?;
    let names = place_names(map);
    let mut rows = Vec::new();
    let highest = names.last().map(|(d, _)| *d);
    for (d, location) in &names {
        let Some(a) = anchor(map, *d) else { continue };
        let mut s = Search {
            t: &t,
            map,
            anchor: a,
            degree: *d,
            anchor_in_eye: Some(*d) == highest && names.len() > 1,
            one_chain,
            best: None,
            bound: limit,
            nodes: 0,
        };
        s.run();
        let exhausted = s.nodes > BUDGET;
        let (stones, eyes) = s.best.unwrap_or_default();
        let label =
            |v: &[usize]| -> Vec<String> { v.iter().map(|&i| map.label(i as NodeId).to_string()).collect() };
        rows.push(LifeRow {
            location: if exhausted {
                format!("{location} (search budget spent: an upper bound)")
            } else {
                location.clone()
            },
            degree: *d,
            anchor: map.label(a as NodeId).to_string(),
            stones: (!stones.is_empty()).then_some(stones.len()),
            group: label(&stones),
            eyes: label(&eyes),
            diagram: diagram(map, &stones, &eyes),
        });
    }
    Ok(LifeReport {
        rules: "gengo".into(),
        map: spec.to_string(),
        method: format!(
            "pass-alive on regions ({}); eyes: two regions of 1-2 related spaces within {RADIUS} steps of the anchor; groups under {limit} stones",
            serde_json::to_string(regions).unwrap_or_default(),
        ) + if one_chain { "; one group" } else { "" },
        one_chain,
        rows,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use gobeyond_rules::Rng;

    use super::*;
    use crate::lab::life::tests::{set, square};

    /// With classic regions the region test is Benson's: both agree on random stone sets
    /// (dense enough to make eyes) and on the textbook cases.
    #[test]
    fn with_classic_regions_it_is_benson() {
        let map = square(7);
        let t = RegionTables::new(&map, &Regions::Classic).unwrap();
        let alive = set(&map, &["B1", "A2", "B2", "C2", "D2", "D1"]);
        assert!(pass_alive(&t, &alive));
        assert!(!pass_alive(&t, &set(&map, &["B1", "A2", "B2", "C2", "D1"])));
        // A chain with a one-point eye and a twelve-point region all of whose points are its
        // liberties: pass-alive (Benson sets no size limit on vital regions; the Go test once
        // skipped regions over eight points, and this differential test found it).
        let rows = ["X...XXX", "XXX...X", ".XXX.XX", ".XXX.X.", ".XX..XX", ".XX..XX", "..XXXXX"];
        let big: Vec<bool> = rows.iter().flat_map(|r| r.chars().map(|c| c == 'X')).collect();
        assert!(pass_alive(&t, &big) && super::super::life::pass_alive(&map, &big));
        let mut rng = Rng::new(7);
        let mut agreed_alive = 0;
        for _ in 0..20_000 {
            let density = 40 + rng.below(40);
            let stones: Vec<bool> = (0..map.len()).map(|_| rng.below(100) < density).collect();
            let benson = super::super::life::pass_alive(&map, &stones);
            assert_eq!(pass_alive(&t, &stones), benson, "{stones:?}");
            agreed_alive += u32::from(benson);
        }
        assert!(agreed_alive > 100, "the sample holds living positions: {agreed_alive}");
    }

    /// Gengo's default regions: a stone in the corner space's overlap-free ring lives only with
    /// two eyes that the attacker cannot cover, and the corner group found is pass-alive, while
    /// taking any one of its stones away kills it.
    #[test]
    fn gengo_corner_groups_are_minimal_and_alive() {
        let map = square(13);
        let report = table("square:13", &map, &Regions::Default, 7, false).unwrap();
        let t = RegionTables::new(&map, &Regions::Default).unwrap();
        let corner = report.rows.iter().find(|r| r.location == "corner").unwrap();
        let stones: Vec<&str> = corner.group.iter().map(String::as_str).collect();
        assert!(!stones.is_empty(), "{corner:?}");
        assert!(pass_alive(&t, &set(&map, &stones)), "{corner:?}");
        for i in 0..stones.len() {
            let fewer: Vec<&str> =
                stones.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, s)| *s).collect();
            assert!(!pass_alive(&t, &set(&map, &fewer)), "{fewer:?}");
        }
        // A lone stone, and two far apart, are not alive.
        assert!(!pass_alive(&t, &set(&map, &["G7"])));
        assert!(!pass_alive(&t, &set(&map, &["C3", "K10"])));
    }
}
