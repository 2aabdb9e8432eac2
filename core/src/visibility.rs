//! Who may see what: the one rule, applied here and nowhere else.
//!
//! A card is visible to a viewer when it is revealed to them, or its zone is public and it
//! is face up, or its zone is the viewer's own owner-visible zone (a hand; a team's zone is
//! its members' own), or it is face
//! up in a hidden zone (a face-up life card). Who may see each card an event names is fixed
//! when the event is written (`event_seen`), and kept beside the log entry. `views.rs` builds
//! what one player sees from these answers.

use crate::content::Visibility;
use crate::db::Db;
use crate::state::decisions::{Request, Response};
use crate::state::events::Event;
use crate::state::log::Seen;
use crate::state::values::Val;
use crate::state::{ObjId, PlayerId, State};

/// Whether `viewer` may see object `id` (a card that left: where it was).
pub fn visible(db: &Db, st: &State, id: ObjId, viewer: PlayerId) -> bool {
    let o = st.obj(id);
    if o.revealed & (1 << viewer) != 0 {
        return true;
    }
    let zone = st.zone(o.zone);
    let decl = &db.rules.zones[zone.decl as usize].1;
    match decl.visibility {
        Visibility::Public => o.face_up,
        Visibility::Owner => st.holds(o.zone, viewer),
        Visibility::Hidden => o.face_up,
    }
}

/// The players who may see `id`, as a bit mask.
pub fn mask(db: &Db, st: &State, id: ObjId) -> u32 {
    (0..st.nplayers)
        .filter(|p| visible(db, st, id, *p))
        .fold(0, |m, p| m | 1 << p)
}

/// Who may see each card `e` names, in the state right after it happened. A move shows the
/// card to whoever sees it where it arrived, or had it revealed to them before it moved, or
/// saw it leave and owns the zone it went to (they put it there). Anyone else gets a blank,
/// even if they saw it leave: so several cards moved together into a zone hidden from a
/// player do not give away their order to them (OP 3-1-8, GD 4-1-6).
pub(crate) fn event_seen(db: &Db, st: &State, e: &Event) -> Seen {
    let mut seen = Seen::new();
    let mut add = |id: ObjId, m: u32| note(&mut seen, st, id, m);
    if e.name == "moved"
        && let (Some(new), Some(old)) = (e.card, e.old)
    {
        let mut m = mask(db, st, new) | st.obj(old).revealed;
        // The old object still records where it was (unless the zone kept the object).
        if let Some(to) = e.to
            && old != new
        {
            for holder in (0..st.nplayers).filter(|p| st.holds(to, *p)) {
                if visible(db, st, old, holder) {
                    m |= 1 << holder;
                }
            }
        }
        add(new, m);
        add(old, m);
    }
    for id in e.card.into_iter().chain(e.old) {
        add(id, mask(db, st, id));
    }
    let mut stack: Vec<&Val> = e.data.iter().map(|(_, v)| v).collect();
    while let Some(v) = stack.pop() {
        match v {
            Val::Card(c) => add(c.card, mask(db, st, c.card)),
            Val::List(l) => stack.extend(l),
            _ => {}
        }
    }
    seen
}

/// Who may see each card the chosen options of a decision name (their `card` and `target`),
/// as the decision is taken: so that another player's decision is shown to a viewer who saw
/// what it chose (`Game::events_for`).
pub(crate) fn decision_seen(db: &Db, st: &State, req: &Request, r: &Response) -> Seen {
    let mut seen = Seen::new();
    if let (Request::Choose { options, .. }, Response::Choose { indices }) = (req, r) {
        for o in indices.iter().filter_map(|i| options.get(*i as usize)) {
            for id in o.card.into_iter().chain(o.target) {
                note(&mut seen, st, id, mask(db, st, id));
            }
        }
    }
    seen
}

/// Records that the players of mask `m` see `id`, once per card (the first record holds).
fn note(seen: &mut Seen, st: &State, id: ObjId, m: u32) {
    if (id.0 as usize) < st.objects.len() && !seen.iter().any(|(s, _)| *s == id) {
        seen.push((id, m));
    }
}

/// Whether every player of mask `seats` may see object `id` now: what a spectator, who may
/// see only what every seat may, is shown.
pub fn visible_to_all(db: &Db, st: &State, id: ObjId, seats: u32) -> bool {
    mask(db, st, id) & seats == seats
}

/// Whether every player of mask `seats` may see card `id` of an entry whose `Seen` list is
/// `seen`.
pub fn shown_to_all(seen: &Seen, id: ObjId, seats: u32) -> bool {
    seen.iter().any(|(s, m)| *s == id && m & seats == seats)
}

/// Whether `viewer` may see card `id` of an entry whose `Seen` list is `seen`.
pub fn shown(seen: &Seen, id: ObjId, viewer: PlayerId) -> bool {
    seen.iter().any(|(s, m)| *s == id && m & (1 << viewer) != 0)
}

/// How a blind option's label begins where it names a card its chooser cannot see: tools
/// tell such an option from one that names no card by it.
pub const BLIND_LABEL: &str = "hidden card";

/// What a choice among hidden cards shows its chooser instead of a card they may not see:
/// where it is, never what it is (`hidden card 2 of 5 in hand of player 2`, counted from the
/// top). A card offered from an opponent's hand or a face-down Life is picked blind, so the
/// option's label, the request in a view and the log's decision name no card (OP 3-1-8,
/// GD 4-1-6, SM 302: hidden zones).
pub(crate) fn blind_label(db: &Db, st: &State, id: ObjId) -> String {
    let o = st.obj(id);
    let zone = st.zone(o.zone);
    let name = &db.rules.zones[zone.decl as usize].1.name;
    let whose = match zone.owner {
        Some(p) => format!(" of player {}", p as u32 + 1),
        None => String::new(),
    };
    let n = zone.cards.len();
    match zone.cards.iter().position(|c| *c == id) {
        Some(i) => format!("{BLIND_LABEL} {} of {n} in {name}{whose}", n - i),
        None => format!("{BLIND_LABEL} in {name}{whose}"),
    }
}
