//! GoBeyond's Clean-Up: who chooses, which stones may be surrendered, and the resolution with
//! its awards and the final bonus.

use gobeyond_maps::NodeId;

use super::{Event, GoBeyondGame, Illegal, Input, Phase};
use crate::{Player, regions};

impl GoBeyondGame {
    /// Clean-Up: every player with stones on the board chooses. Resigned players choose too,
    /// or rather the server chooses for them ([`GoBeyondGame::decided_for`]): their dead stones
    /// would otherwise keep an opponent's territory disputed for ever.
    pub(super) fn start_cleanup(&mut self) {
        let players: Vec<Player> =
            (0..self.players as u8).map(Player).filter(|&p| !self.is_resigned(p)).collect();
        let has_stones = |p: Player| self.board.map().nodes().any(|v| self.board.stone_at(v) == Some(p));
        self.surrenders = Some(
            (0..self.players as u8)
                .map(Player)
                .map(|p| (self.is_resigned(p) && !has_stones(p)).then(Vec::new))
                .collect(),
        );
        self.emit(Event::CleanUpStarted { players });
    }

    /// Seats whose Clean-Up choice is made for them (by the server's search, or by
    /// [`GoBeyondGame::suggest_surrender`]): resigned players who still have stones.
    pub fn decided_for(&self) -> Vec<Player> {
        self.awaiting_cleanup().into_iter().filter(|&p| self.is_resigned(p)).collect()
    }

    /// Players who have not yet made their Clean-Up choice.
    pub fn awaiting_cleanup(&self) -> Vec<Player> {
        let Some(s) = &self.surrenders else { return Vec::new() };
        s.iter().enumerate().filter(|(_, c)| c.is_none()).map(|(i, _)| Player(i as u8)).collect()
    }

    /// The stones `player` has chosen to surrender, once submitted.
    pub fn surrendered(&self, player: Player) -> Option<&[NodeId]> {
        self.surrenders.as_ref()?.get(player.index())?.as_deref()
    }

    fn check_cleanup(&self, player: Player) -> Result<(), Illegal> {
        match self.phase() {
            Phase::Finished => return Err(Illegal::GameOver),
            Phase::Playing => return Err(Illegal::NotInCleanUp),
            Phase::CleanUp => {}
        }
        // Resigned players take part: their choice is made for them (see `start_cleanup`).
        if player.index() >= self.players {
            return Err(Illegal::UnknownPlayer { player });
        }
        if self.surrendered(player).is_some() {
            return Err(Illegal::AlreadySubmitted { player });
        }
        Ok(())
    }

    /// Checks a Clean-Up choice without submitting it.
    pub fn check_surrender(&self, player: Player, nodes: &[NodeId]) -> Result<(), Illegal> {
        self.check_cleanup(player)?;
        let mut seen = vec![false; self.board.len()];
        for &node in nodes {
            if !self.board.map().contains(node as u64) {
                return Err(Illegal::UnknownNode { node: node as u64 });
            }
            if self.board.stone_at(node) != Some(player) {
                return Err(Illegal::NotYourStone { node, player });
            }
            if std::mem::replace(&mut seen[node as usize], true) {
                return Err(Illegal::Duplicate { node });
            }
        }
        // Stones whose node would be the player's own territory once they leave are not doomed:
        // surrendering them once paid the owner an award and a bonus for a freed node.
        if !nodes.is_empty() {
            let mut board = self.board.clone();
            board.remove_stones(nodes);
            let (mut claims, mut stack, mut region) = (Vec::new(), Vec::new(), Vec::new());
            regions::claims_into(&board, &mut claims, &mut stack, &mut region);
            if let Some(&node) = nodes.iter().find(|&&n| claims.get(n as usize) == Some(&player.stone())) {
                return Err(Illegal::OwnTerritory { node, player });
            }
        }
        Ok(())
    }

    /// Submits `player`'s Clean-Up choice: the stones of theirs they give up (possibly none).
    /// When the last choice is in, the stones go, awards and the final bonus are paid, and the
    /// game ends.
    pub fn surrender(&mut self, player: Player, nodes: &[NodeId]) -> Result<(), Illegal> {
        self.check_surrender(player, nodes)?;
        self.note(player, Input::Surrender(nodes.to_vec()));
        self.emit(Event::Surrendered { player, nodes: nodes.to_vec(), timeout: false });
        self.submit(player, nodes.to_vec());
        Ok(())
    }

    /// `player`'s Clean-Up time ran out: they surrender nothing.
    pub fn cleanup_time_out(&mut self, player: Player) -> Result<(), Illegal> {
        self.check_cleanup(player)?;
        self.note(player, Input::CleanUpTimeout);
        self.emit(Event::Surrendered { player, nodes: Vec::new(), timeout: true });
        self.submit(player, Vec::new());
        Ok(())
    }

    fn submit(&mut self, player: Player, nodes: Vec<NodeId>) {
        if let Some(s) = self.surrenders.as_mut() {
            s[player.index()] = Some(nodes);
        }
        if self.awaiting_cleanup().is_empty() {
            self.resolve_cleanup();
        }
    }

    /// Removes every surrendered stone at once, pays each to whoever claims its node afterwards,
    /// then the final bonus.
    fn resolve_cleanup(&mut self) {
        let given: Vec<(Player, Vec<NodeId>)> = self
            .surrenders
            .iter()
            .flatten()
            .enumerate()
            .filter_map(|(i, s)| s.as_ref().filter(|s| !s.is_empty()).map(|s| (Player(i as u8), s.clone())))
            .collect();
        let all: Vec<NodeId> = given.iter().flat_map(|(_, s)| s.iter().copied()).collect();
        if !all.is_empty() {
            self.board.remove_stones(&all);
            self.update_claims();
        }
        for (owner, nodes) in given {
            // Grouped by who claims the nodes now, in seat order, disputed last.
            let mut by_claimant: Vec<(Option<Player>, Vec<NodeId>)> = Vec::new();
            for node in nodes {
                let claimant = self.claimant(node);
                match by_claimant.iter_mut().find(|(c, _)| *c == claimant) {
                    Some((_, list)) => list.push(node),
                    None => by_claimant.push((claimant, vec![node])),
                }
            }
            by_claimant.sort_by_key(|(c, _)| c.map_or(u8::MAX, |p| p.0));
            for (claimant, mut nodes) in by_claimant {
                nodes.sort_unstable();
                // Resigned players earn nothing after resigning; nobody is paid for their own
                // stones (possible only when others' surrenders freed the region around them).
                let paid = claimant.filter(|&c| !self.is_resigned(c) && c != owner);
                let award = if paid.is_some() { nodes.len() as i64 * self.rules.surrender_award } else { 0 };
                if let Some(c) = paid {
                    self.points[c.index()] += award;
                }
                self.emit(Event::StonesRemoved { owner, nodes, claimant, award });
            }
        }
        self.pay_final_bonus();
        self.finish(self.ending);
    }

    pub(super) fn pay_final_bonus(&mut self) {
        for p in (0..self.players as u8).map(Player) {
            if self.is_resigned(p) {
                continue;
            }
            let claimed = self.claimed_count(p);
            let points = claimed as i64 * self.rules.final_bonus;
            self.points[p.index()] += points;
            self.emit(Event::FinalBonus { player: p, claimed, points });
        }
    }

    /// Stones the engine suggests `player` surrender in Clean-Up: groups with a single liberty,
    /// which the next opponent move would capture. (The bots' ownership estimates do better.)
    pub fn suggest_surrender(&self, player: Player) -> Vec<NodeId> {
        let mut doomed: Vec<NodeId> = self
            .board
            .map()
            .nodes()
            .filter(|&n| self.board.stone_at(n) == Some(player) && self.board.in_atari(n))
            .collect();
        // Never a stone the rules would refuse (one in the player's own territory).
        while let Err(Illegal::OwnTerritory { node, .. }) = self.check_surrender(player, &doomed) {
            doomed.retain(|&n| n != node);
        }
        doomed
    }
}
