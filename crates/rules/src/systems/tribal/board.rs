//! Tribal Go's own small board: stones by owner, groups by team (allies group together, and a
//! group may stand without liberties after an alliance changes), the range along the map,
//! placements with captures, spoils, suicide and ko. Rules and readings are those of
//! `docs/rules/spec/tribal.md`.

use gobeyond_maps::NodeId;

use super::{Event, Illegal, TribalGame, TribalKo, spoils::Spoils};
use crate::{Player, zobrist};

impl TribalGame {
    /// Nodes `p` may reach with `range` (every node for no limit): within `range` steps, along
    /// the map, of `p`'s start point or stones (stones do not block the path).
    pub fn reachable(&self, p: Player, range: Option<u32>) -> Vec<bool> {
        match range.and_then(|r| self.field_reachable(p, r)) {
            Some(reach) => reach,
            None => self.reachable_from_scratch(p, range),
        }
    }

    /// [`Self::reachable`] by a search from `p`'s sources (the incremental board's oracle).
    pub fn reachable_from_scratch(&self, p: Player, range: Option<u32>) -> Vec<bool> {
        let n = self.map.len();
        let Some(range) = range else { return vec![true; n] };
        let mut dist = vec![u32::MAX; n];
        let mut queue = std::collections::VecDeque::new();
        let code = p.0 + 1;
        for (v, d) in dist.iter_mut().enumerate() {
            if self.owner[v] == code || self.start_point(p) == Some(v as NodeId) {
                *d = 0;
                queue.push_back(v as NodeId);
            }
        }
        while let Some(v) = queue.pop_front() {
            let d = dist[v as usize];
            if d >= range {
                continue;
            }
            for &w in self.map.neighbors(v) {
                if dist[w as usize] == u32::MAX {
                    dist[w as usize] = d + 1;
                    queue.push_back(w);
                }
            }
        }
        dist.into_iter().map(|d| d <= range).collect()
    }

    /// Whether `node` is within the range of the moment ([`Self::current_range`]) of `p`'s stones
    /// or start point, as a placement checks it (playouts ask before trying one).
    pub fn in_current_range(&self, p: Player, node: NodeId) -> bool {
        self.current_range().is_none_or(|r| self.within(p, node, r))
    }

    pub(super) fn within(&self, p: Player, node: NodeId, range: u32) -> bool {
        self.field_within(p, node, range).unwrap_or_else(|| self.within_from_scratch(p, node, range))
    }

    /// [`Self::within`] by a search from the target outwards, stopping at the first source.
    pub(super) fn within_from_scratch(&self, p: Player, node: NodeId, range: u32) -> bool {
        let n = self.map.len();
        let code = p.0 + 1;
        let is_source = |v: NodeId| self.owner[v as usize] == code || self.start_point(p) == Some(v);
        if is_source(node) {
            return true;
        }
        let mut seen = vec![false; n];
        seen[node as usize] = true;
        let mut frontier = vec![node];
        for _ in 0..range {
            let mut next = Vec::new();
            for &v in &frontier {
                for &w in self.map.neighbors(v) {
                    if !seen[w as usize] {
                        if is_source(w) {
                            return true;
                        }
                        seen[w as usize] = true;
                        next.push(w);
                    }
                }
            }
            if next.is_empty() {
                return false;
            }
            frontier = next;
        }
        false
    }

    // --- Groups (by team) ---------------------------------------------------------------

    pub(super) fn team_of_code(&self, code: u8) -> Option<Player> {
        code.checked_sub(1).map(|p| self.team(Player(p)))
    }

    /// The group (by team) containing `node`'s stone, and whether it has a liberty (only that
    /// matters: captures and suicide ask about none).
    pub(super) fn group(&self, node: NodeId, seen: &mut [bool]) -> (Vec<NodeId>, u32) {
        let team = self.team_of_code(self.owner[node as usize]);
        let mut stones = vec![node];
        let mut libs = 0u32;
        seen[node as usize] = true;
        let mut i = 0;
        while i < stones.len() {
            let v = stones[i];
            i += 1;
            for &w in self.map.neighbors(v) {
                let code = self.owner[w as usize];
                if code == 0 {
                    libs = 1;
                } else if !seen[w as usize] && self.team_of_code(code) == team {
                    seen[w as usize] = true;
                    stones.push(w);
                }
            }
        }
        (stones, libs)
    }

    /// Puts `code` on `node` (0: empty) outside the incremental board's own updates: the board
    /// is rebuilt before its next use.
    pub(super) fn set(&mut self, node: NodeId, code: u8) {
        self.set_stone(node, code);
        self.board.mark_stale();
    }

    /// The stone and the position's hash only.
    pub(super) fn set_stone(&mut self, node: NodeId, code: u8) {
        let old = self.owner[node as usize];
        if old != 0 {
            self.hash ^= zobrist::stone_key(node, old);
        }
        if code != 0 {
            self.hash ^= zobrist::stone_key(node, code);
        }
        self.owner[node as usize] = code;
    }

    // --- Placing ---------------------------------------------------------------------

    /// Places `p`'s stone on `node` with `range` (None: anywhere): captures with spoils, then
    /// suicide and ko. On a refusal nothing changes.
    pub(super) fn place(
        &mut self,
        p: Player,
        node: NodeId,
        range: Option<u32>,
        handicap: bool,
    ) -> Result<(), Illegal> {
        self.ensure_board();
        let captured = self.placement_verdict(p, node, range)?;
        self.place_single(p, node, &captured, handicap);
        Ok(())
    }

    /// [`Self::place`] as a turn's Play: what a rejection would undo is kept once the placement
    /// is known to stand (playouts try placements that the rules refuse).
    pub(super) fn place_as_play(
        &mut self,
        p: Player,
        node: NodeId,
        range: Option<u32>,
    ) -> Result<(), Illegal> {
        self.ensure_board();
        let captured = self.placement_verdict(p, node, range)?;
        self.begin_play(None);
        self.place_single(p, node, &captured, false);
        Ok(())
    }

    /// Whether `p` may place on `node` with `range` (board fresh): the groups it would capture
    /// (a stone of each), or why not, in the order of the checks of [`Self::place_from_scratch`].
    fn placement_verdict(&self, p: Player, node: NodeId, range: Option<u32>) -> Result<Vec<NodeId>, Illegal> {
        if !self.map.contains(node as u64) {
            return Err(Illegal::UnknownNode(node));
        }
        if self.owner[node as usize] != 0 {
            return Err(Illegal::Occupied(node));
        }
        if let Some(r) = range
            && !self.within(p, node, r)
        {
            return Err(Illegal::OutOfRange { node, range: r });
        }
        if self.supply[p.index()] == Some(0) {
            return Err(Illegal::NoStones);
        }
        self.single_stone_verdict(p, node)
    }

    /// Places a stone the verdict allowed, capturing the groups of `captured`'s stones, on the
    /// incremental board; the events and spoils as [`Self::place_group_from_scratch`] gives them.
    fn place_single(&mut self, p: Player, node: NodeId, captured: &[NodeId], handicap: bool) {
        let before_hash = self.hash;
        self.board_add_stone(p, node);
        let mut spoils = Vec::new();
        if self.record_events {
            // The events list each group's stones in the order the group search has always
            // given them.
            let mut seen = vec![false; if captured.is_empty() { 0 } else { self.map.len() }];
            for &w in captured {
                let (stones, _) = self.group(w, &mut seen);
                spoils.push(self.board_spoils(w, stones));
            }
        } else {
            spoils.extend(captured.iter().map(|&w| self.board_spoils(w, Vec::new())));
        }
        for &w in captured {
            self.board_remove_group(w);
        }
        self.placement_stands(p, &[node], before_hash, handicap, spoils);
    }

    /// [`Self::place`] without the incremental board (its oracle in tests).
    pub fn place_from_scratch(
        &mut self,
        p: Player,
        node: NodeId,
        range: Option<u32>,
        handicap: bool,
    ) -> Result<(), Illegal> {
        if !self.map.contains(node as u64) {
            return Err(Illegal::UnknownNode(node));
        }
        if self.owner[node as usize] != 0 {
            return Err(Illegal::Occupied(node));
        }
        if let Some(r) = range
            && !self.within_from_scratch(p, node, r)
        {
            return Err(Illegal::OutOfRange { node, range: r });
        }
        self.place_group_from_scratch(p, &[node], handicap)
    }

    /// Places `p`'s stones on the empty `nodes` at once (one stone, or Pair Place's pair),
    /// range already checked: captures with spoils, then suicide and ko. On a refusal nothing
    /// changes.
    pub(super) fn place_group(&mut self, p: Player, nodes: &[NodeId], handicap: bool) -> Result<(), Illegal> {
        if let &[node] = nodes {
            self.place(p, node, None, handicap)
        } else {
            self.place_group_from_scratch(p, nodes, handicap)
        }
    }

    /// [`Self::place_group`] by searching the groups around the stones (Pair Place's pair; the
    /// incremental board's oracle in tests); the board is rebuilt before its next use.
    pub(super) fn place_group_from_scratch(
        &mut self,
        p: Player,
        nodes: &[NodeId],
        handicap: bool,
    ) -> Result<(), Illegal> {
        for &node in nodes {
            if !self.map.contains(node as u64) {
                return Err(Illegal::UnknownNode(node));
            }
            if self.owner[node as usize] != 0 {
                return Err(Illegal::Occupied(node));
            }
        }
        if let Some(s) = self.supply[p.index()]
            && (s as usize) < nodes.len()
        {
            return Err(Illegal::NoStones);
        }
        let before_hash = self.hash;
        for &node in nodes {
            self.set(node, p.0 + 1);
        }
        let team = self.team(p);
        // Other teams' groups next to the stones left without liberties: all removed together.
        // (Prisoners and supply change only once the placement stands.)
        let has_empty_neighbour =
            |g: &TribalGame, v: NodeId| g.map.neighbors(v).iter().any(|&w| g.owner[w as usize] == 0);
        let mut seen: Option<Vec<bool>> = None;
        let mut captured: Vec<Vec<NodeId>> = Vec::new();
        for &node in nodes {
            for &w in self.map.neighbors(node) {
                let code = self.owner[w as usize];
                if code == 0 || self.team_of_code(code) == Some(team) || has_empty_neighbour(self, w) {
                    continue;
                }
                let seen = seen.get_or_insert_with(|| vec![false; self.map.len()]);
                if seen[w as usize] {
                    continue;
                }
                let (stones, libs) = self.group(w, seen);
                if libs == 0 {
                    captured.push(stones);
                }
            }
        }
        let mut spoils = Vec::new();
        for stones in captured {
            let owners: Vec<Player> = stones.iter().filter_map(|&v| self.stone_at(v)).collect();
            let recipients: Vec<Player> = self.touching(&stones).into_iter().map(|(q, _)| q).collect();
            spoils.push(Spoils::of_stones(stones, owners, &recipients));
        }
        for s in &spoils {
            for &v in &s.stones {
                self.set(v, 0);
            }
        }
        // A stone with an empty neighbour has a liberty: no search needed.
        let suicide = nodes.iter().copied().find(|&node| {
            !has_empty_neighbour(self, node) && self.group(node, &mut vec![false; self.map.len()]).1 == 0
        });
        let repeated = match self.rules.ko {
            TribalKo::PositionalSuperko => self.history.contains(&self.hash),
            TribalKo::Simple => self.hash == self.previous_hash,
        };
        if suicide.is_some() || repeated {
            // Undo: the stones and the captures.
            for s in &spoils {
                for (&v, o) in s.stones.iter().zip(&s.owners) {
                    self.set(v, o.0 + 1);
                }
            }
            for &node in nodes {
                self.set(node, 0);
            }
            debug_assert_eq!(self.hash, before_hash);
            let last = nodes.last().copied().unwrap_or(0);
            return Err(match suicide {
                Some(v) => Illegal::Suicide(v),
                None => Illegal::Ko(last),
            });
        }
        self.placement_stands(p, nodes, before_hash, handicap, spoils);
        Ok(())
    }

    /// The bookkeeping of a placement that stands (stones and captures on the board): supply,
    /// ko history, events and spoils.
    fn placement_stands(
        &mut self,
        p: Player,
        nodes: &[NodeId],
        before_hash: u64,
        handicap: bool,
        spoils: Vec<Spoils>,
    ) {
        if let Some(s) = self.supply[p.index()].as_mut() {
            *s -= nodes.len() as u32;
        }
        self.previous_hash = before_hash;
        self.history.insert(self.hash);
        if let Some(s) = self.snapshot.as_mut() {
            s.added.push(self.hash);
        }
        for &node in nodes {
            self.emit(Event::Placed { player: p, node, handicap });
        }
        for s in spoils {
            let shares = self.share(&s, p);
            self.emit(Event::Captured { player: Some(p), nodes: s.stones, owners: s.owners, shares });
        }
    }

    /// Whether `p` could place a stone on `node` with `range` now (empty, in range, not suicide,
    /// not a repetition), whatever the phase.
    pub fn placeable(&self, p: Player, node: NodeId, range: Option<u32>) -> bool {
        if self.board.is_fresh() {
            return self.placement_verdict(p, node, range).is_ok();
        }
        // A throwaway copy: nothing to undo.
        self.owner.get(node as usize) == Some(&0)
            && self.without_events().place(p, node, range, false).is_ok()
    }

    /// [`Self::placeable`] by trying the placement from scratch on a copy (the oracle in tests).
    pub fn placeable_from_scratch(&self, p: Player, node: NodeId, range: Option<u32>) -> bool {
        self.owner.get(node as usize) == Some(&0)
            && self.without_events().place_from_scratch(p, node, range, false).is_ok()
    }

    /// Whether `p` could place on `node` with `range` (asking the incremental board).
    pub(super) fn check_place(&mut self, p: Player, node: NodeId, range: Option<u32>) -> Result<(), Illegal> {
        self.ensure_board();
        self.placement_verdict(p, node, range).map(|_| ())
    }
}
