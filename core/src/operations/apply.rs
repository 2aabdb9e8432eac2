//! Applying an operation to the state: the changes it makes and the events it causes.

use super::*;
use crate::sandbox::numbers;
use crate::state::values::CardRef;

/// Applies one operation. `last_known` is the leaving card's characteristics (computed by
/// the caller, which may call Lua; this function never does).
pub fn apply(
    db: &Db,
    st: &mut State,
    op: &Op,
    last_known: Option<Vec<LastKnown>>,
) -> (Outcome, Vec<Event>) {
    let mut events = Vec::new();
    st.ops_since_decision += 1;
    // The effects and abilities given before, to tell whether any came or went (a move ends
    // or carries those on the card that moved).
    // (Held only where characteristics are kept: a copy held makes the first change copy.)
    let given =
        (db.hooks.char_marks.declared != 0).then(|| (st.effects.clone(), st.grants.clone()));
    // The host a moving card leaves (its attachments change: `mark_changes`).
    let left_host = match op {
        Op::Move { card, .. } if db.hooks.char_marks.per_card != 0 => st.obj(*card).attached_to,
        _ => None,
    };
    let out = match op {
        Op::Move {
            card,
            zone,
            player,
            position,
            face,
            orientation,
            reason,
            by,
            host,
        } => {
            match move_card(
                db,
                st,
                *card,
                *zone,
                *player,
                *position,
                *face,
                *orientation,
                reason,
                *by,
                *host,
                last_known,
                &mut events,
            ) {
                Some(id) => Outcome::Card(id),
                None => Outcome::Nothing,
            }
        }
        Op::Shuffle(z) => {
            let mut cards = std::mem::take(&mut st.zone_mut(*z).cards);
            st.rng.shuffle(&mut cards);
            // Once shuffled, nobody knows which card is where: looks and reveals end (a
            // card seen before the shuffle would otherwise still be told apart after it).
            for c in &cards {
                st.obj_mut(*c).revealed = 0;
            }
            st.zone_mut(*z).cards = cards;
            let mut e = Event::named("shuffled");
            e.to = Some(*z);
            e.player = st.zone(*z).owner;
            events.push(e);
            Outcome::Done
        }
        Op::Orientation {
            card,
            value,
            reason,
            by,
        } => {
            let o = st.obj(*card);
            if !o.alive || o.orientation == *value || o.attached_to.is_some() {
                Outcome::Nothing
            } else {
                st.obj_mut(*card).orientation = *value;
                let mut e = Event::named("turned");
                e.card = Some(*card);
                e.key = Some(db.names.name(*value).to_string());
                e.reason = reason.clone();
                e.player = *by;
                events.push(e);
                Outcome::Done
            }
        }
        Op::Face { card, up } => {
            if !st.obj(*card).alive || st.obj(*card).face_up == *up {
                Outcome::Nothing
            } else {
                st.obj_mut(*card).face_up = *up;
                let mut e = Event::named("flipped");
                e.card = Some(*card);
                e.amount = *up as i64;
                events.push(e);
                Outcome::Done
            }
        }
        Op::Flag { card, flag, on } => {
            let bit = 1u64 << flag;
            let o = st.obj_mut(*card);
            let before = o.flags & bit != 0;
            if before == *on {
                Outcome::Nothing
            } else {
                if *on {
                    o.flags |= bit
                } else {
                    o.flags &= !bit
                }
                let mut e = Event::named("flag");
                e.card = Some(*card);
                e.key = Some(db.names.name(db.rules.flags.syms[*flag]).to_string());
                e.amount = *on as i64;
                events.push(e);
                Outcome::Done
            }
        }
        Op::Counter {
            card,
            counter,
            amount,
            reason,
            by,
        } => {
            if !st.obj(*card).alive || *amount == 0 {
                Outcome::Nothing
            } else {
                let o = st.obj_mut(*card);
                let before = o.counters[*counter];
                // Saturating: counters stay within what scripts can read exactly.
                let after = numbers::saturate(before.saturating_add(*amount)).max(0);
                o.counters[*counter] = after;
                if after == before {
                    Outcome::Nothing
                } else {
                    let mut e = Event::named("counter");
                    e.card = Some(*card);
                    e.key = Some(db.names.name(db.rules.counters.syms[*counter]).to_string());
                    e.amount = after - before;
                    e.reason = reason.clone();
                    e.player = *by;
                    events.push(e);
                    Outcome::Int(after)
                }
            }
        }
        Op::Reveal { cards, mask } => {
            for c in cards {
                st.obj_mut(*c).revealed |= mask;
                let mut e = Event::named("revealed");
                e.card = Some(*c);
                e.amount = *mask as i64;
                events.push(e);
            }
            Outcome::Done
        }
        Op::Conceal { cards } => {
            for c in cards {
                st.obj_mut(*c).revealed = 0;
            }
            Outcome::Done
        }
        Op::Token {
            card,
            zone,
            player,
            orientation,
            face,
        } => {
            let cap = db.rules.zones[st.zone(*zone).decl as usize].1.capacity;
            if cap.is_some_and(|c| st.zone(*zone).cards.len() as u32 >= c) {
                return (Outcome::Nothing, events); // full: no token
            }
            let id = new_object(db, st, *card, *player, *zone, *face, *orientation);
            st.obj_mut(id).token = true;
            place(st, id, *zone, Position::Top);
            let mut e = Event::named("created");
            e.card = Some(id);
            e.to = Some(*zone);
            e.player = Some(*player);
            events.push(e);
            Outcome::Card(id)
        }
        Op::Control { card, player } => {
            if st.obj(*card).controller == *player {
                Outcome::Nothing
            } else {
                st.obj_mut(*card).controller = *player;
                let mut e = Event::named("controller");
                e.card = Some(*card);
                e.player = Some(*player);
                events.push(e);
                Outcome::Done
            }
        }
        Op::Value {
            player,
            index,
            set,
            add,
        } => {
            let slot = match player {
                Some(p) => &mut Arc::make_mut(&mut st.players)[*p as usize].values[*index],
                None => &mut Arc::make_mut(&mut st.game_values)[*index],
            };
            let before = *slot;
            let after = match (set, add) {
                (Some(v), _) => numbers::saturate(*v),
                (None, Some(d)) => numbers::saturate(before.saturating_add(*d)),
                (None, None) => before,
            };
            *slot = after;
            if after != before {
                let list = if player.is_some() {
                    &db.rules.player_values
                } else {
                    &db.rules.game_values
                };
                let mut e = Event::named("value");
                e.player = *player;
                e.key = Some(db.names.name(list.syms[*index]).to_string());
                e.amount = after - before;
                events.push(e);
            }
            Outcome::Int(after)
        }
        Op::Effect { effects } => {
            let mut handles = Vec::new();
            for eff in effects {
                if let Target::Obj(id) = eff.target
                    && !st.obj(id).alive
                {
                    continue;
                }
                let mut eff = eff.clone();
                eff.timestamp = st.tick();
                st.redirected |= matches!(eff.modify, Modify::Definition(_));
                handles.push(eff.timestamp as i64);
                Arc::make_mut(&mut st.effects).push(eff);
            }
            Outcome::Ints(handles)
        }
        Op::EndEffect { handle } => {
            let effects = Arc::make_mut(&mut st.effects);
            match effects
                .iter()
                .position(|e| e.timestamp == *handle && !e.uncancellable)
            {
                Some(i) => {
                    effects.remove(i);
                    Outcome::Done
                }
                None => Outcome::Nothing,
            }
        }
        Op::Expire {
            point,
            player,
            count,
            card,
        } => {
            let turn = st.turn;
            // With `card`, the point passes for what is on that card only.
            let on_card = |t: Option<ObjId>| card.is_none() || t == *card;
            let passes = |x: &Option<Expiry>| match x {
                Some(x) if x.point == *point => {
                    (player.is_none() || x.player.is_none() || x.player == *player)
                        && turn > x.after_turn
                }
                _ => false,
            };
            // Effects and grants on an attached card whose rule pauses its effects do not
            // run out while it is attached.
            let paused: Vec<ObjId> = if db.rules.attachments.iter().any(|r| r.pause_effects) {
                st.objects
                    .iter()
                    .filter(|o| o.alive && db.effects_paused(st, o.id))
                    .map(|o| o.id)
                    .collect()
            } else {
                Vec::new()
            };
            let on_paused = |t: Option<ObjId>| t.is_some_and(|t| paused.contains(&t));
            // The point passes `count` times: a count-down still above it only counts down.
            let tick = |x: &mut Option<Expiry>| -> bool {
                match x {
                    Some(e) if e.times > *count => {
                        e.times -= *count;
                        false
                    }
                    _ => true,
                }
            };
            // Each effect and ability that ends is an `expired` event, so the log shows it:
            // `card` what it applied to, `player` who controlled it, `reason` the point,
            // `key` what ended (the characteristic, or `ability`).
            let point_name = db.names.name(*point).to_string();
            let ended = |card: Option<ObjId>, player: Option<PlayerId>, key: &str| {
                let mut e = Event::named("expired");
                e.card = card;
                e.player = player;
                e.reason = Some(point_name.clone());
                e.key = Some(key.to_string());
                e
            };
            if st
                .grants
                .iter()
                .any(|g| passes(&g.expiry) && on_card(g.host) && !on_paused(g.host))
            {
                Arc::make_mut(&mut st.grants).retain_mut(|g| {
                    let ends = passes(&g.expiry)
                        && on_card(g.host)
                        && !on_paused(g.host)
                        && tick(&mut g.expiry);
                    if ends {
                        events.push(ended(g.host, Some(g.controller), "ability"));
                    }
                    !ends
                });
            }
            let target_of = |e: &Effect| match e.target {
                Target::Obj(id) => Some(id),
                Target::Player(_) => None,
            };
            if st
                .effects
                .iter()
                .any(|e| passes(&e.expiry) && on_card(target_of(e)) && !on_paused(target_of(e)))
            {
                Arc::make_mut(&mut st.effects).retain_mut(|e| {
                    let ends = passes(&e.expiry)
                        && on_card(target_of(e))
                        && !on_paused(target_of(e))
                        && tick(&mut e.expiry);
                    if ends {
                        let player = match e.target {
                            Target::Player(p) => Some(p),
                            Target::Obj(_) => e.controller,
                        };
                        events.push(ended(target_of(e), player, db.names.name(e.characteristic)));
                    }
                    !ends
                });
            }
            Outcome::Done
        }
        Op::Emit(e) => {
            events.push(e.clone());
            Outcome::Done
        }
        Op::Use { scope, key } => {
            st.record_use(scope, *key);
            Outcome::Done
        }
        Op::Random(n) => Outcome::Int(st.rng.below(*n) as i64 + 1),
        Op::EndGame(r) => {
            end(st, r.clone(), &mut events);
            Outcome::Done
        }
        Op::Eliminate { player, reason } => {
            eliminate(db, st, *player, reason, &mut events);
            Outcome::Done
        }
        Op::FirstPlayer(p) => {
            st.turn_player = *p;
            Outcome::Done
        }
        Op::Direction(d) => {
            if st.seats.direction == *d {
                Outcome::Nothing
            } else {
                Arc::make_mut(&mut st.seats).direction = *d;
                Outcome::Done
            }
        }
        Op::Grant(g) => {
            if g.host.is_some_and(|h| !st.obj(h).alive) {
                Outcome::Nothing
            } else {
                let mut g = g.clone();
                g.timestamp = st.tick();
                Arc::make_mut(&mut st.grants).push(g);
                Outcome::Done
            }
        }
        // Groups are handled by the driver (they shape trigger batches).
        Op::Group(_) => Outcome::Done,
    };
    // A redirect made, ended, followed to a new object or gone with its target.
    super::definitions::refresh_definitions(db, st);
    if !matches!(out, Outcome::Nothing) {
        mark_changes(db, st, op, &events, given, left_host);
    }
    (out, events)
}

/// The effects and the abilities effects gave, as they were before an operation.
type Given = (Arc<Vec<Effect>>, Arc<Vec<crate::state::Grant>>);

/// Marks for testing again the checks that read what operation `op` changed (`events`: what
/// it did), and makes stale the kept values of the characteristics that read it (`given`:
/// the effects and given abilities before it, where characteristics are kept). Errs on the
/// side of marking: a check marked for nothing only costs its test, a value made stale for
/// nothing its computation. (`left_host`: the host a moved card left.)
fn mark_changes(
    db: &Db,
    st: &mut State,
    op: &Op,
    events: &[Event],
    given: Option<Given>,
    left_host: Option<ObjId>,
) {
    use crate::content::StatePart;
    let checks = changes(&db.hooks.check_marks, st, op, events);
    let cm = &db.hooks.char_marks;
    let mut chars = changes(cm, st, op, events);
    // A card's own effects, counters and flags make stale, for the characteristics kept per
    // card, only the values whose working-out read them (`CharCache::bump`).
    let mut cards: Vec<ObjId> = Vec::new();
    match op {
        // (Only those a characteristic kept per card declares reading.)
        Op::Flag { card, .. } | Op::Counter { card, .. } if chars & cm.per_card != 0 => {
            chars &= !cm.per_card;
            cards.push(*card);
        }
        // (And for the player characteristics that read no card's effects: whether one on
        // a player came or went is told below.)
        Op::Effect { .. } | Op::EndEffect { .. } | Op::Expire { .. } => {
            chars &= !(cm.per_card | cm.per_player);
        }
        // A move makes stale, for the characteristics kept per card, only the values whose
        // working-out read where the cards it moved are (`CharCache::moved`).
        Op::Move { .. } if cm.per_card != 0 => {
            chars &= !cm.per_card;
            if !st.redirected {
                moved(db, st, events, left_host);
            }
        }
        _ => {}
    }
    if let Some((effects, grants)) = given {
        // Abilities given change what applies to any card.
        if !Arc::ptr_eq(&grants, &st.grants) {
            chars |= cm.part(StatePart::Effects);
        }
        if !Arc::ptr_eq(&effects, &st.effects) {
            let mut players = false;
            let mut changed = |e: &Effect| match e.target {
                Target::Obj(id) => cards.push(id),
                Target::Player(_) => players = true,
            };
            // The effects that ended or changed, and those made (a timestamp is an id).
            for e in effects.iter() {
                if st.effects.iter().find(|n| n.timestamp == e.timestamp) != Some(e) {
                    changed(e);
                }
            }
            for e in st.effects.iter() {
                if !effects.iter().any(|o| o.timestamp == e.timestamp) {
                    changed(e);
                }
            }
            // The effects on players are read without a record: every value.
            let by_card = cm.per_card | cm.per_player;
            chars |= cm.part(StatePart::Effects) & (!by_card | if players { u64::MAX } else { 0 });
        }
    }
    // A definition redirected (rare) changes whatever its cards' characteristics are.
    if st.redirected {
        st.checks_stale = u64::MAX;
        st.chars.invalidate(u64::MAX);
    } else {
        st.checks_stale |= checks;
        st.chars.invalidate(chars);
        for c in cards {
            st.chars.bump(c);
        }
    }
}

/// Bumps, in the kept values' records, what a move (`events`: what it did; `left_host`: the
/// host its card left) changed: the zones cards left and entered, the places of the cards
/// that moved (attached ones carried along included) and of the hosts they joined or left,
/// the objects that stopped existing, and the characteristics the moved cards' static
/// abilities modify (their walk found them where they were), but for those that change only
/// their own card or its bearer.
fn moved(db: &Db, st: &mut State, events: &[Event], left_host: Option<ObjId>) {
    let mut zones = Vec::new();
    let mut places: Vec<ObjId> = left_host.into_iter().collect();
    let mut gone = Vec::new();
    let mut statics: Vec<Sym> = Vec::new();
    for e in events {
        zones.extend([e.from, e.to].into_iter().flatten());
        // The zones it left and entered, by declaration (an attached card: its host's).
        let decls: Vec<usize> = [e.from, e.to]
            .into_iter()
            .flatten()
            .map(|z| st.zone(z).decl as usize)
            .collect();
        for c in [e.card, e.old].into_iter().flatten() {
            places.push(c);
            let o = st.obj(c);
            if !o.alive {
                gone.push(c);
            }
            for ab in &db.cards[o.definition as usize].outline {
                // The walk finds it only in a zone where it works (`Db::sources`).
                let works = |d: &usize| match &*ab.zones {
                    [] => db.in_play.contains(d),
                    zones => zones.contains(d),
                };
                // One that changes only its own card or its bearer: the values it may
                // change read those cards' places, which this move bumps (`places`).
                if ab.kind != crate::db::AbilityKind::Static
                    || ab.dormant
                    || ab.targeted
                    || !decls.iter().any(works)
                {
                    continue;
                }
                for s in ab.modifies.iter() {
                    if !statics.contains(s) {
                        statics.push(*s);
                    }
                }
            }
        }
        for (k, v) in &e.data {
            if let (true, Val::Card(h)) = (k == "host", v) {
                places.push(h.card);
            }
        }
    }
    st.chars.moved(&zones, &places, &gone, &statics);
}

/// What operation `op` (`events`: what it did) changed that `m`'s declarations read: their
/// bits.
fn changes(m: &crate::db::CheckMarks, st: &State, op: &Op, events: &[Event]) -> u64 {
    use crate::content::StatePart;
    if m.declared == 0 {
        return 0;
    }
    let zone = |st: &State, z: ZoneId| m.zones[st.zone(z).decl as usize];
    let card_zone = |st: &State, c: ObjId| zone(st, st.obj(c).zone);
    match op {
        // Where cards went from and to, the attached ones that moved along too.
        Op::Move { card, .. } => {
            let mut b = card_zone(st, *card);
            for e in events {
                for z in [e.from, e.to].into_iter().flatten() {
                    b |= zone(st, z);
                }
            }
            b
        }
        Op::Token { zone: z, .. } => {
            let mut b = zone(st, *z);
            for e in events {
                for z in [e.from, e.to].into_iter().flatten() {
                    b |= zone(st, z);
                }
            }
            b
        }
        Op::Control { card, .. } => card_zone(st, *card),
        // Reveals end with a shuffle.
        Op::Shuffle(z) => zone(st, *z) | m.part(StatePart::Visibility),
        Op::Orientation { .. } => m.part(StatePart::Orientation),
        Op::Face { .. } => m.part(StatePart::Face),
        Op::Flag { flag, .. } => m.flags[*flag],
        Op::Counter { counter, .. } => m.counters[*counter],
        Op::Reveal { .. } | Op::Conceal { .. } => m.part(StatePart::Visibility),
        Op::Value {
            player: Some(_),
            index,
            ..
        } => m.player_values[*index],
        Op::Value {
            player: None,
            index,
            ..
        } => m.game_values[*index],
        Op::Effect { .. } | Op::EndEffect { .. } | Op::Expire { .. } | Op::Grant(_) => {
            m.part(StatePart::Effects)
        }
        Op::Use { .. } => m.part(StatePart::Usage),
        Op::FirstPlayer(_) | Op::Direction(_) => m.part(StatePart::Turn),
        // A player leaving takes their cards and their turn with them.
        Op::EndGame(_) | Op::Eliminate { .. } => u64::MAX,
        Op::Emit(_) | Op::Random(_) | Op::Group(_) => 0,
    }
}

/// Takes a player out of the game (op `eliminate`, a concession), once. Their pending
/// triggered abilities, the effects they control or that target them and the abilities
/// effects gave them end. When one side or none is left, the game ends: that side wins.
/// Otherwise the game goes on without them: cards of others they control return to their
/// owners, the cards they own go where `elimination.cards` says (no replacement effect
/// applies), and their side's turn player becomes its next seat still in the game. (The
/// driver ends the turn when no one of the turn side is left.)
pub fn eliminate(db: &Db, st: &mut State, p: PlayerId, reason: &str, events: &mut Vec<Event>) {
    if st.players[p as usize].out || st.result.is_some() {
        return;
    }
    Arc::make_mut(&mut st.players)[p as usize].out = true;
    let q = Arc::make_mut(&mut st.pending);
    for b in q.iter_mut() {
        b.items.retain(|i| i.controller != p);
    }
    q.retain(|b| !b.items.is_empty());
    Arc::make_mut(&mut st.effects)
        .retain(|e| e.controller != Some(p) && e.target != Target::Player(p));
    Arc::make_mut(&mut st.grants).retain(|g| g.controller != p);
    super::definitions::refresh_definitions(db, st);
    let sides = st.sides_left();
    if sides.len() > 1 {
        // The game goes on without them: said once, before their cards leave.
        let mut e = Event::named("eliminated");
        e.player = Some(p);
        e.reason = Some(reason.to_string());
        events.push(e);
    }
    if sides.len() <= 1 {
        let winners = sides
            .first()
            .map(|t| st.seats.teams[*t as usize].clone())
            .unwrap_or_default();
        end(
            st,
            GameResult {
                winners,
                reason: reason.to_string(),
            },
            events,
        );
        return;
    }
    // Cards of others they control go back to their owners.
    let controlled: Vec<ObjId> = st
        .objects
        .iter()
        .filter(|o| o.alive && o.controller == p && o.owner != p)
        .map(|o| o.id)
        .collect();
    for id in controlled {
        let owner = st.obj(id).owner;
        st.obj_mut(id).controller = owner;
        let mut e = Event::named("controller");
        e.card = Some(id);
        e.player = Some(owner);
        events.push(e);
    }
    let why = Some(reason.to_string());
    match &db.rules.manifest.elimination.cards {
        crate::content::EliminatedCards::Stay => {}
        crate::content::EliminatedCards::Remove => {
            for id in owned_cards(st, p, None) {
                remove_card(db, st, id, p, &why, events);
            }
        }
        crate::content::EliminatedCards::Zone(_) => {
            let to = db
                .rules
                .elimination_zone
                .expect("checked when the rules loaded");
            // A host's attachments may go to another of their zones first: go round again
            // until every card of theirs is there (each round moves one at least, or stops).
            loop {
                let ids = owned_cards(st, p, Some(to));
                let mut moved = false;
                for id in ids {
                    if !st.obj(id).alive {
                        continue; // it went with its host
                    }
                    let host = st.obj(id).attached_to;
                    if let Some(h) = host {
                        // Detached first, as a host that leaves detaches its cards.
                        st.obj_mut(h).attachments.retain(|a| *a != id);
                        st.obj_mut(id).attached_to = None;
                    }
                    let done = move_card(
                        db,
                        st,
                        id,
                        Some(to),
                        Some(p),
                        Position::Top,
                        None,
                        None,
                        &why,
                        None,
                        None,
                        None,
                        events,
                    );
                    if done.is_none() && host.is_some() {
                        // Could not move (a full zone): it stays, no longer attached.
                        let z = st.obj(id).zone;
                        place(st, id, z, Position::Top);
                    }
                    moved |= done.is_some();
                }
                if !moved {
                    break;
                }
            }
        }
    }
    if st.turn_player == p
        && let Some(next) = st.side_first(st.team_of(p))
    {
        st.turn_player = next;
    }
}

/// The live cards `p` owns, in zones or attached, other than those already in (their copy
/// of) zone declaration `except`; in zone order, each zone bottom to top, attachments after
/// their host.
fn owned_cards(st: &State, p: PlayerId, except: Option<usize>) -> Vec<ObjId> {
    let mut out = Vec::new();
    for z in st.zones.iter() {
        let skip = except == Some(z.decl as usize);
        let mut stack: Vec<ObjId> = z.cards.iter().rev().copied().collect();
        while let Some(id) = stack.pop() {
            let o = st.obj(id);
            let here = skip && o.attached_to.is_none();
            if o.alive && o.owner == p && !here {
                out.push(id);
            }
            stack.extend(o.attachments.iter().rev().copied());
        }
    }
    out
}

/// An eliminated player's card leaves the game: out of its zone or off its host, ended
/// like a token that ceases (`ceased`, with the reason). Cards attached to it that are its
/// owner's go with it; others' follow the attachment rules, or go with it when the rules
/// say they follow their host.
fn remove_card(
    db: &Db,
    st: &mut State,
    id: ObjId,
    p: PlayerId,
    reason: &Option<String>,
    events: &mut Vec<Event>,
) {
    let o = st.obj(id).clone();
    if !o.alive {
        return;
    }
    match o.attached_to {
        Some(h) => st.obj_mut(h).attachments.retain(|a| *a != id),
        None => st.zone_mut(o.zone).cards.retain(|c| *c != id),
    }
    {
        let dead = st.obj_mut(id);
        dead.alive = false;
        dead.attached_to = None;
        dead.attachments.clear();
    }
    if st.effects.iter().any(|e| e.target == Target::Obj(id)) {
        Arc::make_mut(&mut st.effects).retain(|e| e.target != Target::Obj(id));
    }
    let mut e = Event::named("ceased");
    e.old = Some(id);
    e.reason = reason.clone();
    events.push(e);
    for a in o.attachments {
        let cat = db.cards[st.obj(a).definition as usize].category;
        let rule = db.rules.attachments.iter().find(|r| r.category == cat);
        match rule.and_then(|r| r.to.map(|z| (z, r.orientation))) {
            Some((z, or)) if st.obj(a).owner != p => {
                st.obj_mut(a).attached_to = None;
                let owner = st.obj(a).owner;
                move_card(
                    db,
                    st,
                    a,
                    Some(z),
                    Some(owner),
                    Position::Top,
                    None,
                    or,
                    &Some("host_left".into()),
                    None,
                    None,
                    None,
                    events,
                );
            }
            _ => {
                st.obj_mut(a).attached_to = None;
                remove_card(db, st, a, p, reason, events);
            }
        }
    }
}

/// Ends the game (once). With teams, the result lists every member of a winner's team.
pub fn end(st: &mut State, mut r: GameResult, events: &mut Vec<Event>) {
    if st.result.is_some() {
        return;
    }
    r.winners = st.winning_sides(r.winners);
    let mut e = Event::named("game_over");
    e.reason = Some(r.reason.clone());
    e.data.push((
        "winners".into(),
        Val::List(
            r.winners
                .iter()
                .map(|p| crate::script::api::player_val(*p))
                .collect(),
        ),
    ));
    events.push(e);
    st.result = Some(r);
}

/// A new object of card `card` owned by `owner`, entering `zone` (not yet placed).
pub fn new_object(
    db: &Db,
    st: &mut State,
    card: u32,
    owner: PlayerId,
    zone: ZoneId,
    face: Option<bool>,
    orientation: Option<Sym>,
) -> ObjId {
    let id = ObjId(st.objects.len() as u32);
    let decl = &db.rules.zones[st.zone(zone).decl as usize].1;
    let timestamp = st.tick();
    let o = Object {
        id,
        card,
        definition: card,
        owner,
        controller: owner,
        zone,
        face_up: face.unwrap_or(!decl.face_down),
        orientation: orientation.unwrap_or(db.rules.orientations.syms[0]),
        flags: 0,
        counters: vec![0; db.rules.counters.syms.len()],
        attached_to: None,
        attachments: Vec::new(),
        timestamp,
        entered_turn: st.turn,
        uses: Vec::new(),
        revealed: 0,
        token: false,
        alive: true,
        successor: None,
        last_known: None,
    };
    Arc::make_mut(&mut st.objects).push(o);
    st.mark_present(card);
    id
}

/// Puts an object into a zone's list.
pub fn place(st: &mut State, id: ObjId, zone: ZoneId, pos: Position) {
    let cards = &mut st.zone_mut(zone).cards;
    match pos {
        Position::Top => cards.push(id),
        Position::Bottom => cards.insert(0, id),
        Position::At(n) => {
            let i = (n - 1).min(cards.len());
            cards.insert(i, id)
        }
    }
}

/// How a move decides whether the card keeps its object.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Identity {
    /// By the zones' and the attachment rule's identity rules.
    ByRules,
    /// A new object: it moves along with a host that became a new object.
    New,
}

#[allow(clippy::too_many_arguments)]
fn move_card(
    db: &Db,
    st: &mut State,
    card: ObjId,
    zone: Option<usize>,
    player: Option<PlayerId>,
    position: Position,
    face: Option<bool>,
    orientation: Option<Sym>,
    reason: &Option<String>,
    by: Option<PlayerId>,
    host: Option<ObjId>,
    last_known: Option<Vec<LastKnown>>,
    events: &mut Vec<Event>,
) -> Option<ObjId> {
    relocate(
        db,
        st,
        card,
        zone,
        player,
        position,
        face,
        orientation,
        reason,
        by,
        host,
        last_known,
        Identity::ByRules,
        events,
    )
}

/// Whether card `card` attached (directly or further down) under `host`, or is it.
fn in_stack_of(st: &State, card: ObjId, host: ObjId) -> bool {
    let mut cur = Some(host);
    for _ in 0..=st.objects.len() {
        match cur {
            Some(c) if c == card => return true,
            Some(c) => cur = st.obj(c).attached_to,
            None => return false,
        }
    }
    true // a cycle: treat as inside
}

/// Where a move goes and whether its card stays the same object.
struct MovePlan {
    from: ZoneId,
    to: ZoneId,
    to_decl_index: usize,
    keeps: bool,
}

/// The plan of a move of `card` (`relocate`'s arguments), or None when the move does not
/// happen: the card already left, its host is gone, its zone keeps it, the zone it would
/// enter is full.
fn plan_move(
    db: &Db,
    st: &State,
    card: ObjId,
    zone: Option<usize>,
    player: Option<PlayerId>,
    host: Option<ObjId>,
    identity: Identity,
) -> Option<MovePlan> {
    let o = st.obj(card);
    if !o.alive {
        return None; // it already left: nothing to move
    }
    let from = o.zone;
    let to = match host {
        Some(h) => {
            // Not under a card that left, nor under itself or its own attachments.
            if !st.obj(h).alive || in_stack_of(st, card, h) {
                return None;
            }
            st.obj(h).zone
        }
        None => st.zone_id(zone?, player.unwrap_or(o.owner)),
    };
    let from_decl = st.zone(from).decl as usize;
    // A zone that keeps its cards: they never leave it (its attached cards may).
    if to != from && o.attached_to.is_none() && db.rules.zones[from_decl].1.keeps_cards {
        return None;
    }
    let to_decl_index = st.zone(to).decl as usize;
    if host.is_none()
        && let Some(cap) = db.rules.zones[to_decl_index].1.capacity
        && st.zone(to).cards.len() as u32 >= cap
        && !(from == to && o.attached_to.is_none())
    {
        return None; // full: the ruleset makes room first
    }
    // Does it stay the same object? A plain move: by the zones (`identity` groups,
    // `keeps_identity`). Attaching, detaching or changing host: by its attachment rule's
    // `keep_identity`, where the zones would keep it or it stays in its zone.
    let keeps = identity == Identity::ByRules
        && if host.is_none() && o.attached_to.is_none() {
            db.rules.move_keeps_identity(from_decl, to_decl_index)
        } else {
            db.attach_rule(st, card).is_some_and(|r| r.keep_identity)
                && (from == to || db.rules.move_keeps_identity(from_decl, to_decl_index))
        };
    Some(MovePlan {
        from,
        to,
        to_decl_index,
        keeps,
    })
}

/// Whether `op`, applied to `st` now, is a move that leaves its card's object behind (the
/// card becomes a new object): only then are the last-known values `apply` takes kept.
pub fn leaves_object(db: &Db, st: &State, op: &Op) -> bool {
    match op {
        Op::Move {
            card,
            zone,
            player,
            host,
            ..
        } => plan_move(db, st, *card, *zone, *player, *host, Identity::ByRules)
            .is_some_and(|p| !p.keeps),
        _ => false,
    }
}

#[allow(clippy::too_many_arguments)]
fn relocate(
    db: &Db,
    st: &mut State,
    card: ObjId,
    zone: Option<usize>,
    player: Option<PlayerId>,
    position: Position,
    face: Option<bool>,
    orientation: Option<Sym>,
    reason: &Option<String>,
    by: Option<PlayerId>,
    host: Option<ObjId>,
    last_known: Option<Vec<LastKnown>>,
    identity: Identity,
    events: &mut Vec<Event>,
) -> Option<ObjId> {
    let o = st.obj(card).clone();
    let MovePlan {
        from,
        to,
        to_decl_index,
        keeps,
    } = plan_move(db, st, card, zone, player, host, identity)?;
    let from_decl = st.zone(from).decl as usize;
    let to_decl = &db.rules.zones[to_decl_index].1;
    // Entering a `keeps_identity` zone from another one gives the object a new timestamp
    // and entry turn; within an identity group or its zone it stays where it entered.
    let refresh = keeps && from != to && !db.rules.same_identity_group(from_decl, to_decl_index);
    // Leave. (A card that left keeps its host's last-known list of attachments.)
    match o.attached_to {
        Some(h) => {
            if st.obj(h).alive {
                st.obj_mut(h).attachments.retain(|a| *a != card)
            }
        }
        None => st.zone_mut(from).cards.retain(|c| *c != card),
    }
    let new_id = if keeps {
        let ts = st.tick();
        let turn = st.turn;
        let n = st.obj_mut(card);
        n.zone = to;
        if refresh {
            n.timestamp = ts;
            n.entered_turn = turn;
        }
        if let Some(f) = face {
            n.face_up = f;
        }
        if let Some(or) = orientation {
            n.orientation = or;
        }
        card
    } else {
        let id = new_object(db, st, o.card, o.owner, to, face, orientation);
        st.obj_mut(id).token = o.token;
        let old = st.obj_mut(card);
        old.alive = false;
        old.successor = Some(id);
        old.last_known = last_known.map(Arc::new);
        // Effects on the old object end with it, unless they persist where it went.
        follow_or_end(st, card, id, to_decl_index);
        id
    };
    match host {
        Some(h) => {
            st.obj_mut(new_id).attached_to = Some(h);
            st.obj_mut(h).attachments.push(new_id);
        }
        None => {
            st.obj_mut(new_id).attached_to = None;
            place(st, new_id, to, position)
        }
    }
    let mut e = Event::named("moved");
    e.card = Some(new_id);
    e.old = Some(card);
    e.from = Some(from);
    e.to = Some(to);
    e.reason = reason.clone();
    e.player = by;
    if let Some(h) = host {
        e.data.push(("host".into(), Val::Card(CardRef { card: h })));
    }
    events.push(e);
    // A token that leaves play stops existing (its attachments do not stay on it).
    let ceases = st.obj(new_id).token && to_decl.removes_tokens;
    // The cards attached to it: they move along, still attached, when it keeps its object
    // or enters a zone their rule's `stay_in` names; else they follow the attachment rule.
    for a in o.attachments.iter().copied() {
        let rule = db.attach_rule(st, a);
        // (A token attachment entering a zone that removes tokens does not stay on.)
        let token_ceases = st.obj(a).token && to_decl.removes_tokens;
        let along = !ceases
            && !token_ceases
            && (keeps || rule.is_some_and(|r| r.stay_in.contains(&to_decl_index)));
        if along && keeps {
            carry(st, a, from, to, by, events);
        } else if along {
            relocate(
                db,
                st,
                a,
                None,
                None,
                Position::Top,
                None,
                None,
                &Some("with_host".into()),
                by,
                Some(new_id),
                None,
                Identity::New,
                events,
            );
        } else {
            let (z, or) = match rule.and_then(|r| r.to.map(|z| (z, r.orientation))) {
                Some((z, or)) => (z, or),
                // Follow the host to its destination.
                None => (to_decl_index, None),
            };
            relocate(
                db,
                st,
                a,
                Some(z),
                Some(st.obj(a).owner),
                Position::Top,
                None,
                or,
                &Some("host_left".into()),
                by,
                None,
                None,
                Identity::ByRules,
                events,
            );
        }
    }
    if ceases {
        match st.obj(new_id).attached_to {
            Some(h) => st.obj_mut(h).attachments.retain(|c| *c != new_id),
            None => st.zone_mut(to).cards.retain(|c| *c != new_id),
        }
        st.obj_mut(new_id).alive = false;
        // What followed it into this zone ends with it.
        follow_or_end(st, new_id, new_id, usize::MAX);
        let mut e = Event::named("ceased");
        e.old = Some(new_id);
        events.push(e);
    }
    Some(new_id)
}

/// Card `old` became object `new` by entering a zone of declaration `to` (`usize::MAX`: it
/// stopped existing). The effects on it that persist in that zone follow the new object
/// (their handle, duration and timestamp unchanged); the others end. The abilities effects
/// gave it that persist there follow it too (the others stop working with the old object,
/// as before).
fn follow_or_end(st: &mut State, old: ObjId, new: ObjId, to: usize) {
    let persists = |zones: &[u16]| zones.iter().any(|z| *z as usize == to);
    if st.effects.iter().any(|e| e.target == Target::Obj(old)) {
        Arc::make_mut(&mut st.effects).retain_mut(|e| {
            if e.target != Target::Obj(old) {
                true
            } else if persists(&e.persists_in) {
                e.target = Target::Obj(new);
                true
            } else {
                false
            }
        });
    }
    if st
        .grants
        .iter()
        .any(|g| g.host == Some(old) && persists(&g.persists_in))
    {
        for g in Arc::make_mut(&mut st.grants).iter_mut() {
            if g.host == Some(old) && persists(&g.persists_in) {
                g.host = Some(new);
            }
        }
    }
}

/// Attached card `a` moves along with its host, which kept its object, from zone `from` to
/// `to`: it keeps its object and its place under the host, and so do the cards attached
/// to it, at any depth. Each emits `moved` (reason `with_host`).
fn carry(
    st: &mut State,
    a: ObjId,
    from: ZoneId,
    to: ZoneId,
    by: Option<PlayerId>,
    events: &mut Vec<Event>,
) {
    st.obj_mut(a).zone = to;
    let mut e = Event::named("moved");
    e.card = Some(a);
    e.old = Some(a);
    e.from = Some(from);
    e.to = Some(to);
    e.reason = Some("with_host".into());
    e.player = by;
    if let Some(h) = st.obj(a).attached_to {
        e.data.push(("host".into(), Val::Card(CardRef { card: h })));
    }
    events.push(e);
    for b in st.obj(a).attachments.clone() {
        carry(st, b, from, to, by, events);
    }
}
