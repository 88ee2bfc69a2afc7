//! Alliances (`docs/rules/spec/tribal.md`, rules 49–56): contact counts and who may surrender to
//! whom. Accepting, switching and independence are turns, in the game's flow.

use super::{Illegal, TribalGame};
use crate::Player;

impl TribalGame {
    /// c(q, p): how many of `q`'s stones touch at least one of `p`'s (rule 49).
    pub fn contact(&self, q: Player, p: Player) -> u32 {
        let (qc, pc) = (q.0 + 1, p.0 + 1);
        self.map
            .nodes()
            .filter(|&v| {
                self.owner[v as usize] == qc
                    && self.map.neighbors(v).iter().any(|&w| self.owner[w as usize] == pc)
            })
            .count() as u32
    }

    /// Whether `p` may offer to surrender to `q` (rules 50, 53, 55).
    pub fn check_surrender(&self, p: Player, q: Player) -> Result<(), Illegal> {
        let bad = |m: String| Err(Illegal::Surrender(m));
        if self.players < 3 {
            return bad("alliances need 3 or more players".into());
        }
        if q == p || q.index() >= self.players {
            return bad("name another player".into());
        }
        if self.occupier(q).is_some() {
            return bad(format!("player {} is occupied: only an independent faction accepts", q.0 + 1));
        }
        if self.occupier.contains(&Some(p)) {
            return bad("a faction that occupies others cannot surrender".into());
        }
        let c = self.contact(q, p);
        if c == 0 {
            return bad(format!("player {} has no stone in contact with yours", q.0 + 1));
        }
        let most = (0..self.players as u8)
            .map(Player)
            .filter(|&o| o != p)
            .map(|o| self.contact(o, p))
            .max()
            .unwrap_or(0);
        if c < most {
            return bad(format!(
                "only to a player with the most stones in contact ({most}); player {} has {c}",
                q.0 + 1
            ));
        }
        if let Some(a) = self.occupier(p) {
            if a == q {
                return bad("already occupied by that player".into());
            }
            if c <= self.contact(a, p) {
                return bad("switching needs more stones in contact than the current occupier has".into());
            }
        }
        Ok(())
    }
}
