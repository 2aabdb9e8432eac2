//! Definition redirects (`state/definitions.rs`): which card definition each object takes
//! now, from the redirect effects and the ruleset's `stand_ins` zones.

use crate::db::Db;
use crate::state::effects::{Modify, Target};
use crate::state::{ObjId, PlayerId, State};

/// Makes every object in the game take the definition its latest redirect names, else
/// that of a card of its owner standing in for its name (the ruleset's `stand_ins`
/// zones), else its own; and marks those definitions present (their abilities may now
/// have sources here). Objects that left keep the definition they had when they left.
pub fn refresh_definitions(db: &Db, st: &mut State) {
    // (owner, definition) of every card in a stand-in zone.
    let mut standing: Vec<(PlayerId, u32)> = Vec::new();
    for &decl in &db.rules.stand_in_zones {
        let row = &st.zone_ids[decl];
        for (k, z) in row.iter().enumerate() {
            if row[..k].contains(z) {
                continue;
            }
            for &id in &st.zone(*z).cards {
                let o = st.obj(id);
                standing.push((o.owner, o.card));
            }
        }
    }
    st.redirected |= !standing.is_empty();
    if !st.redirected {
        return;
    }
    // (target, timestamp, definition) of the latest redirect per object.
    let mut latest: Vec<(ObjId, u64, u32)> = Vec::new();
    for e in st.effects.iter() {
        if let (Target::Obj(id), Modify::Definition(d)) = (e.target, &e.modify) {
            match latest.iter_mut().find(|x| x.0 == id) {
                Some(x) if x.1 < e.timestamp => *x = (id, e.timestamp, *d),
                Some(_) => {}
                None => latest.push((id, e.timestamp, *d)),
            }
        }
    }
    let changes: Vec<(ObjId, u32)> = st
        .objects
        .iter()
        .filter(|o| o.alive)
        .filter_map(|o| {
            let in_stand_in = db
                .rules
                .stand_in_zones
                .contains(&(st.zone(o.zone).decl as usize));
            let stand_in = || {
                let name = &db.cards[o.card as usize].name;
                standing
                    .iter()
                    .find(|(owner, d)| {
                        *owner == o.owner && !in_stand_in && db.cards[*d as usize].name == *name
                    })
                    .map(|x| x.1)
            };
            let want = match latest.iter().find(|x| x.0 == o.id) {
                Some(x) => x.2,
                None => stand_in().unwrap_or(o.card),
            };
            (want != o.definition).then_some((o.id, want))
        })
        .collect();
    for (id, d) in changes {
        st.obj_mut(id).definition = d;
        st.mark_present(d);
    }
}
