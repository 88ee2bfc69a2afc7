//! The region tables: for every space, its overlap region, its neighbour region, and the
//! spaces whose stones a placement there can touch — built once per (map, regions) as flat
//! arrays, so that play never allocates.
//!
//! On a plain rectangular grid, offset regions are applied to the grid coordinates and clipped at
//! the edges. Everywhere else regions come from the graph (`docs/rules/spec/gengo.md`, section 3):
//! G⁺ is the map graph plus its diagonals ([`PlayoutTables`]); the overlap of `p` is the G⁺-ball of
//! radius `overlap_radius`, and its neighbours the nodes farther than that but within
//! `neighbour_radius` G⁺-steps and `max_graph_distance` plain steps. With radii 1, 2 and distance 3
//! that is exactly the document's 3×3 block and 5×5 ring without corners on square grids (a test
//! compares them node by node).

use std::collections::VecDeque;

use gobeyond_maps::{Map, NodeId};

use super::settings::Regions;
use crate::{playout::PlayoutTables, system::SettingsError};

/// Offsets a custom region may use, and how many: enough for any design, bounded for memory.
pub const MAX_OFFSET: i32 = 8;
pub const MAX_OFFSETS: usize = 160;
/// Radii of graph regions.
pub const MAX_RADIUS: u32 = 6;

/// Per-space lists in compressed rows.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Rows {
    start: Vec<u32>,
    items: Vec<NodeId>,
}

impl Rows {
    fn build(n: usize, mut row: impl FnMut(NodeId, &mut Vec<NodeId>)) -> Rows {
        let mut start = Vec::with_capacity(n + 1);
        let mut items = Vec::new();
        let mut buf = Vec::new();
        start.push(0);
        for p in 0..n as NodeId {
            buf.clear();
            row(p, &mut buf);
            buf.sort_unstable();
            buf.dedup();
            items.extend_from_slice(&buf);
            start.push(items.len() as u32);
        }
        Rows { start, items }
    }

    #[inline]
    fn row(&self, p: NodeId) -> &[NodeId] {
        &self.items[self.start[p as usize] as usize..self.start[p as usize + 1] as usize]
    }
}

/// The regions of every space of one map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegionTables {
    overlap: Rows,
    neighbour: Rows,
    /// Stones whose liberties or connections a placement on `p` may change: the neighbours of
    /// every space of its overlap, and the overlap itself.
    reach: Rows,
}

impl RegionTables {
    /// The tables of `regions` on `map`, or why they cannot be built there.
    pub fn new(map: &Map, regions: &Regions) -> Result<RegionTables, SettingsError> {
        let n = map.len();
        let (overlap, neighbour) = match regions {
            Regions::Classic => (
                Rows::build(n, |p, out| out.push(p)),
                Rows::build(n, |p, out| out.extend_from_slice(map.neighbors(p))),
            ),
            Regions::Default => graph_regions(map, 1, 2, 3),
            &Regions::Graph { overlap_radius, neighbour_radius, max_graph_distance } => {
                graph_regions(map, overlap_radius, neighbour_radius, max_graph_distance)
            }
            Regions::Offsets { overlap, neighbour } => {
                let grid = map.grid().filter(|g| g.plain).ok_or_else(|| {
                    SettingsError::new(
                        "regions",
                        format!(
                            "offset regions need a rectangular grid map, and {} is not one: use \
                             \"default\" or \"graph\" regions there",
                            map.spec()
                        ),
                    )
                })?;
                let apply = |offsets: &[[i32; 2]]| {
                    Rows::build(n, |p, out| {
                        let x = (p % grid.width) as i64;
                        let y = (p / grid.width) as i64;
                        for &[dx, dy] in offsets {
                            // Rows are numbered from the top; offsets count rows up.
                            let (qx, qy) = (x + dx as i64, y - dy as i64);
                            if (0..grid.width as i64).contains(&qx) && (0..grid.height as i64).contains(&qy) {
                                out.push((qy * grid.width as i64 + qx) as NodeId);
                            }
                        }
                    })
                };
                (apply(overlap), apply(neighbour))
            }
        };
        let reach = Rows::build(n, |p, out| {
            out.extend_from_slice(overlap.row(p));
            for &q in overlap.row(p) {
                out.extend_from_slice(neighbour.row(q));
            }
        });
        Ok(RegionTables { overlap, neighbour, reach })
    }

    pub fn len(&self) -> usize {
        self.overlap.start.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The spaces a stone on `p` overlaps (its own space included), sorted.
    #[inline]
    pub fn overlap(&self, p: NodeId) -> &[NodeId] {
        self.overlap.row(p)
    }

    /// The spaces in which stones are `p`'s neighbours, sorted.
    #[inline]
    pub fn neighbours(&self, p: NodeId) -> &[NodeId] {
        self.neighbour.row(p)
    }

    /// The spaces whose stones a placement on `p` may affect, sorted.
    #[inline]
    pub fn reach(&self, p: NodeId) -> &[NodeId] {
        self.reach.row(p)
    }
}

/// Checks a region setting on its own (the map is checked when the tables are built).
pub fn validate(regions: &Regions) -> Result<(), SettingsError> {
    let err = |m: String| Err(SettingsError::new("regions", m));
    match regions {
        Regions::Default | Regions::Classic => Ok(()),
        &Regions::Graph { overlap_radius, neighbour_radius, max_graph_distance } => {
            if overlap_radius > MAX_RADIUS
                || neighbour_radius > MAX_RADIUS
                || max_graph_distance > 2 * MAX_RADIUS
            {
                return err(format!(
                    "graph radii go up to {MAX_RADIUS} (graph distance up to {}), not {overlap_radius}, \
                     {neighbour_radius} and {max_graph_distance}",
                    2 * MAX_RADIUS
                ));
            }
            if neighbour_radius <= overlap_radius {
                return err(format!(
                    "neighbour_radius ({neighbour_radius}) must be larger than overlap_radius \
                     ({overlap_radius}), or no stone has neighbours"
                ));
            }
            Ok(())
        }
        Regions::Offsets { overlap, neighbour } => {
            for (name, list) in [("overlap", overlap), ("neighbour", neighbour)] {
                if list.len() > MAX_OFFSETS {
                    return err(format!("{name} has {} offsets; at most {MAX_OFFSETS}", list.len()));
                }
                if let Some(d) = list.iter().find(|d| d[0].abs() > MAX_OFFSET || d[1].abs() > MAX_OFFSET) {
                    return err(format!("{name} offset {d:?} is farther than {MAX_OFFSET} in x or y"));
                }
                if let Some(d) = list.iter().find(|d| !list.contains(&[-d[0], -d[1]])) {
                    return err(format!(
                        "{name} holds {d:?} but not {:?}: regions must be symmetric, so that \
                         \"each other's regions\" means the same from both stones",
                        [-d[0], -d[1]]
                    ));
                }
            }
            if !overlap.contains(&[0, 0]) {
                return err("the overlap must hold the stone's own space [0, 0]".into());
            }
            if let Some(d) = overlap.iter().find(|d| neighbour.contains(d)) {
                return err(format!("{d:?} is in both the overlap and the neighbour region"));
            }
            if neighbour.is_empty() {
                return err("the neighbour region is empty: no stone would ever have a liberty".into());
            }
            Ok(())
        }
    }
}

/// Calls its closure on every node one step from a node.
type Step<'a> = &'a dyn Fn(NodeId, &mut dyn FnMut(NodeId));

/// Breadth-first distances from `p` up to `limit` steps, through `next` (the nodes reached,
/// with their distance).
fn ball(n: usize, p: NodeId, limit: u32, next: Step<'_>) -> Vec<(NodeId, u32)> {
    let mut dist = std::collections::HashMap::with_capacity(64);
    let mut queue = VecDeque::new();
    dist.insert(p, 0u32);
    queue.push_back(p);
    while let Some(v) = queue.pop_front() {
        let d = dist[&v];
        if d == limit {
            continue;
        }
        next(v, &mut |w| {
            if (w as usize) < n && !dist.contains_key(&w) {
                dist.insert(w, d + 1);
                queue.push_back(w);
            }
        });
    }
    dist.into_iter().collect()
}

fn graph_regions(map: &Map, overlap_radius: u32, neighbour_radius: u32, max_graph: u32) -> (Rows, Rows) {
    let n = map.len();
    let diagonals = PlayoutTables::new(map);
    let plus = |v: NodeId, f: &mut dyn FnMut(NodeId)| {
        map.neighbors(v).iter().for_each(|&w| f(w));
        diagonals.diagonals(v).iter().for_each(|&w| f(w));
    };
    let plain = |v: NodeId, f: &mut dyn FnMut(NodeId)| map.neighbors(v).iter().for_each(|&w| f(w));
    let mut overlap = Vec::with_capacity(n);
    let mut neighbour = Vec::with_capacity(n);
    for p in map.nodes() {
        let near: std::collections::HashMap<NodeId, u32> =
            ball(n, p, max_graph, &plain).into_iter().collect();
        let far = ball(n, p, neighbour_radius, &plus);
        overlap.push(far.iter().filter(|&&(_, d)| d <= overlap_radius).map(|&(q, _)| q).collect::<Vec<_>>());
        neighbour.push(
            far.iter()
                .filter(|&&(q, d)| d > overlap_radius && near.contains_key(&q))
                .map(|&(q, _)| q)
                .collect::<Vec<_>>(),
        );
    }
    (
        Rows::build(n, |p, out| out.extend_from_slice(&overlap[p as usize])),
        Rows::build(n, |p, out| out.extend_from_slice(&neighbour[p as usize])),
    )
}
