//! Which abilities are live where: the objects of a card in the zones where one of its
//! abilities works (attached cards included, at any depth, as their attachment rules
//! allow), whether an object's abilities are suppressed and since when, and whether an
//! ability it has works now. Trigger collection, static and replacement abilities,
//! `ctx:abilities` and the kernel-listed actions all ask here.

use std::cell::Cell;

use mlua::{Lua, Result};

use super::collect;
use crate::content::CharKind;
use crate::db::{Ability, AbilityKind, AbilityOutline, AbilityRef, Db};
use crate::names::Sym;
use crate::state::char_cache::read_place;
use crate::state::effects::Modify;
use crate::state::{ObjId, State};

/// Which abilities of an index a walk of the game's cards must find (the test that put
/// them in it: `engine::indexes`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Indexed {
    /// Triggered abilities on this event (`Db::triggers_by_event`).
    Trigger(Sym),
    /// Static abilities that modify this characteristic (`Db::statics_by_char`).
    Static(Sym),
    /// Replacement abilities (`Db::replacements`).
    Replacement,
}

impl Indexed {
    fn wants(self, o: &AbilityOutline) -> bool {
        match self {
            Indexed::Trigger(e) => o.kind == AbilityKind::Triggered && o.on == Some(e),
            Indexed::Static(c) => o.kind == AbilityKind::Static && o.modifies.contains(&c),
            Indexed::Replacement => o.kind == AbilityKind::Replacement,
        }
    }
}

thread_local! {
    // A suppression that depends on a suppression that depends on... (a card negating the
    // card that negates it): past this depth a source counts as not suppressed.
    static SUPPRESS_DEPTH: Cell<u32> = const { Cell::new(0) };
}
const MAX_SUPPRESS_DEPTH: u32 = 3;

/// How deep in suppression decisions a read is made now (0: in none).
pub(super) fn suppress_depth() -> u32 {
    SUPPRESS_DEPTH.with(|d| d.get())
}

/// How deep the ability search follows attachments (only a broken state nests deeper).
const MAX_ATTACHMENT_DEPTH: usize = 64;

impl Db {
    /// The abilities of `list` (one of the engine's indexes, which `what` says: the rules'
    /// abilities first, then the cards' by card index and ability index) that are the rules'
    /// or of a card this game holds, in the list's order. Walks the list or the game's
    /// cards, whichever is shorter, so that the cards loaded in no deck of this game cost
    /// nothing (10,000 cards of a mod, each with an [On Play], made every "played" event
    /// walk 10,000 entries).
    pub(crate) fn held_abilities<'a>(
        &'a self,
        st: &'a State,
        list: &'a [AbilityRef],
        what: Indexed,
    ) -> impl Iterator<Item = AbilityRef> + 'a {
        let (rules, cards) = list.split_at(list.partition_point(|r| r.0.is_none()));
        let held = st.present.cards();
        let by_list = cards.len() <= held.len();
        let from_list = by_list.then(|| {
            cards
                .iter()
                .copied()
                .filter(move |r| r.0.is_some_and(|c| st.has_card(c)))
        });
        let from_held = (!by_list).then(|| {
            held.iter().flat_map(move |&c| {
                let outline = self.cards.get(c as usize).map_or(&[][..], |d| &d.outline);
                outline
                    .iter()
                    .enumerate()
                    .filter(move |(_, o)| what.wants(o))
                    .map(move |(ai, _)| (Some(c), ai))
            })
        });
        rules
            .iter()
            .copied()
            .chain(from_list.into_iter().flatten())
            .chain(from_held.into_iter().flatten())
    }

    /// Zone declarations where an ability works.
    pub fn ability_zones<'a>(&'a self, ab: &'a Ability) -> &'a [usize] {
        if ab.zones.is_empty() {
            &self.in_play
        } else {
            &ab.zones
        }
    }

    /// Objects of card `card` that are in a zone where ability `ab` works: the zone's cards
    /// and the cards attached to them at any depth (an attached card is in its host's
    /// zone). Suppression (an attachment rule's `abilities: suppressed`, which a card or
    /// an ability may be exempt from, and `abilities.suppressed_by`) needs Lua, so callers
    /// filter these with `characteristics::ability_works`.
    pub fn sources(&self, st: &State, card: u32, ab: &Ability) -> Vec<ObjId> {
        let mut out = Vec::new();
        if ab.dormant || !st.has_card(card) {
            // Works only when given by an effect; or no object of the card is in this game.
            return out;
        }
        for &decl in self.ability_zones(ab) {
            let row = &st.zone_ids[decl];
            // A team's zone is listed once per member: walk it once.
            for (k, z) in row.iter().enumerate() {
                if row[..k].contains(z) {
                    continue;
                }
                // (Noted as the walk's: `char_cache::read_statics`.)
                for &id in &st.zone_unnoted(*z).cards {
                    if st.obj(id).definition == card {
                        out.push(id);
                    }
                    self.working_attachments_of(st, id, card, 0, &mut out);
                }
            }
        }
        out
    }

    /// Whether object `x` is one of `sources(st, card, ab)`, without listing them: for an
    /// ability whose `match` names the event's or operation's card as its own, that card is
    /// the only source that can pass.
    pub fn is_source(&self, st: &State, card: u32, ab: &Ability, x: ObjId) -> bool {
        if ab.dormant || st.obj(x).definition != card {
            return false;
        }
        // Up the attachments to the card in a zone, within the depth `sources` follows.
        let mut cur = x;
        for _ in 0..=MAX_ATTACHMENT_DEPTH + 1 {
            let o = st.obj(cur);
            let Some(host) = o.attached_to else {
                let z = st.zone(o.zone);
                return self.ability_zones(ab).contains(&(z.decl as usize))
                    && z.cards.contains(&cur);
            };
            if !st.obj(host).attachments.contains(&cur) {
                return false;
            }
            cur = host;
        }
        false
    }

    /// Pushes onto `out` the cards of card `card` attached under `host` at any depth (depth
    /// first, oldest first), without allocating.
    fn working_attachments_of(
        &self,
        st: &State,
        host: ObjId,
        card: u32,
        depth: usize,
        out: &mut Vec<ObjId>,
    ) {
        if depth > MAX_ATTACHMENT_DEPTH {
            return; // only a broken state nests this deep
        }
        for &a in &st.obj(host).attachments {
            if st.obj(a).definition == card {
                out.push(a);
            }
            self.working_attachments_of(st, a, card, depth + 1, out);
        }
    }

    /// Card `id` and the cards attached to it at any depth, host before its attachments,
    /// attachments oldest first.
    pub fn stack(&self, st: &State, id: ObjId) -> Vec<ObjId> {
        let mut out = vec![id];
        let mut i = 0;
        // Depth first, in order: each card's attachments right after it.
        while i < out.len() {
            let host = out[i];
            let below: Vec<_> = st
                .obj(host)
                .attachments
                .iter()
                .copied()
                .filter(|a| !out.contains(a)) // a broken state must not loop
                .collect();
            out.splice(i + 1..i + 1, below);
            i += 1;
        }
        out
    }

    /// The attachment rule for `id`'s category (whether or not it is attached now).
    pub fn attach_rule(&self, st: &State, id: ObjId) -> Option<&crate::rules::AttachRule> {
        self.rules
            .attach_rule(self.cards[st.obj(id).definition as usize].category)
    }

    /// Whether the continuous effects on `id` are paused: it is attached under a rule with
    /// `effects: pause`.
    pub fn effects_paused(&self, st: &State, id: ObjId) -> bool {
        let pauses = self.attach_rule(st, id).is_some_and(|r| r.pause_effects);
        if pauses {
            // The answer changes when it is attached or detached.
            read_place(id);
        }
        pauses && st.obj(id).attached_to.is_some()
    }
}

/// Since when the abilities of object `id` are suppressed (the ruleset's
/// `abilities.suppressed_by` name is in its set characteristic): the timestamp of the
/// effect or static ability that put the name there, or None when its abilities work.
/// A card that left play keeps the answer it had when it left (`u64::MAX` if suppressed).
/// The `including_later` name suppresses later gains too: `SUPPRESSES_LATER_GAINS`.
pub fn suppressed_since(lua: &Lua, db: &Db, st: &State, id: ObjId) -> Result<Option<u64>> {
    // An attached card whose rule (or a host's rule above it) suppresses its abilities:
    // everything it has, printed or gained, earlier or later.
    if !attached_abilities_work(lua, db, st, id)? {
        return Ok(Some(SUPPRESSES_LATER_GAINS));
    }
    suppressed_by_since(lua, db, st, id)
}

/// Whether the abilities of `id` work as far as attachment goes: it is attached to
/// nothing, or every card on the way from it up to the card in a zone is attached under a
/// rule whose `abilities` is `work`, or is exempt from it (the rule's `unless` name is in
/// its characteristic). For a card that left, as it was when it left.
pub fn attached_abilities_work(lua: &Lua, db: &Db, st: &State, id: ObjId) -> Result<bool> {
    let mut cur = id;
    for _ in 0..st.objects.len() {
        read_place(cur);
        let Some(host) = st.obj(cur).attached_to else {
            return Ok(true);
        };
        match db.attach_rule(st, cur) {
            Some(r) if !r.abilities_work => match r.unless {
                Some((ci, name)) if holds_name(lua, db, st, cur, ci, name)? => {}
                _ => return Ok(false),
            },
            _ => {}
        }
        cur = host;
    }
    Ok(true)
}

/// Whether set characteristic `ci` of `id` holds `name`, as printed and as effects and
/// static abilities change it, suppression left aside (the name is what exempts the card
/// from it: reading the value through the suppression would go round).
fn holds_name(
    lua: &Lua,
    db: &Db,
    st: &State,
    id: ObjId,
    ci: usize,
    name: crate::names::Sym,
) -> Result<bool> {
    let o = st.obj(id);
    if !o.alive
        && let Some(lk) = &o.last_known
        && let Some(crate::state::LastKnown::Set(v)) = lk.get(ci)
    {
        return Ok(v.contains(&name));
    }
    let mut on = db.cards[o.definition as usize].set(ci).contains(&name);
    if SUPPRESS_DEPTH.with(|d| d.get()) >= MAX_SUPPRESS_DEPTH {
        return Ok(on);
    }
    SUPPRESS_DEPTH.with(|d| d.set(d.get() + 1));
    let found = collect(lua, db, st, id, db.rules.chars[ci].sym, CharKind::Set);
    SUPPRESS_DEPTH.with(|d| d.set(d.get() - 1));
    for f in found? {
        match f.modify {
            Modify::Grant(s) if s == name => on = true,
            Modify::Revoke(s) if s == name => on = false,
            Modify::SetNames(list) => on = list.contains(&name),
            _ => {}
        }
    }
    Ok(on)
}

/// Since when `abilities.suppressed_by` suppresses the abilities of `id` (attachment left
/// aside): as `suppressed_since`.
fn suppressed_by_since(lua: &Lua, db: &Db, st: &State, id: ObjId) -> Result<Option<u64>> {
    let Some((ci, name, later)) = db.rules.suppression else {
        return Ok(None);
    };
    let o = st.obj(id);
    if !o.alive
        && let Some(lk) = &o.last_known
        && let Some(crate::state::LastKnown::Set(v)) = lk.get(ci)
    {
        let on = v.contains(&name) || later.is_some_and(|l| v.contains(&l));
        return Ok(on.then_some(u64::MAX));
    }
    if SUPPRESS_DEPTH.with(|d| d.get()) >= MAX_SUPPRESS_DEPTH {
        return Ok(None);
    }
    SUPPRESS_DEPTH.with(|d| d.set(d.get() + 1));
    let found = collect(lua, db, st, id, db.rules.chars[ci].sym, CharKind::Set);
    SUPPRESS_DEPTH.with(|d| d.set(d.get() - 1));
    let printed = db.cards[o.definition as usize].set(ci);
    let mut since = printed.contains(&name).then_some(0);
    let mut all = later.is_some_and(|l| printed.contains(&l));
    for f in found? {
        match f.modify {
            Modify::Grant(s) if s == name && since.is_none() => since = Some(f.ts),
            Modify::Revoke(s) if s == name => since = None,
            Modify::Grant(s) if Some(s) == later => all = true,
            Modify::Revoke(s) if Some(s) == later => all = false,
            Modify::SetNames(list) => {
                if !list.contains(&name) {
                    since = None;
                } else if since.is_none() {
                    since = Some(f.ts);
                }
                all = later.is_some_and(|l| list.contains(&l));
            }
            _ => {}
        }
    }
    Ok(if all {
        Some(SUPPRESSES_LATER_GAINS)
    } else {
        since
    })
}

/// The `suppressed_since` of a card whose suppression covers every gain, earlier or later
/// (also an attached card whose attachment rule suppresses its abilities).
pub const SUPPRESSES_LATER_GAINS: u64 = u64::MAX - 1;

/// The `gained` timestamp of an ability no suppression stops (a delayed ability: the
/// effect of an ability that already resolved).
pub const NEVER_SUPPRESSED: u64 = u64::MAX;

/// Whether ability `ab` of object `id`, which it gained at timestamp `gained` (0:
/// printed), works now: its abilities are not suppressed, or it gained this one after the
/// suppression began, or the ability is exempt (`unlosable`: from any suppression;
/// `attached = "works"`: from its attachment rule's).
pub fn ability_works(
    lua: &Lua,
    db: &Db,
    st: &State,
    id: ObjId,
    gained: u64,
    ab: &Ability,
) -> Result<bool> {
    if gained == NEVER_SUPPRESSED {
        return Ok(true);
    }
    // An ability an effect gave it is paused with the other effects on an attached card.
    if gained != 0 && db.effects_paused(st, id) {
        return Ok(false);
    }
    if ab.unlosable {
        return Ok(true);
    }
    let since = if ab.works_attached {
        suppressed_by_since(lua, db, st, id)?
    } else {
        suppressed_since(lua, db, st, id)?
    };
    Ok(since.is_none_or(|t| gained > t))
}
