//! Area counting (`docs/rules/spec/gengo.md`, rule 24 and reading A6): a space overlapped by one
//! colour only is that colour's; one overlapped by both is neutral; an empty area (spaces no stone
//! overlaps, connected through the map's adjacency) is a colour's when every space bordering it is
//! that colour's alone.

use gobeyond_maps::{Map, NodeId};

use super::board::GengoBoard;

/// Who each space counts for, and the totals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Area {
    /// Per space: `Some(player)` or `None` (neutral, or an empty area nobody owns).
    pub owner: Vec<Option<u8>>,
    pub counts: [u32; 2],
}

/// The area count of `board`.
pub fn area(board: &GengoBoard, map: &Map) -> Area {
    let n = board.len();
    // Bits: 1 Black, 2 White; 0 for an empty space.
    let colour = |p: NodeId| {
        let c = board.cover(p);
        (c[0] > 0) as u8 | (((c[1] > 0) as u8) << 1)
    };
    let mut owner: Vec<Option<u8>> = vec![None; n];
    let mut seen = vec![false; n];
    let mut stack = Vec::new();
    let mut region = Vec::new();
    for p in map.nodes() {
        match colour(p) {
            1 => owner[p as usize] = Some(0),
            2 => owner[p as usize] = Some(1),
            0 if !seen[p as usize] => {
                seen[p as usize] = true;
                stack.push(p);
                region.clear();
                let mut borders = 0u8;
                while let Some(v) = stack.pop() {
                    region.push(v);
                    for &w in map.neighbors(v) {
                        match colour(w) {
                            0 => {
                                if !seen[w as usize] {
                                    seen[w as usize] = true;
                                    stack.push(w);
                                }
                            }
                            c => borders |= c,
                        }
                    }
                }
                let claim = match borders {
                    1 => Some(0),
                    2 => Some(1),
                    _ => None,
                };
                for &v in &region {
                    owner[v as usize] = claim;
                }
            }
            _ => {}
        }
    }
    let mut counts = [0; 2];
    for o in owner.iter().flatten() {
        counts[*o as usize] += 1;
    }
    Area { owner, counts }
}
