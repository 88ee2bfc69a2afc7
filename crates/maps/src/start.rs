//! Start points for k players, as far apart as possible.

use crate::{Map, NodeId};

/// `k` distinct start points that make the smallest graph distance between any two of them as
/// large as this search finds (the exact problem, max-min dispersion, is NP-hard). Ties are broken
/// by the larger sum of pairwise distances, then by the smaller node ids, so the answer is
/// deterministic. Declared start points of a custom map win when there are at least `k`.
///
/// Search: greedy farthest-point selection from several seeds, then swaps that raise the minimum
/// (or the sum at equal minimum) until none does. Each step is a breadth-first search, so maps of
/// 10,000 nodes take milliseconds.
pub fn start_points(map: &Map, k: usize) -> Vec<NodeId> {
    let n = map.len();
    let declared = map.declared_start_points();
    if declared.len() >= k {
        return declared[..k].to_vec();
    }
    if k == 0 {
        return Vec::new();
    }
    if k >= n {
        return map.nodes().collect();
    }
    // Seeds: a few nodes spread over the id range, enough to escape a bad first pick.
    let seeds: Vec<NodeId> = (0..8).map(|i| (i * n / 8) as NodeId).collect();
    let mut best: Option<(Vec<NodeId>, (u32, u64))> = None;
    for &seed in &seeds {
        let mut chosen = vec![seed];
        let mut nearest = map.distances_from(seed);
        // The first pick is only a seed; pick the farthest from it and restart from there, so
        // that the result does not depend on the seed being a good start point.
        let far = farthest(&nearest, &chosen);
        chosen = vec![far];
        nearest = map.distances_from(far);
        while chosen.len() < k {
            let next = farthest(&nearest, &chosen);
            chosen.push(next);
            for (d, e) in nearest.iter_mut().zip(map.distances_from(next)) {
                *d = (*d).min(e);
            }
        }
        improve(map, &mut chosen);
        chosen.sort_unstable();
        let score = score(map, &chosen);
        let better = match &best {
            None => true,
            Some((b, s)) => score > *s || (score == *s && chosen < *b),
        };
        if better {
            best = Some((chosen, score));
        }
    }
    best.map(|b| b.0).unwrap_or_default()
}

/// The node farthest from the chosen set (smallest id on ties), never one already chosen.
fn farthest(nearest: &[u32], chosen: &[NodeId]) -> NodeId {
    let mut best = (0u32, NodeId::MAX);
    for (i, &d) in nearest.iter().enumerate() {
        // Unreachable nodes (disconnected maps) count as infinitely far: they are a fine start.
        if chosen.contains(&(i as NodeId)) {
            continue;
        }
        if d > best.0 || best.1 == NodeId::MAX {
            best = (d, i as NodeId);
        }
    }
    best.1
}

fn score(map: &Map, chosen: &[NodeId]) -> (u32, u64) {
    let mut min = u32::MAX;
    let mut sum = 0u64;
    for (i, &a) in chosen.iter().enumerate() {
        let d = map.distances_from(a);
        for &b in &chosen[i + 1..] {
            min = min.min(d[b as usize]);
            sum += d[b as usize].min(1 << 20) as u64;
        }
    }
    (min, sum)
}

/// Local search: move one point at a time to the spot that is best against the others.
fn improve(map: &Map, chosen: &mut [NodeId]) {
    let k = chosen.len();
    if k < 2 {
        return;
    }
    let mut dist: Vec<Vec<u32>> = chosen.iter().map(|&c| map.distances_from(c)).collect();
    for _round in 0..16 {
        let mut changed = false;
        for i in 0..k {
            let current = pair_score(&dist, chosen, i, chosen[i]);
            let mut best = (current, chosen[i]);
            for v in map.nodes() {
                if chosen.contains(&v) {
                    continue;
                }
                let s = pair_score(&dist, chosen, i, v);
                if s > best.0 {
                    best = (s, v);
                }
            }
            if best.1 != chosen[i] {
                chosen[i] = best.1;
                dist[i] = map.distances_from(best.1);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

/// (min, sum) of distances from `v` to every chosen point but the `i`-th, combined with the
/// minimum among the others, so that a move never lowers the overall minimum.
fn pair_score(dist: &[Vec<u32>], chosen: &[NodeId], i: usize, v: NodeId) -> (u32, u64) {
    let mut min = u32::MAX;
    let mut sum = 0u64;
    for (j, d) in dist.iter().enumerate() {
        if j == i {
            continue;
        }
        let e = d[v as usize];
        min = min.min(e);
        sum += e.min(1 << 20) as u64;
    }
    // The rest of the set's own minimum does not depend on v, but must be counted for ties.
    for (a, da) in dist.iter().enumerate() {
        if a == i {
            continue;
        }
        for (b, &cb) in chosen.iter().enumerate().skip(a + 1) {
            if b != i {
                min = min.min(da[cb as usize]);
            }
        }
    }
    (min, sum)
}
