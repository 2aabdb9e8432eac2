//! Views: what one player sees of a game, built with the one visibility rule
//! (`crate::visibility`). A hidden card shows no id and no identity: only that it is there.
//! The RNG state never appears. The same rule filters the log for one player
//! (`Game::events_for`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::characteristics;
use crate::content::Visibility;
use crate::game::Game;
use crate::state::decisions::{Choice, Request, Response};
use crate::state::log::{Entry, Seen};
use crate::state::values::Val;
use crate::state::{GameResult, ObjId, PlayerId, State, ZoneId};
use crate::visibility::{shown, shown_to_all, visible, visible_to_all};

/// A card as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardView {
    /// Its object id (absent when hidden).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub id: Option<ObjId>,
    /// Its card id (absent when hidden): the card it is, physically.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub card: Option<String>,
    /// The card id whose printed data, text and name it takes now, when not its own (a
    /// definition redirect: `ctx:take_definition`, `stand_ins`): `name`, `label` and the
    /// values are that card's.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub definition: Option<String>,
    /// Its name for people (absent when hidden): in the language the view asked for
    /// (`Game::view_in`), else its printed name, the one the rules read (`names.printed`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub name: Option<String>,
    /// Its name as option labels and logs show it (absent when hidden): `name`, with the
    /// card id in parentheses when another card of the content shares the printed name.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub label: Option<String>,
    /// Face up?
    pub face_up: bool,
    /// Orientation.
    pub orientation: String,
    /// Integer characteristics (when visible).
    #[serde(skip_serializing_if = "BTreeMap::is_empty", default)]
    pub values: BTreeMap<String, i64>,
    /// Set characteristics (when visible): colors, types, keywords...
    #[serde(skip_serializing_if = "BTreeMap::is_empty", default)]
    pub sets: BTreeMap<String, Vec<String>>,
    /// Non-zero counters.
    #[serde(skip_serializing_if = "BTreeMap::is_empty", default)]
    pub counters: BTreeMap<String, i64>,
    /// Flags that are on.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub flags: Vec<String>,
    /// Attached cards.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub attachments: Vec<CardView>,
    /// A token: it stops existing when it leaves play (false when hidden).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub token: bool,
    /// The turn it entered its zone (0 when hidden).
    #[serde(skip_serializing_if = "is_zero", default)]
    pub entered_turn: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A zone as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneView {
    /// The zone's name.
    pub name: String,
    /// Its owner (None for shared zones; a team's zone: the team's first seat).
    pub owner: Option<PlayerId>,
    /// For a team's zone: the team (0-based, an index into `PlayerView.teams`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub team: Option<u8>,
    /// How many cards (always public).
    pub count: usize,
    /// The cards, bottom to top.
    pub cards: Vec<CardView>,
}

/// A player's view of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// Who is looking.
    pub viewer: PlayerId,
    /// Turn number.
    pub turn: u32,
    /// Whose turn.
    pub turn_player: PlayerId,
    /// Current phase.
    pub phase: Option<String>,
    /// Every zone.
    pub zones: Vec<ZoneView>,
    /// Player values and player characteristics (as read), by player.
    pub values: Vec<BTreeMap<String, i64>>,
    /// The viewer's pending request.
    pub request: Option<Request>,
    /// The result, when over (with teams, every member of the winning team is a winner).
    pub result: Option<GameResult>,
    /// The teams, each a list of seats, its first seat first; empty when every player is a
    /// team alone.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub teams: Vec<Vec<PlayerId>>,
    /// The players whose turn it is (the turn side still in the game, turn player first).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub turn_side: Vec<PlayerId>,
    /// Players who have left the game.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub out: Vec<PlayerId>,
    /// A spectator's view ([`Game::spectator_view`]): it shows a card only when every seat
    /// may see it, holds no request, and its `viewer` is the number of players (no seat).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub spectator: bool,
}

/// Who looks: a seat, or a spectator, who is shown a card only when every seat of `seats`
/// (a mask: every seat of the game) may see it.
#[derive(Clone, Copy, Debug)]
enum Looker {
    Seat(PlayerId),
    Spectator { seats: u32 },
}

impl Looker {
    fn spectator(players: u8) -> Looker {
        Looker::Spectator {
            seats: (0..players).fold(0, |m, p| m | 1 << p),
        }
    }

    /// Whether it may see object `id` now.
    fn sees(self, db: &crate::db::Db, st: &State, id: ObjId) -> bool {
        match self {
            Looker::Seat(p) => visible(db, st, id, p),
            Looker::Spectator { seats } => visible_to_all(db, st, id, seats),
        }
    }

    /// Whether it was shown card `id` of a log entry whose `Seen` list is `seen`.
    fn shown(self, seen: &Seen, id: ObjId) -> bool {
        match self {
            Looker::Seat(p) => shown(seen, id, p),
            Looker::Spectator { seats } => shown_to_all(seen, id, seats),
        }
    }

    /// Whether it is player `p`.
    fn is(self, p: PlayerId) -> bool {
        matches!(self, Looker::Seat(s) if s == p)
    }
}

/// Another player's decision as a viewer may see it: only the chosen options, when
/// `seen_by` holds for every card they name (None: not shown).
fn others_decision(
    player: PlayerId,
    request: &Request,
    response: &Response,
    seen_by: impl Fn(ObjId) -> bool,
) -> Option<Entry> {
    let (request, response) = match (request, response) {
        (
            Request::Choose {
                player: p,
                prompt,
                options,
                ..
            },
            Response::Choose { indices },
        ) => {
            let chosen: Vec<Choice> = indices
                .iter()
                .filter_map(|i| options.get(*i as usize))
                .map(|o| Choice {
                    data: Vec::new(),
                    ..o.clone()
                })
                .collect();
            if !chosen
                .iter()
                .flat_map(|o| o.card.into_iter().chain(o.target))
                .all(seen_by)
            {
                return None;
            }
            let n = chosen.len() as u32;
            (
                Request::Choose {
                    player: *p,
                    prompt: prompt.clone(),
                    options: chosen,
                    min: n,
                    max: n,
                },
                Response::Choose {
                    indices: (0..n).collect(),
                },
            )
        }
        _ => (request.clone(), response.clone()),
    };
    Some(Entry::Decision {
        player,
        request,
        response,
    })
}

/// `v` with the cards `viewer` may not see left out (None: it is such a card).
fn filter_val(v: &Val, seen: &Seen, viewer: Looker) -> Option<Val> {
    match v {
        Val::Card(c) => viewer.shown(seen, c.card).then(|| v.clone()),
        Val::List(l) => Some(Val::List(
            l.iter()
                .filter_map(|x| filter_val(x, seen, viewer))
                .collect(),
        )),
        _ => Some(v.clone()),
    }
}

impl Game {
    /// The log as `viewer` may see it, for a client playing that seat. Events keep their
    /// name, zones, players, reason and numbers, but a card `viewer` could not see at the time
    /// loses its object ids (`card`, `old`, and card values in `data`): they would let the
    /// viewer follow it. A decision is shown whole to its decider; another player's is shown
    /// with only what was chosen (its other options could name cards in their hand) when
    /// `viewer` saw every card the chosen options name, as it was chosen or in what followed
    /// it before the next decision (an attack, a card played from the hand), and not at all
    /// otherwise (a card picked from a hidden zone). Script errors (for developers:
    /// `errors`) are shown to no one. The full log and its hash are unchanged.
    pub fn events_for(&self, viewer: PlayerId) -> Vec<Entry> {
        self.events_for_from(viewer, 0)
    }

    /// [`Game::events_for`] from entry `start` of the full log on (a client that has read
    /// the first `start` entries, as [`Game::log_len`] counts them, reads only what is new).
    pub fn events_for_from(&self, viewer: PlayerId, start: usize) -> Vec<Entry> {
        self.entries_for(Looker::Seat(viewer), start)
    }

    /// The log from entry `start` on as a spectator may see it: as [`Game::events_for_from`]
    /// shows it to a seat, with a card shown only where every seat was shown it, and every
    /// decision shown as another player's.
    pub fn spectator_events_from(&self, start: usize) -> Vec<Entry> {
        self.entries_for(Looker::spectator(self.players()), start)
    }

    fn entries_for(&self, viewer: Looker, start: usize) -> Vec<Entry> {
        let st = self.state.borrow();
        let log = &st.log;
        let none = Seen::new();
        log.entries()
            .iter()
            .enumerate()
            .skip(start)
            .filter_map(|(i, entry)| {
                let seen = log.seen().get(i).unwrap_or(&none);
                match entry {
                    Entry::Event(e) => {
                        let mut e = e.clone();
                        e.card = e.card.filter(|c| viewer.shown(seen, *c));
                        e.old = e.old.filter(|c| viewer.shown(seen, *c));
                        e.data = e
                            .data
                            .iter()
                            .filter_map(|(k, v)| {
                                filter_val(v, seen, viewer).map(|v| (k.clone(), v))
                            })
                            .collect();
                        Some(Entry::Event(e))
                    }
                    Entry::Decision { player, .. } if viewer.is(*player) => Some(entry.clone()),
                    Entry::Decision {
                        player,
                        request,
                        response,
                    } => {
                        // What the viewer sees from this decision up to the next one.
                        let later = log.entries()[i + 1..]
                            .iter()
                            .take_while(|e| !matches!(e, Entry::Decision { .. }))
                            .count();
                        let seen_by = |id: ObjId| {
                            log.seen()[i..=i + later]
                                .iter()
                                .any(|s| viewer.shown(s, id))
                        };
                        others_decision(*player, request, response, seen_by)
                    }
                    Entry::ScriptError { .. } => None,
                    // Every player plays the changed card from then on: they are told.
                    Entry::CardReloaded { .. } => Some(entry.clone()),
                }
            })
            .collect()
    }

    /// What `viewer` may see. Card names are the printed ones (`names.printed` of the
    /// ruleset); [`Game::view_in`] gives them in another language.
    pub fn view(&self, viewer: PlayerId) -> PlayerView {
        self.view_with(viewer, None, true)
    }

    /// What a spectator may see: a card only when every seat may see it (the public zones'
    /// face-up cards, cards revealed to all), the sizes of the rest, no request. Its
    /// `viewer` is the number of players and `spectator` is true.
    pub fn spectator_view(&self) -> PlayerView {
        self.view_as(Looker::spectator(self.players()), None, true)
    }

    /// What `viewer` may see, with names for people in the language `lang` (a tag: `en`,
    /// `th`...): each card's `name`, and in the pending request's option labels the names of
    /// each option's own card and target (the kernel's labels and a ruleset's alike). A
    /// card without a name in `lang` shows its printed name. Only the view changes: the request as logged (and hashed) keeps the printed
    /// names, so the language a client reads in never changes the game.
    pub fn view_in(&self, viewer: PlayerId, lang: &str) -> PlayerView {
        self.view_with(viewer, Some(lang), true)
    }

    /// Request `req` (a past one too: the log's decisions) with the names of its options'
    /// own cards and targets in `lang`, as [`Game::view_in`] shows the pending one.
    pub fn request_in(&self, req: &Request, lang: &str) -> Request {
        let st = self.state.borrow();
        self.relabel(&st, req, lang)
    }

    /// What `viewer` may see; without `values`, cards carry no characteristics (what the
    /// invariant checks need: who sees which card, at a fraction of the cost).
    fn view_with(&self, viewer: PlayerId, lang: Option<&str>, values: bool) -> PlayerView {
        self.view_as(Looker::Seat(viewer), lang, values)
    }

    /// What `looker` may see.
    fn view_as(&self, looker: Looker, lang: Option<&str>, values: bool) -> PlayerView {
        self.enter();
        let st = self.state.borrow();
        let db = &self.engine.db;
        let mut zones = Vec::new();
        for z in st.zones.iter() {
            let decl = &db.rules.zones[z.decl as usize].1;
            let cards = z
                .cards
                .iter()
                .map(|id| self.card_view(&st, *id, Some(looker), lang, values))
                .collect();
            zones.push(ZoneView {
                name: decl.name.clone(),
                owner: z.owner,
                team: z.team,
                count: z.cards.len(),
                cards,
            });
        }
        let values = st
            .players
            .iter()
            .enumerate()
            .map(|(pi, p)| {
                let mut values: BTreeMap<String, i64> = db
                    .rules
                    .player_values
                    .syms
                    .iter()
                    .zip(&p.values)
                    .map(|(s, v)| (db.names.name(*s).to_string(), *v))
                    .collect();
                // Player characteristics are public like player values (a failing static
                // ability leaves one out rather than the whole view).
                for (ci, c) in db.rules.player_chars.iter().enumerate() {
                    if let Ok(v) =
                        characteristics::player_value(&self.engine.lua, db, &st, pi as u8, ci)
                    {
                        values.insert(c.decl.name.clone(), v);
                    }
                }
                values
            })
            .collect();
        PlayerView {
            viewer: match looker {
                Looker::Seat(p) => p,
                Looker::Spectator { .. } => st.nplayers,
            },
            turn: st.turn,
            turn_player: st.turn_player,
            phase: st
                .phase
                .map(|i| db.rules.manifest.turn.phases[i].name.clone()),
            zones,
            values,
            request: self
                .request
                .as_deref()
                .filter(|r| looker.is(r.player()))
                .map(|r| match lang {
                    Some(lang) => self.relabel(&st, r, lang),
                    None => r.clone(),
                }),
            result: st.result.clone(),
            teams: if st.seats.has_teams() {
                st.seats.teams.clone()
            } else {
                Vec::new()
            },
            turn_side: if st.seats.has_teams() {
                st.turn_side()
            } else {
                Vec::new()
            },
            out: (0..st.nplayers).filter(|p| !st.in_game(*p)).collect(),
            spectator: matches!(looker, Looker::Spectator { .. }),
        }
    }

    /// Every card of a zone with nothing hidden: for tests and tools, never for clients.
    pub fn inspect_zone(&self, player: PlayerId, zone: &str) -> Option<Vec<CardView>> {
        self.enter();
        let st = self.state.borrow();
        let db = &self.engine.db;
        let decl = db.rules.zone_index(&db.names, zone).ok()?;
        if player >= st.nplayers {
            return None;
        }
        let z = st.zone_id(decl, player);
        Some(
            st.zone(z)
                .cards
                .iter()
                .map(|id| self.card_view(&st, *id, None, None, true))
                .collect(),
        )
    }

    /// `req` with the kernel's trigger-ordering labels (prompt `order_triggers`, options
    /// `<name> (<event>)`) naming each card in `lang`. Labels a ruleset wrote are its own
    /// text and stay as they are.
    fn relabel(&self, st: &State, req: &Request, lang: &str) -> Request {
        let mut req = req.clone();
        let Request::Choose { options, .. } = &mut req else {
            return req;
        };
        // Every option that names its card or target in its label (the kernel's labels, the
        // trigger order's, and a ruleset's `"attack " .. t.label .. " with " .. c.label`):
        // those names in `lang`. Only names the option's own cards carry are replaced.
        for o in options.iter_mut() {
            for id in [o.card, o.target].into_iter().flatten() {
                let Some(obj) = st.objects.get(id.0 as usize) else {
                    continue;
                };
                let card = &self.engine.db.cards[obj.definition as usize];
                let there = card.label.as_str();
                let here = card.label_in(lang);
                if here != there && o.label.contains(there) {
                    o.label = o.label.replacen(there, &here, 1);
                }
            }
        }
        req
    }

    /// The card view of `id` for `viewer` (None: sees everything), names in `lang` (None:
    /// the printed names), its characteristics computed when `values`.
    fn card_view(
        &self,
        st: &State,
        id: ObjId,
        viewer: Option<Looker>,
        lang: Option<&str>,
        with_values: bool,
    ) -> CardView {
        let db = &self.engine.db;
        let o = st.obj(id);
        let attachments = o
            .attachments
            .iter()
            .map(|a| self.card_view(st, *a, viewer, lang, with_values))
            .collect();
        if viewer.is_some_and(|v| !v.sees(&self.engine.db, st, id)) {
            return CardView {
                id: None,
                card: None,
                definition: None,
                name: None,
                label: None,
                face_up: o.face_up,
                orientation: db.names.name(o.orientation).to_string(),
                values: BTreeMap::new(),
                sets: BTreeMap::new(),
                counters: BTreeMap::new(),
                flags: Vec::new(),
                attachments,
                token: false,
                entered_turn: 0,
            };
        }
        let card = &db.cards[o.definition as usize];
        let mut values = BTreeMap::new();
        let mut sets = BTreeMap::new();
        let lua = &self.engine.lua;
        // (`internal` characteristics are the ruleset's bookkeeping, not shown.)
        let shown = db.rules.chars.iter().enumerate();
        for (ci, c) in shown.filter(|(_, c)| with_values && !c.decl.internal) {
            if db.rules.is_int(ci) {
                // A printed number, or one an effect gave a card that prints none (a gained
                // 〈Repair 1〉 on a unit without Repair).
                if let Ok(v) = characteristics::int_value(lua, db, st, id, ci)
                    && (card.int(ci).is_some() || v != 0)
                {
                    values.insert(c.decl.name.clone(), v);
                }
            } else if let Ok(v) = characteristics::set_value(lua, db, st, id, ci)
                && !v.is_empty()
            {
                sets.insert(
                    c.decl.name.clone(),
                    v.iter().map(|s| db.names.name(*s).to_string()).collect(),
                );
            }
        }
        CardView {
            id: Some(id),
            card: Some(db.cards[o.card as usize].def.id.clone()),
            definition: (o.definition != o.card).then(|| card.def.id.clone()),
            name: Some(match lang {
                Some(lang) => card.name_in(lang).to_string(),
                None => card.name.clone(),
            }),
            label: Some(match lang {
                Some(lang) => card.label_in(lang),
                None => card.label.clone(),
            }),
            face_up: o.face_up,
            orientation: db.names.name(o.orientation).to_string(),
            values,
            sets,
            counters: db
                .rules
                .counters
                .syms
                .iter()
                .zip(&o.counters)
                .filter(|(_, v)| **v != 0)
                .map(|(s, v)| (db.names.name(*s).to_string(), *v))
                .collect(),
            flags: db
                .rules
                .flags
                .syms
                .iter()
                .enumerate()
                .filter(|(i, _)| o.flags & (1 << i) != 0)
                .map(|(_, s)| db.names.name(*s).to_string())
                .collect(),
            attachments,
            token: o.token,
            entered_turn: o.entered_turn,
        }
    }

    /// The game values by name (`game_values` of the ruleset): public, as the players'
    /// values in a view.
    pub fn game_values(&self) -> BTreeMap<String, i64> {
        let st = self.state.borrow();
        let db = &self.engine.db;
        db.rules
            .game_values
            .syms
            .iter()
            .zip(st.game_values.iter())
            .map(|(s, v)| (db.names.name(*s).to_string(), *v))
            .collect()
    }

    /// Checks the kernel's invariants: every live card is in exactly one place (a zone's
    /// list, or under one host), where it says it is (its `zone`: the zone listing it, or
    /// its top host's zone, at any depth of attachment), `attached_to` and `attachments`
    /// agree both ways, capacities hold, and views hide what they must. For tests and
    /// random playouts.
    pub fn check_invariants(&self) -> Result<(), String> {
        let st = self.state.borrow();
        let db = &self.engine.db;
        let name = |id: ObjId| {
            format!(
                "{} ({})",
                id.0,
                db.cards[st.obj(id).definition as usize].def.id
            )
        };
        let mut seen = vec![0u32; st.objects.len()];
        for (zi, z) in st.zones.iter().enumerate() {
            let zid = ZoneId(zi as u16);
            let decl = &db.rules.zones[z.decl as usize].1;
            if let Some(cap) = decl.capacity
                && z.cards.len() as u32 > cap
            {
                return Err(format!(
                    "zone {} holds {} cards, capacity {cap}",
                    decl.name,
                    z.cards.len()
                ));
            }
            for &id in &z.cards {
                seen[id.0 as usize] += 1;
                let o = st.obj(id);
                if !o.alive {
                    return Err(format!("dead object {} listed in {}", id.0, decl.name));
                }
                if o.zone != zid {
                    return Err(format!(
                        "object {} is listed in {} but its zone is {}",
                        name(id),
                        decl.name,
                        db.rules.zones[st.zone(o.zone).decl as usize].1.name
                    ));
                }
                if let Some(h) = o.attached_to {
                    return Err(format!(
                        "object {} is listed in {} but says it is attached to {}",
                        name(id),
                        decl.name,
                        h.0
                    ));
                }
                // Attachments, at any depth: each points back, is alive, and is in the zone.
                let mut stack = vec![id];
                while let Some(host) = stack.pop() {
                    for &a in &st.obj(host).attachments {
                        seen[a.0 as usize] += 1;
                        if seen[a.0 as usize] > 1 {
                            return Err(format!("live object {} is in 2 places", name(a)));
                        }
                        let ao = st.obj(a);
                        if ao.attached_to != Some(host) || !ao.alive {
                            return Err(format!(
                                "attachment {} does not point back to {}",
                                a.0, host.0
                            ));
                        }
                        if ao.zone != zid {
                            return Err(format!(
                                "attachment {} is under {} in {} but its zone is {}",
                                name(a),
                                host.0,
                                decl.name,
                                db.rules.zones[st.zone(ao.zone).decl as usize].1.name
                            ));
                        }
                        stack.push(a);
                    }
                }
            }
        }
        for o in st.objects.iter() {
            let n = seen[o.id.0 as usize];
            if o.alive && n != 1 {
                return Err(format!(
                    "live object {} ({}) is in {n} places",
                    o.id.0, db.cards[o.definition as usize].def.id
                ));
            }
            if !o.alive && n != 0 {
                return Err(format!("dead object {} is still placed", o.id.0));
            }
        }
        drop(st);
        for viewer in 0..self.players() {
            let v = self.view_with(viewer, None, false);
            let st = self.state.borrow();
            for zv in &v.zones {
                let decl = db
                    .rules
                    .zones
                    .iter()
                    .find(|(_, d)| d.name == zv.name)
                    .map(|(_, d)| d)
                    .expect("zone");
                for cv in &zv.cards {
                    if let Some(id) = cv.id {
                        if !visible(&self.engine.db, &st, id, viewer) {
                            return Err(format!("player {} sees hidden card {}", viewer + 1, id.0));
                        }
                        if decl.visibility == Visibility::Owner
                            && !st.holds(st.obj(id).zone, viewer)
                            && st.obj(id).revealed & (1 << viewer) == 0
                        {
                            return Err(format!(
                                "player {} sees a card in another player's {}",
                                viewer + 1,
                                zv.name
                            ));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
