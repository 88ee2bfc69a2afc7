//! A deliberately naive Go engine for differential tests: whole-board copies and flood fills,
//! written straight from the rules with none of the fast board's tricks.
#![allow(dead_code)]
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on setup failures

use std::sync::Arc;

use gobeyond_maps::{Map, NodeId};
use gobeyond_rules::{KoRule, SuicideRule};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NaiveError {
    Occupied,
    Ko,
    Superko,
    Suicide,
}

#[derive(Debug, Clone)]
pub struct Naive {
    pub map: Arc<Map>,
    pub players: u8,
    pub color: Vec<u8>,
    pub to_move: u8,
    pub ko: KoRule,
    pub suicide: SuicideRule,
    /// Positions after every action, with the player to move then.
    pub history: Vec<(Vec<u8>, u8)>,
    pub last_was_pass: bool,
    pub passes: u32,
    pub captured_total: u32,
}

impl Naive {
    pub fn new(map: Arc<Map>, players: u8, ko: KoRule, suicide: SuicideRule) -> Naive {
        let color = vec![0; map.len()];
        Naive {
            history: vec![(color.clone(), 0)],
            map,
            players,
            color,
            to_move: 0,
            ko,
            suicide,
            last_was_pass: false,
            passes: 0,
            captured_total: 0,
        }
    }

    fn group(&self, color: &[u8], start: NodeId) -> (Vec<NodeId>, bool) {
        let c = color[start as usize];
        let mut seen = vec![false; color.len()];
        let mut stack = vec![start];
        seen[start as usize] = true;
        let mut stones = Vec::new();
        let mut has_liberty = false;
        while let Some(v) = stack.pop() {
            stones.push(v);
            for &w in self.map.neighbors(v) {
                let cw = color[w as usize];
                if cw == 0 {
                    has_liberty = true;
                } else if cw == c && !seen[w as usize] {
                    seen[w as usize] = true;
                    stack.push(w);
                }
            }
        }
        (stones, has_liberty)
    }

    /// The position after `to_move` plays `p`, or why it is illegal; also the number captured.
    pub fn try_place(&self, p: NodeId) -> Result<(Vec<u8>, u32), NaiveError> {
        if self.color[p as usize] != 0 {
            return Err(NaiveError::Occupied);
        }
        let s = self.to_move + 1;
        let mut new = self.color.clone();
        new[p as usize] = s;
        // All opponent groups without liberties, found before any is removed.
        let mut dead = Vec::new();
        for n in self.map.nodes() {
            let c = new[n as usize];
            if c != 0 && c != s && !dead.contains(&n) {
                let (stones, free) = self.group(&new, n);
                if !free {
                    dead.extend(stones);
                }
            }
        }
        dead.sort_unstable();
        dead.dedup();
        for &d in &dead {
            new[d as usize] = 0;
        }
        let captured = dead.len() as u32;
        let (own, free) = self.group(&new, p);
        if !free {
            match self.suicide {
                SuicideRule::Forbidden => return Err(NaiveError::Suicide),
                SuicideRule::MultiStoneOnly if own.len() == 1 => return Err(NaiveError::Suicide),
                _ => {
                    for &o in &own {
                        new[o as usize] = 0;
                    }
                }
            }
        }
        let next = self.next_player();
        match self.ko {
            KoRule::None => {}
            KoRule::Simple => {
                if captured == 1
                    && !self.last_was_pass
                    && self.history.len() >= 2
                    && self.history[self.history.len() - 2].0 == new
                {
                    return Err(NaiveError::Ko);
                }
            }
            KoRule::PositionalSuperko => {
                if self.history.iter().any(|(pos, _)| *pos == new) {
                    return Err(if self.is_simple_ko(&new, captured) {
                        NaiveError::Ko
                    } else {
                        NaiveError::Superko
                    });
                }
            }
            KoRule::SituationalSuperko => {
                if self.history.iter().any(|(pos, tm)| *pos == new && *tm == next) {
                    return Err(if self.is_simple_ko(&new, captured) {
                        NaiveError::Ko
                    } else {
                        NaiveError::Superko
                    });
                }
            }
        }
        Ok((new, captured))
    }

    fn is_simple_ko(&self, new: &[u8], captured: u32) -> bool {
        captured == 1
            && !self.last_was_pass
            && self.history.len() >= 2
            && self.history[self.history.len() - 2].0 == new
    }

    pub fn next_player(&self) -> u8 {
        (self.to_move + 1) % self.players
    }

    pub fn place(&mut self, p: NodeId) -> Result<u32, NaiveError> {
        let (new, captured) = self.try_place(p)?;
        self.color = new;
        self.captured_total += captured;
        self.to_move = self.next_player();
        self.history.push((self.color.clone(), self.to_move));
        self.last_was_pass = false;
        self.passes = 0;
        Ok(captured)
    }

    pub fn pass(&mut self) {
        self.to_move = self.next_player();
        self.history.push((self.color.clone(), self.to_move));
        self.last_was_pass = true;
        self.passes += 1;
    }

    pub fn legal_places(&self) -> Vec<NodeId> {
        self.map.nodes().filter(|&p| self.try_place(p).is_ok()).collect()
    }
}
