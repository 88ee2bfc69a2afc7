//! Region analysis shared by every rule system: empty regions and who borders them, area and
//! territory counts.

use gobeyond_maps::NodeId;

use crate::{Board, Player, board::EMPTY};

/// A maximal connected set of empty nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    pub nodes: Vec<NodeId>,
    /// Bit `i` is set when a stone of player `i` touches the region.
    pub borders: u16,
}

impl Region {
    /// The player who claims the region: the only one bordering it. A region bordered by several
    /// players, or by none (an empty board), is disputed.
    pub fn owner(&self) -> Option<Player> {
        (self.borders.count_ones() == 1).then(|| Player(self.borders.trailing_zeros() as u8))
    }
}

/// Every empty region of the board, in order of their smallest node.
pub fn empty_regions(board: &Board) -> Vec<Region> {
    let map = board.map();
    let mut seen = vec![false; board.len()];
    let mut regions = Vec::new();
    let mut stack = Vec::new();
    for start in map.nodes() {
        if seen[start as usize] || board.color(start) != EMPTY {
            continue;
        }
        seen[start as usize] = true;
        stack.push(start);
        let mut nodes = Vec::new();
        let mut borders = 0u16;
        while let Some(v) = stack.pop() {
            nodes.push(v);
            for &w in map.neighbors(v) {
                let c = board.color(w);
                if c == EMPTY {
                    if !seen[w as usize] {
                        seen[w as usize] = true;
                        stack.push(w);
                    }
                } else {
                    borders |= 1 << (c - 1);
                }
            }
        }
        nodes.sort_unstable();
        regions.push(Region { nodes, borders });
    }
    regions
}

/// The claimant of every empty node, as a colour code (`player + 1`; 0 when the node holds a
/// stone or its region is disputed), written into `out`. `stack` and `region` are scratch space:
/// reused buffers make this allocation-free after the first call.
pub fn claims_into(board: &Board, out: &mut Vec<u8>, stack: &mut Vec<NodeId>, region: &mut Vec<NodeId>) {
    const UNSEEN: u8 = u8::MAX;
    let map = board.map();
    out.clear();
    out.resize(board.len(), UNSEEN);
    for start in map.nodes() {
        if out[start as usize] != UNSEEN {
            continue;
        }
        if board.color(start) != EMPTY {
            out[start as usize] = 0;
            continue;
        }
        // Mark visited nodes 0 while filling; the claimant is written once the borders are known.
        out[start as usize] = 0;
        stack.clear();
        region.clear();
        stack.push(start);
        let mut borders = 0u16;
        while let Some(v) = stack.pop() {
            region.push(v);
            for &w in map.neighbors(v) {
                let c = board.color(w);
                if c != EMPTY {
                    borders |= 1 << (c - 1);
                } else if out[w as usize] == UNSEEN {
                    out[w as usize] = 0;
                    stack.push(w);
                }
            }
        }
        if borders.count_ones() == 1 {
            let claimant = borders.trailing_zeros() as u8 + 1;
            for &v in region.iter() {
                out[v as usize] = claimant;
            }
        }
    }
}

/// Who each node belongs to: the stone's owner, the claimant of an empty region, or nobody.
pub fn ownership(board: &Board) -> Vec<Option<Player>> {
    let mut owner: Vec<Option<Player>> = (0..board.len() as NodeId).map(|n| board.stone_at(n)).collect();
    for r in empty_regions(board) {
        if let Some(p) = r.owner() {
            for &n in &r.nodes {
                owner[n as usize] = Some(p);
            }
        }
    }
    owner
}

/// Empty nodes claimed by each player (regions bordered by that player only).
pub fn territory(board: &Board, players: usize) -> Vec<u32> {
    let mut t = vec![0u32; players];
    for r in empty_regions(board) {
        if let Some(p) = r.owner().filter(|p| p.index() < players) {
            t[p.index()] += r.nodes.len() as u32;
        }
    }
    t
}

/// Area per player: stones on the board plus claimed empty nodes.
pub fn area(board: &Board, players: usize) -> Vec<u32> {
    let mut a = territory(board, players);
    for (i, v) in a.iter_mut().enumerate() {
        *v += board.stone_count(Player(i as u8));
    }
    a
}

/// The board after removing the groups at `dead` (any stone of each group names it), with the
/// number of dead stones each player gains as prisoners: dead stones go to the player who claims
/// the region they end up in, or to nobody if it is disputed.
pub fn remove_dead(board: &Board, dead: &[NodeId], players: usize) -> (Board, Vec<u32>) {
    let mut after = board.clone();
    let mut removed: Vec<NodeId> = Vec::new();
    for &d in dead {
        if (d as usize) < after.len() && after.color(d) != EMPTY {
            removed.extend(after.remove_group(d));
        }
    }
    let mut prisoners = vec![0u32; players];
    let regions = empty_regions(&after);
    let mut region_of = vec![usize::MAX; after.len()];
    for (i, r) in regions.iter().enumerate() {
        for &n in &r.nodes {
            region_of[n as usize] = i;
        }
    }
    for n in removed {
        if let Some(p) = regions[region_of[n as usize]].owner().filter(|p| p.index() < players) {
            prisoners[p.index()] += 1;
        }
    }
    (after, prisoners)
}
