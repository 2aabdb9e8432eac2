//! Dealing again what a player cannot see: a copy of the game consistent with everything
//! one seat sees and was told, with the rest at random. A search that must not peek
//! (information-set Monte Carlo) plays on such copies, and the tests check with them that
//! nothing a seat receives depends on what it cannot see.

use std::collections::HashSet;

use super::Game;
use crate::operations;
use crate::rng::Rng;
use crate::state::{ObjId, PlayerId};
use crate::visibility;

impl Game {
    /// A copy of the game in which the cards `viewer` cannot see are dealt again at random
    /// (`seed`): each owner's hidden cards trade identities among themselves (hands, decks,
    /// face-down cards, and so their order), so every count stays, every card `viewer`
    /// sees stays, and so does every card the log showed them where it still is (a card
    /// they saw go into an opponent's hand). Cards attached to others, and tokens, keep
    /// theirs. The pending question stays as it was asked: its options name the same
    /// objects, and those another player sees name their cards as they were (a search
    /// answers `viewer`'s questions on the copy, and plays on from there).
    ///
    /// Two games that `viewer` cannot tell apart give the same copy for the same seed: its
    /// cards depend on what they know, never on where the hidden cards really are.
    ///
    /// The cards dealt are those of the game itself: a search on the copy knows how many
    /// of each card a deck holds, as a player who knows the deck lists does. A log kept
    /// without its entries (fast playouts) tells nothing of what was shown, so only what
    /// the viewer sees now stays. Refused where a script is suspended (its locals may hold
    /// what it read of a card): deal at a decision of an open phase or a window.
    pub fn redeal(&self, viewer: PlayerId, seed: u64) -> Result<Game, String> {
        if viewer >= self.players() {
            return Err(format!(
                "no seat {viewer}: this game has {} players",
                self.players()
            ));
        }
        if !self.quiescent() {
            return Err(
                "a script is suspended here: deal again at a decision no effect is in the middle of"
                    .into(),
            );
        }
        // The copy takes its own snapshot: this game's is not read.
        let mut g = self.copy();
        {
            let db = &g.engine.db;
            let mut st = g.state.borrow_mut();
            // What the log showed the viewer, object by object (a card that moved since is
            // another object: they lost track of it, unless its move showed it to them).
            let told: HashSet<ObjId> = st
                .log
                .seen()
                .iter()
                .flatten()
                .filter(|(_, m)| m & (1 << viewer) != 0)
                .map(|(id, _)| *id)
                .collect();
            let mut by_owner: Vec<Vec<ObjId>> = vec![Vec::new(); st.nplayers as usize];
            for o in st.objects.iter() {
                let dealt = o.alive
                    && !o.token
                    && o.attached_to.is_none()
                    && o.attachments.is_empty()
                    && !told.contains(&o.id)
                    && !visibility::visible(db, &st, o.id, viewer);
                if dealt {
                    by_owner[o.owner as usize].push(o.id);
                }
            }
            let mut rng = Rng::new(seed);
            for ids in &by_owner {
                let mut cards: Vec<u32> = ids.iter().map(|id| st.obj(*id).card).collect();
                // Sorted first: the copy then depends on what the viewer knows and the
                // seed, not on where the hidden cards really are (a search that deals
                // again answers the same whatever it cannot see).
                cards.sort_unstable();
                rng.shuffle(&mut cards);
                for (id, card) in ids.iter().zip(cards) {
                    let o = st.obj_mut(*id);
                    o.card = card;
                    o.definition = card;
                }
            }
            // Redirected definitions and stand-ins follow the cards now there.
            operations::refresh_definitions(db, &mut st);
            // Other cards now: every check looks again.
            st.checks_stale = u64::MAX;
            st.chars.clear();
        }
        g.enter();
        // Forks of the copy start from here.
        g.take_snapshot();
        Ok(g)
    }
}
