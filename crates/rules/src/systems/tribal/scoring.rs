//! The end (`docs/rules/spec/tribal.md`, rules 59–70, whose numbers the comments below cite):
//! groups left without liberties are removed and shared out, a Clean-Up of dead stones, prisoners
//! filled into their colours' territory with the overflow to the holders, card points, and the
//! ranking.

use std::collections::HashSet;

use gobeyond_maps::NodeId;

use super::{Event, Phase, TribalGame, spoils::Spoils};
use crate::{EndReason, Outcome, Player};

impl TribalGame {
    /// Everyone passed: step 0, then Clean-Up.
    pub(super) fn begin_counting(&mut self) {
        self.remove_breathless();
        self.phase = Phase::CleanUp;
        self.emit(Event::CleanUpStarted);
        // Players who left name nothing.
        for p in 0..self.players {
            if self.gone[p] {
                self.dead[p] = Some(Vec::new());
            }
        }
        if self.dead.iter().all(Option::is_some) {
            self.finish_counting();
        }
    }

    /// Step 0 (rule 64): every group without liberties (alliances may leave some) is removed at
    /// once and shared among the players touching it; the balance goes to the one with the
    /// most stones in contact, ties in turn order from the first player.
    fn remove_breathless(&mut self) {
        let mut seen = vec![false; self.map.len()];
        let mut groups = Vec::new();
        for v in self.map.nodes() {
            if self.owner[v as usize] != 0 && !seen[v as usize] {
                let (stones, libs) = self.group(v, &mut seen);
                if libs == 0 {
                    groups.push(stones);
                }
            }
        }
        let mut shared = Vec::new();
        for stones in &groups {
            let owners: Vec<Player> = stones.iter().filter_map(|&v| self.stone_at(v)).collect();
            let touching = self.touching(stones);
            let lead = (0..self.players)
                .map(|k| Player(((self.first.index() + k) % self.players) as u8))
                .filter_map(|p| touching.iter().find(|(q, _)| *q == p).copied())
                .max_by(|a, b| a.1.cmp(&b.1).then(std::cmp::Ordering::Greater));
            shared.push((stones.clone(), owners, touching, lead));
        }
        for (stones, _, _, _) in &shared {
            for &v in stones {
                self.set(v, 0);
            }
        }
        for (stones, owners, touching, lead) in shared {
            let recipients: Vec<Player> = touching.iter().map(|(p, _)| *p).collect();
            let spoils = Spoils::of_stones(stones, owners, &recipients);
            // Without recipients the stones go back to their supplies: no lead.
            let shares = self.share(&spoils, lead.map_or(Player(0), |(lead, _)| lead));
            self.emit(Event::Captured { player: None, nodes: spoils.stones, owners: spoils.owners, shares });
        }
    }

    /// Empty regions with the teams bordering them.
    fn regions(&self) -> Vec<(Vec<NodeId>, Vec<Player>)> {
        let mut seen = vec![false; self.map.len()];
        let mut out = Vec::new();
        for v in self.map.nodes() {
            if self.owner[v as usize] != 0 || seen[v as usize] {
                continue;
            }
            let mut region = vec![v];
            let mut teams = Vec::new();
            seen[v as usize] = true;
            let mut i = 0;
            while i < region.len() {
                let u = region[i];
                i += 1;
                for &w in self.map.neighbors(u) {
                    match self.stone_at(w) {
                        Some(p) => {
                            let t = self.team(p);
                            if !teams.contains(&t) {
                                teams.push(t);
                            }
                        }
                        None if !seen[w as usize] => {
                            seen[w as usize] = true;
                            region.push(w);
                        }
                        None => {}
                    }
                }
            }
            out.push((region, teams));
        }
        out
    }

    /// Per node: the stone's player, or the team whose territory holds an empty node.
    pub fn owners(&self) -> Vec<Option<Player>> {
        let mut out: Vec<Option<Player>> = self.map.nodes().map(|v| self.stone_at(v)).collect();
        for (region, teams) in self.regions() {
            if let [team] = teams[..] {
                for v in region {
                    out[v as usize] = Some(team);
                }
            }
        }
        out
    }

    /// Territory per team root (rule 63): regions bordered by one team only.
    pub fn territory(&self) -> Vec<u32> {
        let mut t = vec![0u32; self.players];
        for (region, teams) in self.regions() {
            if let [team] = teams[..] {
                t[team.index()] += region.len() as u32;
            }
        }
        t
    }

    /// Everyone named their dead stones: remove them, fill in, total, rank.
    pub(super) fn finish_counting(&mut self) {
        // Step 1 (rule 65): all named stones leave together; each becomes a prisoner of the team
        // whose territory now holds its node, or goes back to its owner if that is disputed.
        let named: Vec<(Player, Vec<NodeId>)> = self
            .dead
            .iter()
            .enumerate()
            .filter_map(|(p, d)| d.as_ref().filter(|d| !d.is_empty()).map(|d| (Player(p as u8), d.clone())))
            .collect();
        for (_, nodes) in &named {
            for &v in nodes {
                self.set(v, 0);
            }
        }
        let regions = self.regions();
        let holder_of = |v: NodeId| -> Option<Player> {
            regions.iter().find(|(r, _)| r.contains(&v)).and_then(|(_, teams)| match teams[..] {
                [t] => Some(t),
                _ => None,
            })
        };
        let decided: Vec<(Player, NodeId, Option<Player>)> =
            named.iter().flat_map(|(p, nodes)| nodes.iter().map(|&v| (*p, v, holder_of(v)))).collect();
        for (owner, v, to) in decided {
            match to {
                Some(t) => self.give_prisoner(t, owner),
                None => self.back_to_supply(owner, 1),
            }
            self.emit(Event::DeadRemoved { owner, node: v, to });
        }
        // Step 2 (rules 66–67): prisoners of a team's colours held outside it fill its
        // territory; what does not fit goes to the holders, in proportion to their holdings.
        let territory = self.territory();
        let roots: Vec<Player> =
            (0..self.players as u8).map(Player).filter(|p| self.occupier(*p).is_none()).collect();
        let mut totals = vec![0.0f64; self.players];
        let mut received = vec![0u32; self.players];
        for &t in &roots {
            let members: HashSet<Player> =
                (0..self.players as u8).map(Player).filter(|p| self.team(*p) == t).collect();
            let holdings: Vec<(Player, u32)> = (0..self.players as u8)
                .map(Player)
                .filter(|h| !members.contains(h))
                .map(|h| (h, members.iter().map(|c| self.prisoners[h.index()][c.index()]).sum::<u32>()))
                .filter(|(_, n)| *n > 0)
                .collect();
            let filled: u32 = holdings.iter().map(|(_, n)| n).sum();
            let own = territory[t.index()];
            let left = own.saturating_sub(filled);
            let overflow = filled.saturating_sub(own);
            let split = largest_remainder(overflow, &holdings, self.first, self.players);
            for &(h, n) in &split {
                received[h.index()] += n;
            }
            totals[t.index()] += f64::from(left);
            self.emit(Event::FilledIn { team: t, territory: own, prisoners: filled, left, overflow: split });
        }
        // Steps 3–4: overflow received and card points count for the receiver's team.
        for (p, got) in received.iter().enumerate() {
            let t = self.team(Player(p as u8));
            totals[t.index()] += f64::from(*got) + self.banked[p] as f64;
        }
        self.rank(totals);
    }

    /// An outcome from the final totals (rule 70): independents by team total, equal totals
    /// sharing a place; occupied factions below, in their occupiers' order, ties by seat.
    fn rank(&mut self, totals: Vec<f64>) {
        let n = self.players;
        let mut independents: Vec<Player> =
            (0..n as u8).map(Player).filter(|p| self.occupier(*p).is_none()).collect();
        independents.sort_by(|a, b| totals[b.index()].total_cmp(&totals[a.index()]).then(a.0.cmp(&b.0)));
        let mut places = vec![0u32; n];
        for (i, &p) in independents.iter().enumerate() {
            places[p.index()] = if i > 0 && totals[p.index()] == totals[independents[i - 1].index()] {
                places[independents[i - 1].index()]
            } else {
                i as u32 + 1
            };
        }
        let mut vassals: Vec<Player> =
            (0..n as u8).map(Player).filter(|p| self.occupier(*p).is_some()).collect();
        vassals.sort_by_key(|p| (self.occupier(*p).map_or(u32::MAX, |o| places[o.index()]), p.0));
        let mut ranking = independents.clone();
        for (i, &p) in vassals.iter().enumerate() {
            places[p.index()] = (independents.len() + i) as u32 + 1;
            ranking.push(p);
        }
        let scores: Vec<f64> = (0..n).map(|p| totals[self.team(Player(p as u8)).index()]).collect();
        self.emit(Event::GameOver { ranking: ranking.clone(), scores: scores.clone() });
        self.outcome =
            Some(Outcome { scores, ranking, places, reason: EndReason::Passes, tie_broken: false });
        self.phase = Phase::Finished;
    }
}

/// `amount` split in proportion to `holdings` by largest remainders; ties go to the larger
/// holding, then to turn order from `first`.
pub fn largest_remainder(
    amount: u32,
    holdings: &[(Player, u32)],
    first: Player,
    players: usize,
) -> Vec<(Player, u32)> {
    let total: u64 = holdings.iter().map(|(_, n)| u64::from(*n)).sum();
    if amount == 0 || total == 0 {
        return Vec::new();
    }
    let mut parts: Vec<(Player, u32, u64, u32)> = holdings
        .iter()
        .map(|&(p, n)| {
            let exact = u64::from(amount) * u64::from(n);
            (p, (exact / total) as u32, exact % total, n)
        })
        .collect();
    let given: u32 = parts.iter().map(|p| p.1).sum();
    let position = |p: Player| (p.index() + players - first.index()) % players;
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by(|&a, &b| {
        parts[b]
            .2
            .cmp(&parts[a].2)
            .then(parts[b].3.cmp(&parts[a].3))
            .then(position(parts[a].0).cmp(&position(parts[b].0)))
    });
    for &i in order.iter().take((amount - given) as usize) {
        parts[i].1 += 1;
    }
    parts.into_iter().filter(|p| p.1 > 0).map(|p| (p.0, p.1)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflow_is_split_by_largest_remainder() {
        // 5 to split among holdings 3 and 1 (of 4): 3.75 and 1.25 → 4 and 1.
        assert_eq!(
            largest_remainder(5, &[(Player(1), 3), (Player(2), 1)], Player(0), 3),
            vec![(Player(1), 4), (Player(2), 1)]
        );
        // Equal holdings and remainders: turn order from the first player decides.
        assert_eq!(
            largest_remainder(1, &[(Player(0), 1), (Player(2), 1)], Player(2), 3),
            vec![(Player(2), 1)]
        );
        assert!(largest_remainder(0, &[(Player(1), 3)], Player(0), 2).is_empty());
    }
}
