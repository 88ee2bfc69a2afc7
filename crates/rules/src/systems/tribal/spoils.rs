//! The spoils of a removed group (rules 30–31, A8 of `docs/rules/spec/tribal.md`): its stones
//! shared out as prisoners among the players touching it, the balance to the one who removed it.
//! Sharing deals the stones by (owner, node), so it needs only how many stones of each colour
//! the group held and who touches it; the stones themselves are listed for the event alone.

use gobeyond_maps::NodeId;

use super::TribalGame;
use crate::{MAX_PLAYERS, Player};

/// A removed group as sharing it needs: its stones by colour and the players touching it; its
/// stones and their owners when events are recorded (else empty).
#[derive(Debug, Default)]
pub(super) struct Spoils {
    /// Stones of each colour (by seat).
    pub(super) colours: [u32; MAX_PLAYERS],
    /// The seats with a stone next to the group (not in it), a bit each.
    pub(super) recipients: u8,
    /// The stones, in the order the group search finds them (for the event).
    pub(super) stones: Vec<NodeId>,
    /// Each of `stones`' owner (for the event).
    pub(super) owners: Vec<Player>,
}

impl Spoils {
    /// The spoils of the group `stones`, whose owners are `owners`, touched by `recipients`.
    pub(super) fn of_stones(stones: Vec<NodeId>, owners: Vec<Player>, recipients: &[Player]) -> Spoils {
        let mut colours = [0; MAX_PLAYERS];
        for o in &owners {
            colours[o.index()] += 1;
        }
        let recipients = recipients.iter().fold(0u8, |mask, p| mask | 1 << p.0);
        Spoils { colours, recipients, stones, owners }
    }
}

impl TribalGame {
    /// Players with a stone next to `stones` (not in it): the spoils' recipients (rule 30, A8),
    /// each with how many of their stones touch it.
    pub(super) fn touching(&self, stones: &[NodeId]) -> Vec<(Player, u32)> {
        const INSIDE: u8 = 1;
        const COUNTED: u8 = 2;
        let mut mark = vec![0u8; self.map.len()];
        for &v in stones {
            mark[v as usize] = INSIDE;
        }
        let mut contact = vec![0u32; self.players];
        for &v in stones {
            for &w in self.map.neighbors(v) {
                if let Some(p) = self.stone_at(w)
                    && mark[w as usize] == 0
                {
                    mark[w as usize] = COUNTED;
                    contact[p.index()] += 1;
                }
            }
        }
        contact.iter().enumerate().filter(|(_, c)| **c > 0).map(|(p, c)| (Player(p as u8), *c)).collect()
    }

    /// A prisoner of `colour` for `holder`; one's own colour goes back to the supply.
    pub(super) fn give_prisoner(&mut self, holder: Player, colour: Player) {
        if holder == colour {
            self.back_to_supply(colour, 1);
        } else {
            self.prisoners[holder.index()][colour.index()] += 1;
        }
    }

    pub(super) fn back_to_supply(&mut self, colour: Player, stones: u32) {
        if let Some(s) = self.supply[colour.index()].as_mut() {
            *s += stones;
        }
    }

    /// Shares a removed group's stones (rules 30–31): ⌊|g|/k⌋ each to the `k` recipients, the
    /// balance to `lead` (the killer), dealt by (owner, node) to `lead` first, then the others
    /// in turn order after `lead`; without recipients they go back to their supplies. Returns
    /// the shares when events are recorded (they are the event's only use).
    pub(super) fn share(&mut self, spoils: &Spoils, lead: Player) -> Vec<(Player, u32)> {
        let mut shares = Vec::new();
        if spoils.recipients == 0 {
            for (c, &count) in spoils.colours.iter().enumerate().take(self.players) {
                self.back_to_supply(Player(c as u8), count);
            }
            return shares;
        }
        let total: u32 = spoils.colours.iter().sum();
        let k = spoils.recipients.count_ones();
        let (each, balance) = (total / k, total % k);
        // The stones in dealing order are the colours in seat order, each as often as it has
        // stones: a cursor over (colour, stones left of it).
        let mut colour = 0;
        let mut left = spoils.colours[0];
        for i in 0..self.players {
            let r = Player(((lead.index() + i) % self.players) as u8);
            if i > 0 && spoils.recipients & 1 << r.0 == 0 {
                continue;
            }
            let count = each + if i == 0 { balance } else { 0 };
            for _ in 0..count {
                while left == 0 && colour + 1 < MAX_PLAYERS {
                    colour += 1;
                    left = spoils.colours[colour];
                }
                if left == 0 {
                    break;
                }
                left -= 1;
                self.give_prisoner(r, Player(colour as u8));
            }
            if self.record_events {
                shares.push((r, count));
            }
        }
        shares
    }
}
