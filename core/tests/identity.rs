//! Kernel tests of object identity and composite objects on a made-up game, "Lines": each
//! player has three Lines (`at_line`, `df_line`, `no_line`) that are one place for identity
//! (`identity` groups), a discard, a remove zone, and a `bench` that keeps the identity of
//! whatever enters it. Pieces may carry other pieces as Supports (kept objects, paused
//! effects, suppressed abilities, moving whole into the remove zone) and Gear (whose
//! abilities work, at any depth). Positions are built by hand (`Builder`); the main phase
//! offers every move, attachment, boost and counter as an action, so each test drives the
//! kernel step by step and checks the invariants after every step.

mod common;

use std::rc::Rc;

use common::{engine_of, labels, pick};
use riffle_core::*;

const MANIFEST: &str = r#"{
  "game": "lines", "name": {"en": "Lines"}, "version": "1",
  "players": {"min": 2, "max": 2},
  "zones": [
    {"name": "deck", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true},
    {"name": "hand", "scope": "player", "visibility": "owner"},
    {"name": "at_line", "scope": "player", "visibility": "public", "in_play": true},
    {"name": "df_line", "scope": "player", "visibility": "public", "in_play": true},
    {"name": "no_line", "scope": "player", "visibility": "public", "in_play": true},
    {"name": "discard", "scope": "player", "visibility": "public", "ordered": true},
    {"name": "remove", "scope": "player", "visibility": "public"},
    {"name": "bench", "scope": "player", "visibility": "public", "in_play": true, "keeps_identity": true}
  ],
  "categories": ["piece", "gear"],
  "characteristics": [
    {"name": "power", "kind": "int", "min": 0},
    {"name": "keywords", "kind": "set"}
  ],
  "orientations": ["ready", "tired"],
  "counters": ["charge"],
  "events": ["flash"],
  "timings": ["main"],
  "durations": ["end_of_turn"],
  "keywords": [{"name": "steadfast"}, {"name": "negated"}],
  "abilities": {"suppressed_by": {"char": "keywords", "name": "negated"}},
  "identity": [{"zones": ["at_line", "df_line", "no_line"]}],
  "attachments": [
    {"category": "piece", "keep_identity": true, "effects": "pause", "abilities": "suppressed",
     "stay_in": ["remove"], "unless": {"char": "keywords", "name": "steadfast"}},
    {"category": "gear", "to": "discard", "abilities": "work"}
  ],
  "setup": "setup",
  "turn": {"phases": [
    {"name": "main", "actions": "main_actions"},
    {"name": "end", "run": "end_phase"}
  ]},
  "triggers": {"order": "fifo_batches", "player_orders": true},
  "hooks": {"activate": "activate", "validate_deck": "validate_deck"},
  "deck": {"sections": [{"name": "main", "zone": "deck"}]},
  "scripts": ["lines.lua"],
  "limits": {"script_memory": 33554432}
}"#;

const RULES_LUA: &str = r#"
function setup(ctx) end

local PLACES = { "hand", "at_line", "df_line", "no_line", "remove", "bench" }
local TO = { "at_line", "df_line", "no_line", "discard", "remove", "bench", "hand" }

-- Every card of player p in PLACES, and the cards attached to them at any depth.
local function all_cards(ctx, p)
  local out = {}
  local function walk(c)
    out[#out + 1] = c
    for _, a in ipairs(c.attachments) do walk(a) end
  end
  for _, z in ipairs(PLACES) do
    for _, c in ipairs(ctx:cards(z, p)) do walk(c) end
  end
  return out
end

function main_actions(ctx)
  local p = ctx.turn_player
  local out = {}
  local function opt(label, card, target, run)
    out[#out + 1] = { label = label, kind = "x", card = card, target = target, run = run }
  end
  local cards = all_cards(ctx, p)
  for _, c in ipairs(cards) do
    for _, z in ipairs(TO) do
      opt("move " .. c.name .. " to " .. z, c, nil, function(ctx, o) ctx:move(o.card, z) end)
    end
    opt("boost " .. c.name, c, nil, function(ctx, o)
      ctx:modify(o.card, { char = "power", op = "add", value = 2 }, { ["until"] = "end_of_turn" })
    end)
    opt("charge " .. c.name, c, nil, function(ctx, o) ctx:add_counter(o.card, "charge", 1) end)
    opt("mark " .. c.name, c, nil, function(ctx, o) ctx:use(o.card, "mark") end)
    opt("negate " .. c.name, c, nil, function(ctx, o)
      ctx:modify(o.card, { char = "keywords", op = "grant", value = "negated" })
    end)
    for _, h in ipairs(cards) do
      if h ~= c then
        opt("attach " .. c.name .. " to " .. h.name, c, h, function(ctx, o) ctx:attach(o.card, o.target) end)
      end
    end
  end
  opt("flash", nil, nil, function(ctx) ctx:emit("flash", {}) end)
  for _, ab in ipairs(ctx:abilities{ kind = "activated", timing = "main", player = p }) do
    opt("use " .. ab.source.name, ab.source, nil, function(ctx, o) activate(ctx:with{ source = ab.source }, ab, {}) end)
  end
  out[#out + 1] = { label = "end turn", kind = "end", ends_phase = true }
  return out
end

function end_phase(ctx) ctx:expire("end_of_turn") end

function activate(ctx, ab, args)
  ab.def.operate(ctx, args)
  return true
end

function validate_deck(deck) return {} end

-- The card at the top of a stack of attachments.
function top_host(c)
  local h = c.host
  while h ~= nil and h.host ~= nil do h = h.host end
  return h
end
"#;

fn card(id: &str, category: &str, power: i64, script: Option<&str>) -> CardDef {
    common::card(id, category, serde_json::json!({ "power": power }), script)
}

fn cards() -> Vec<CardDef> {
    vec![
        card("runner", "piece", 4, None),
        card("main", "piece", 5, None),
        // Drummer: your other pieces get +1 power; when a flash happens, it gets a charge.
        card(
            "drummer",
            "piece",
            2,
            Some(
                r#"return {
                 { kind = "static",
                   affects = function(ctx, c) return c.category == "piece" and c.controller == ctx.player and c ~= ctx.source end,
                   modify = { { char = "power", op = "add", value = 1 } } },
                 { kind = "triggered", on = "flash",
                   operate = function(ctx) ctx:add_counter(ctx.source, "charge", 1) end } }"#,
            ),
        ),
        card("piper", "piece", 3, None),
        // Dancer: whenever it moves (in play), it gets a charge.
        card(
            "dancer",
            "piece",
            1,
            Some(
                r#"return { { kind = "triggered", on = "moved",
                   when = function(ctx, ev) return ev.card == ctx.source end,
                   operate = function(ctx) ctx:add_counter(ctx.source, "charge", 1) end } }"#,
            ),
        ),
        card("rod", "gear", 0, None),
        // Warden (steadfast: its rule's `unless` exempts it): your other pieces get +1 power.
        common::with_keywords(
            card(
                "warden",
                "piece",
                2,
                Some(
                    r#"return { { kind = "static",
                   affects = function(ctx, c) return c.category == "piece" and c.controller == ctx.player and c ~= ctx.source end,
                   modify = { { char = "power", op = "add", value = 1 } } } }"#,
                ),
            ),
            &["steadfast"],
        ),
        // Oath: the card at the top of its stack (itself when free) gets +2 power, an
        // ability that cannot be lost; when a flash happens it gets a charge (that one can).
        card(
            "oath",
            "piece",
            2,
            Some(
                r#"return {
                 { kind = "static", unlosable = true,
                   affects = function(ctx, c) return c == (top_host(ctx.source) or ctx.source) end,
                   modify = { { char = "power", op = "add", value = 2 } } },
                 { kind = "triggered", on = "flash",
                   operate = function(ctx) ctx:add_counter(ctx.source, "charge", 1) end } }"#,
            ),
        ),
        // Squire: while it is attached, its host gets +3 power.
        card(
            "squire",
            "piece",
            1,
            Some(
                r#"return { { kind = "static", attached = "works",
                   condition = function(ctx) return ctx.source.host ~= nil end,
                   affects = function(ctx, c) return c == ctx.source.host end,
                   modify = { { char = "power", op = "add", value = 3 } } } }"#,
            ),
        ),
        // Tutor: "use tutor": your other pieces gain "shine" (main: nothing) until end of turn.
        card(
            "tutor",
            "piece",
            1,
            Some(
                r#"local shine = { kind = "activated", timing = "main", dormant = true, operate = function(ctx) end }
                 return {
                   { kind = "activated", timing = "main", operate = function(ctx)
                       for _, z in ipairs({ "at_line", "df_line" }) do
                         for _, c in ipairs(ctx:cards(z, ctx.player)) do
                           if c ~= ctx.source then ctx:grant_ability(shine, c, { ["until"] = "end_of_turn" }) end
                         end
                       end
                     end },
                   shine }"#,
            ),
        ),
        // Lamp: the card at the top of its stack gets +3 power and a charge at each flash;
        // "use lamp" (main timing) does nothing but be listed.
        card(
            "lamp",
            "gear",
            0,
            Some(
                r#"return {
                 { kind = "static",
                   affects = function(ctx, c) return top_host(ctx.source) == c end,
                   modify = { { char = "power", op = "add", value = 3 } } },
                 { kind = "triggered", on = "flash",
                   operate = function(ctx)
                     local h = top_host(ctx.source)
                     if h then ctx:add_counter(h, "charge", 1) end
                   end },
                 { kind = "activated", timing = "main", operate = function(ctx) end } }"#,
            ),
        ),
    ]
}

fn content_with(tweak: impl FnOnce(&mut serde_json::Value)) -> Content {
    common::content(MANIFEST, tweak, &[("lines.lua", RULES_LUA)], cards())
}

fn engine_with(tweak: impl FnOnce(&mut serde_json::Value)) -> Rc<Engine> {
    engine_of(&content_with(tweak))
}

fn load_errors(tweak: impl FnOnce(&mut serde_json::Value)) -> String {
    common::load_errors(&content_with(tweak))
}

/// A game of Lines at player 1's first main phase with these cards placed (zone, card,
/// attached under the card placed at that index).
fn position(e: &Rc<Engine>, placed: &[(&str, &str, Option<usize>)]) -> Game {
    let mut b = Builder::new(e.clone(), 2, 7).expect("builder");
    let mut ids = Vec::new();
    for (zone, card, under) in placed {
        let opts = Place {
            attach_to: under.map(|i| ids[i]),
            ..Place::default()
        };
        ids.push(b.place(0, zone, card, &opts).expect("placed"));
    }
    let g = b.start(1, 0, "main").expect("started");
    g.check_invariants().expect("invariants at the start");
    g
}

/// Answers with the option whose label is `label`, then checks the invariants.
fn step(g: &mut Game, label: &str) {
    pick(g, label);
    assert!(g.errors().is_empty(), "script errors: {:?}", g.errors());
    g.check_invariants()
        .unwrap_or_else(|e| panic!("after '{label}': {e}"));
}

fn offered(g: &Game, label: &str) -> bool {
    labels(g).iter().any(|l| l == label)
}

/// Ends player 1's turn and player 2's, back to player 1's main phase.
fn next_round(g: &mut Game) {
    step(g, "end turn");
    step(g, "end turn");
}

/// Player 1's live card `name`, anywhere, at any depth of attachment.
fn live(g: &Game, name: &str) -> ObjId {
    g.with_state(|st| {
        let found: Vec<ObjId> = st
            .objects
            .iter()
            .filter(|o| o.alive && o.owner == 0 && g.card_id(o.id) == name)
            .map(|o| o.id)
            .collect();
        assert_eq!(found.len(), 1, "{name}: {found:?}");
        found[0]
    })
}

fn zone_of(g: &Game, id: ObjId) -> String {
    g.with_state(|st| {
        let decl = st.zone(st.obj(id).zone).decl as usize;
        g.engine().manifest().zones[decl].name.clone()
    })
}

fn host_of(g: &Game, id: ObjId) -> Option<ObjId> {
    g.with_state(|st| st.obj(id).attached_to)
}

fn alive(g: &Game, id: ObjId) -> bool {
    g.with_state(|st| st.obj(id).alive)
}

/// Card `id` as player 1 sees it (searching attachments at any depth).
fn seen(g: &Game, id: ObjId) -> CardView {
    fn find(cards: &[CardView], id: ObjId) -> Option<CardView> {
        cards.iter().find_map(|c| {
            if c.id == Some(id) {
                Some(c.clone())
            } else {
                find(&c.attachments, id)
            }
        })
    }
    let v = g.view(0);
    v.zones
        .iter()
        .find_map(|z| find(&z.cards, id))
        .unwrap_or_else(|| panic!("card {id:?} not in view"))
}

fn power(g: &Game, id: ObjId) -> i64 {
    seen(g, id).values["power"]
}

fn charge(g: &Game, id: ObjId) -> i64 {
    seen(g, id).counters.get("charge").copied().unwrap_or(0)
}

fn uses(g: &Game, id: ObjId) -> u32 {
    g.with_state(|st| st.obj(id).uses.iter().map(|u| u.2).sum())
}

/// Moves logged since `from` entries: (card id, reason).
fn moves_since(g: &Game, from: usize) -> Vec<(String, Option<String>)> {
    g.log()
        .iter()
        .skip(from)
        .filter_map(|e| match e {
            Entry::Event(ev) if ev.name == "moved" => {
                Some((g.card_id(ev.card.expect("card")), ev.reason.clone()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn moves_between_the_lines_keep_the_object_its_effects_counters_and_usage() {
    let e = engine_with(|_| {});
    let mut g = position(&e, &[("hand", "runner", None)]);
    let in_hand = live(&g, "runner");
    step(&mut g, "move runner to at_line");
    let r = live(&g, "runner");
    assert_ne!(r, in_hand, "from the hand into a Line: a new object");
    assert!(!alive(&g, in_hand));
    step(&mut g, "boost runner");
    step(&mut g, "charge runner");
    step(&mut g, "mark runner");
    let (ts, entered) = g.with_state(|st| (st.obj(r).timestamp, st.obj(r).entered_turn));
    for line in ["df_line", "no_line", "at_line", "at_line"] {
        step(&mut g, &format!("move runner to {line}"));
        assert_eq!(live(&g, "runner"), r, "to {line}: the same object");
        assert_eq!(zone_of(&g, r), line);
        assert_eq!(power(&g, r), 6, "4 printed + 2 until end of turn, kept");
        assert_eq!(charge(&g, r), 1, "its counter is kept");
        assert_eq!(uses(&g, r), 1, "its usage is kept");
        assert_eq!(
            g.with_state(|st| (st.obj(r).timestamp, st.obj(r).entered_turn)),
            (ts, entered),
            "it stays where it entered"
        );
    }
    // The kept effect still runs out at its point.
    next_round(&mut g);
    assert_eq!(live(&g, "runner"), r);
    assert_eq!(power(&g, r), 4, "the boost ended at the end of the turn");
    // Leaving the group makes a new object: no counters, no effects.
    step(&mut g, "boost runner");
    step(&mut g, "move runner to discard");
    let d = live(&g, "runner");
    assert_ne!(d, r);
    assert!(!alive(&g, r));
    assert_eq!(g.with_state(|st| st.obj(r).successor), Some(d));
    assert_eq!(zone_of(&g, d), "discard");
    assert_eq!(power(&g, d), 4);
    assert_eq!(charge(&g, d), 0);
    assert_eq!(uses(&g, d), 0);
}

/// The last-known power of the object `id` left behind, if it keeps last-known values.
fn last_known_power(g: &Game, id: ObjId) -> Option<i64> {
    let ci = g
        .engine()
        .manifest()
        .characteristics
        .iter()
        .position(|c| c.name == "power")
        .expect("power");
    g.with_state(|st| {
        st.obj(id).last_known.as_ref().map(|lk| match &lk[ci] {
            state::LastKnown::Int(v) => *v,
            other => panic!("power as {other:?}"),
        })
    })
}

#[test]
fn a_card_that_leaves_its_object_behind_leaves_its_last_known_values_with_it() {
    let e = engine_with(|_| {});
    let mut g = position(
        &e,
        &[
            ("at_line", "runner", None),
            ("at_line", "drummer", None),
            ("at_line", "rod", None),
        ],
    );
    let r = live(&g, "runner");
    // Within the Lines (one identity group): the same object, nothing left behind.
    step(&mut g, "move runner to df_line");
    assert_eq!(live(&g, "runner"), r);
    assert_eq!(last_known_power(&g, r), None);
    // Out of play: a new object; the old one holds its power as it left (4 + the
    // drummer's 1).
    step(&mut g, "move runner to discard");
    assert!(!alive(&g, r));
    assert_eq!(last_known_power(&g, r), Some(5));
    // Gear attached keeps no identity (its rule says none): the rod that left the Line
    // for the drummer is a new object, and the old one holds its power.
    let rod = live(&g, "rod");
    step(&mut g, "attach rod to drummer");
    assert_ne!(live(&g, "rod"), rod);
    assert_eq!(last_known_power(&g, rod), Some(0));
}

#[test]
fn a_card_that_keeps_its_object_triggers_once_for_its_move() {
    // Its move is seen from where it is now and, looked back, from where it was: one card,
    // one trigger.
    let e = engine_with(|_| {});
    let mut g = position(&e, &[("at_line", "dancer", None)]);
    let d = live(&g, "dancer");
    step(&mut g, "move dancer to df_line");
    assert!(offered(&g, "end turn"), "{:?}", g.request());
    assert_eq!(live(&g, "dancer"), d);
    assert_eq!(charge(&g, d), 1);
    step(&mut g, "move dancer to bench");
    assert_eq!(charge(&g, d), 2);
}

#[test]
fn a_keeps_identity_zone_keeps_the_object_from_anywhere_and_counts_as_entering_it() {
    let e = engine_with(|_| {});
    let mut g = position(&e, &[("hand", "runner", None)]);
    let r = live(&g, "runner");
    step(&mut g, "charge runner");
    let ts = g.with_state(|st| st.obj(r).timestamp);
    step(&mut g, "move runner to bench");
    assert_eq!(
        live(&g, "runner"),
        r,
        "the bench keeps identity from the hand"
    );
    assert_eq!(charge(&g, r), 1);
    assert!(
        g.with_state(|st| st.obj(r).timestamp) > ts,
        "entering the bench gives it a new timestamp"
    );
    step(&mut g, "move runner to at_line");
    assert_ne!(live(&g, "runner"), r, "bench to a Line: not in one group");
}

/// The stale-zone bug: a host that kept its object when it moved left its attachments'
/// `zone` where it had been. Uses only manifest fields older than identity groups.
#[test]
fn attachments_move_with_a_host_that_keeps_its_object_and_their_zone_follows() {
    let e = engine_with(|m| {
        let o = m.as_object_mut().unwrap();
        o.remove("identity");
        o.insert(
            "attachments".into(),
            serde_json::json!([{"category": "gear", "to": "discard"}]),
        );
    });
    let mut g = position(
        &e,
        &[
            ("at_line", "main", None),
            ("at_line", "rod", Some(0)),
            ("at_line", "lamp", Some(1)),
        ],
    );
    let (m, rod, lamp) = (live(&g, "main"), live(&g, "rod"), live(&g, "lamp"));
    step(&mut g, "move main to bench");
    assert_eq!(live(&g, "main"), m, "the bench keeps identity");
    assert_eq!(host_of(&g, rod), Some(m));
    assert_eq!(host_of(&g, lamp), Some(rod));
    assert_eq!(
        zone_of(&g, rod),
        "bench",
        "the attachment is where its host is"
    );
    assert_eq!(zone_of(&g, lamp), "bench", "at any depth");
    g.check_invariants().unwrap();
}

#[test]
fn supports_keep_their_object_pause_their_effects_and_lose_their_abilities() {
    let e = engine_with(|_| {});
    let mut g = position(
        &e,
        &[
            ("at_line", "main", None),
            ("at_line", "drummer", None),
            ("df_line", "piper", None),
        ],
    );
    let (m, d, p) = (live(&g, "main"), live(&g, "drummer"), live(&g, "piper"));
    // Free, the drummer's abilities work.
    assert_eq!(power(&g, m), 6, "5 + 1 from the drummer");
    step(&mut g, "flash");
    assert_eq!(charge(&g, d), 1, "its trigger works");
    step(&mut g, "boost drummer");
    assert_eq!(power(&g, d), 4);

    // Attached as a Support: the same object, effects paused, abilities suppressed.
    step(&mut g, "attach drummer to main");
    assert_eq!(live(&g, "drummer"), d, "attaching kept the object");
    assert_eq!(host_of(&g, d), Some(m));
    assert_eq!(charge(&g, d), 1, "its counter is kept");
    assert_eq!(power(&g, d), 2, "its boost is paused");
    assert_eq!(power(&g, m), 5, "its static ability is suppressed");
    step(&mut g, "flash");
    assert_eq!(charge(&g, d), 1, "its triggered ability is suppressed");
    step(&mut g, "attach piper to main");
    assert_eq!(live(&g, "piper"), p, "from another Line of the group: kept");
    assert_eq!(zone_of(&g, p), "at_line");
    // A card cannot go under its own attachment.
    step(&mut g, "attach main to drummer");
    assert_eq!(host_of(&g, m), None);
    assert_eq!(host_of(&g, d), Some(m));

    // Paused durations do not run out.
    next_round(&mut g);
    assert!(
        g.with_state(|st| st
            .effects
            .iter()
            .any(|e| e.target == effects::Target::Obj(d))),
        "the paused boost survived the end of turn"
    );

    // The composite moves whole between Lines: every object kept, zones updated.
    let before = g.log().len();
    step(&mut g, "move main to df_line");
    assert_eq!(live(&g, "main"), m);
    for s in [d, p] {
        assert!(alive(&g, s));
        assert_eq!(host_of(&g, s), Some(m));
        assert_eq!(zone_of(&g, s), "df_line");
    }
    assert_eq!(
        moves_since(&g, before),
        vec![
            ("main".to_string(), None),
            ("drummer".to_string(), Some("with_host".to_string())),
            ("piper".to_string(), Some("with_host".to_string())),
        ]
    );

    // Detached into a Line: the same object; its effects apply again and its abilities work.
    step(&mut g, "move drummer to at_line");
    assert_eq!(live(&g, "drummer"), d);
    assert_eq!(host_of(&g, d), None);
    assert_eq!(power(&g, d), 4, "the paused boost applies again");
    assert_eq!(power(&g, m), 6, "its static ability works again");
    step(&mut g, "flash");
    assert_eq!(charge(&g, d), 2);
    // The resumed boost runs out at the next end of turn.
    next_round(&mut g);
    assert_eq!(power(&g, d), 2);
}

#[test]
fn paused_effects_include_the_abilities_effects_gave_while_printed_ones_work_under_work() {
    // Supports whose abilities work but whose effects pause: the printed static keeps
    // working; a gained ability is paused with the other effects, and neither runs out.
    let e = engine_with(|m| {
        m["attachments"][0]["abilities"] = serde_json::json!("work");
        m["attachments"][0]
            .as_object_mut()
            .unwrap()
            .remove("unless");
    });
    let mut g = position(
        &e,
        &[
            ("at_line", "main", None),
            ("at_line", "drummer", None),
            ("at_line", "tutor", None),
        ],
    );
    let (m, d) = (live(&g, "main"), live(&g, "drummer"));
    step(&mut g, "use tutor");
    assert!(offered(&g, "use drummer"), "the drummer gained shine");
    step(&mut g, "attach drummer to main");
    assert_eq!(live(&g, "drummer"), d);
    assert!(!offered(&g, "use drummer"), "the gained ability is paused");
    assert_eq!(
        power(&g, m),
        5 + 1,
        "the printed static works (abilities: work)"
    );
    next_round(&mut g);
    step(&mut g, "move drummer to at_line");
    assert!(
        offered(&g, "use drummer"),
        "the gained ability did not run out while paused"
    );
    next_round(&mut g);
    assert!(!offered(&g, "use drummer"), "then it runs out");
}

#[test]
fn a_composite_moves_whole_into_a_stay_in_zone_and_splits_elsewhere() {
    let e = engine_with(|_| {});
    let mut g = position(
        &e,
        &[
            ("at_line", "main", None),
            ("at_line", "piper", None),
            ("hand", "rod", None),
        ],
    );
    let (m, p) = (live(&g, "main"), live(&g, "piper"));
    step(&mut g, "charge piper");
    step(&mut g, "attach piper to main");
    step(&mut g, "attach rod to main");
    let rod = live(&g, "rod");

    // Into the remove zone (the Supports' `stay_in`): the main is a new object there; the
    // Support stays attached, as a new object too; the gear has no `stay_in` and goes to
    // its rule's zone.
    step(&mut g, "move main to remove");
    let m2 = live(&g, "main");
    let p2 = live(&g, "piper");
    assert_ne!(m2, m);
    assert_ne!(p2, p, "the host made a new object: so does the Support");
    assert_eq!(zone_of(&g, m2), "remove");
    assert_eq!(host_of(&g, p2), Some(m2));
    assert_eq!(zone_of(&g, p2), "remove");
    assert_eq!(charge(&g, p2), 0);
    assert!(!alive(&g, rod));
    let rod2 = live(&g, "rod");
    assert_eq!(zone_of(&g, rod2), "discard");
    assert_eq!(host_of(&g, rod2), None);

    // Out of the remove zone to the hand (not a `stay_in` zone): the Support follows its
    // host there (its rule names no zone), detached.
    step(&mut g, "move main to hand");
    let p3 = live(&g, "piper");
    assert_eq!(zone_of(&g, live(&g, "main")), "hand");
    assert_eq!(zone_of(&g, p3), "hand");
    assert_eq!(host_of(&g, p3), None);
}

#[test]
fn abilities_of_an_attachment_of_an_attachment_work_under_a_work_policy() {
    let e = engine_with(|_| {});
    let mut g = position(
        &e,
        &[
            ("at_line", "main", None),
            ("at_line", "rod", Some(0)),
            ("at_line", "piper", None),
            ("hand", "lamp", None),
        ],
    );
    let m = live(&g, "main");
    assert_eq!(power(&g, m), 5);
    assert!(!offered(&g, "use lamp"), "in the hand it has no ability");

    // Lamp under rod under main: depth 2, every level `work`.
    step(&mut g, "attach lamp to rod");
    let lamp = live(&g, "lamp");
    assert_eq!(host_of(&g, lamp), Some(live(&g, "rod")));
    assert_eq!(power(&g, m), 8, "its static works at depth 2");
    assert!(offered(&g, "use lamp"), "ctx:abilities lists it at depth 2");
    step(&mut g, "flash");
    assert_eq!(charge(&g, m), 1, "its trigger works at depth 2");

    // Under a Support (a suppressed level on the way up), it does nothing.
    step(&mut g, "attach piper to main");
    step(&mut g, "attach lamp to piper");
    let lamp = live(&g, "lamp");
    assert_eq!(host_of(&g, lamp), Some(live(&g, "piper")));
    assert_eq!(power(&g, m), 5);
    assert!(!offered(&g, "use lamp"));
    step(&mut g, "flash");
    assert_eq!(charge(&g, m), 1);

    // The whole stack moves between Lines, at every depth.
    step(&mut g, "move main to no_line");
    for c in ["rod", "piper", "lamp"] {
        assert_eq!(zone_of(&g, live(&g, c)), "no_line", "{c}");
    }
}

#[test]
fn identity_and_attachment_fields_are_checked_by_name() {
    let unknown = load_errors(|m| {
        m["identity"] = serde_json::json!([{"zones": ["at_line", "moon"]}]);
    });
    assert!(
        unknown.contains("identity[0].zones: unknown zone 'moon'"),
        "{unknown}"
    );
    let twice = load_errors(|m| {
        m["identity"] = serde_json::json!([{"zones": ["at_line"]}, {"zones": ["at_line"]}]);
    });
    assert!(
        twice.contains("identity[1].zones: zone 'at_line' is already in an identity group"),
        "{twice}"
    );
    let stay = load_errors(|m| {
        m["attachments"][0]["stay_in"] = serde_json::json!(["moon"]);
    });
    assert!(
        stay.contains("attachments (piece): stay_in: unknown zone 'moon'"),
        "{stay}"
    );
    let dup = load_errors(|m| {
        m["attachments"][1]["category"] = serde_json::json!("piece");
    });
    assert!(
        dup.contains("attachments: category 'piece' has two rules"),
        "{dup}"
    );
    let bad: Result<RulesetManifest, _> = serde_json::from_value({
        let mut m: serde_json::Value = serde_json::from_str(MANIFEST).unwrap();
        m["attachments"][0]["abilities"] = serde_json::json!("sometimes");
        m
    });
    assert!(bad.is_err(), "an unknown policy is refused");
}

// A zone that keeps its cards (`keeps_cards`): no move
// takes a card out of it, whatever asks; cards attached to it come and go, and cards enter.
#[test]
fn a_zone_that_keeps_its_cards_lets_none_leave_but_its_attachments_and_newcomers_move() {
    let e = engine_with(|m| {
        let zones = m["zones"].as_array_mut().unwrap();
        let bench = zones.iter_mut().find(|z| z["name"] == "bench").unwrap();
        bench["keeps_cards"] = serde_json::json!(true);
    });
    let mut g = position(
        &e,
        &[
            ("bench", "main", None),
            ("bench", "rod", Some(0)),
            ("hand", "runner", None),
        ],
    );
    let (m, rod) = (live(&g, "main"), live(&g, "rod"));
    let logged = g.log().len();
    for to in ["hand", "discard", "at_line", "remove"] {
        step(&mut g, &format!("move main to {to}"));
        assert!(alive(&g, m), "main stays the same object");
        assert_eq!(zone_of(&g, m), "bench", "main never leaves the bench");
    }
    assert_eq!(moves_since(&g, logged), [], "nothing moved, nothing logged");
    // Its attachment may leave (the host stays), and another card may come in.
    step(&mut g, "move rod to discard");
    assert_eq!(zone_of(&g, live(&g, "rod")), "discard");
    assert_eq!(host_of(&g, live(&g, "rod")), None);
    assert!(!alive(&g, rod));
    step(&mut g, "move runner to bench");
    assert_eq!(zone_of(&g, live(&g, "runner")), "bench");
    assert_eq!(
        moves_since(&g, logged),
        [("rod".to_string(), None), ("runner".to_string(), None)]
    );
}

// SM 510.3 with Gl: Hyper Drive, (สูญเสียไม่ได้) and เป็นใบรอง as the model: exemptions from the
// suppression of an attached card's abilities.
#[test]
fn unlosable_abilities_exempt_cards_and_support_abilities_work_while_attached() {
    let e = engine_with(|_| {});
    let mut g = position(
        &e,
        &[
            ("at_line", "main", None),
            ("at_line", "warden", None),
            ("at_line", "oath", None),
            ("df_line", "squire", None),
        ],
    );
    let (m, w, o, q) = (
        live(&g, "main"),
        live(&g, "warden"),
        live(&g, "oath"),
        live(&g, "squire"),
    );
    assert_eq!(
        power(&g, m),
        6,
        "5 + 1 from the warden; the squire is not attached"
    );
    assert_eq!(
        power(&g, o),
        5,
        "2 + 1 from the warden + 2 from its own ability"
    );
    step(&mut g, "flash");
    assert_eq!(charge(&g, o), 1);
    // `abilities.suppressed_by` stops the oath's trigger, not its unlosable static.
    step(&mut g, "negate oath");
    step(&mut g, "flash");
    assert_eq!(charge(&g, o), 1, "its trigger is suppressed");
    assert_eq!(power(&g, o), 5, "its unlosable ability still works");

    // Attached under the suppressing rule: the steadfast warden is exempt.
    step(&mut g, "attach warden to main");
    assert_eq!(host_of(&g, w), Some(m));
    assert_eq!(power(&g, m), 6, "the exempt warden's static still works");
    // The oath, attached: its unlosable static works (on its host now), its trigger not.
    step(&mut g, "attach oath to main");
    assert_eq!(power(&g, m), 8, "5 + 1 + 2");
    step(&mut g, "flash");
    assert_eq!(charge(&g, o), 1);
    // The squire's `attached = "works"` static works only once it is attached.
    step(&mut g, "attach squire to main");
    assert_eq!(host_of(&g, q), Some(m));
    assert_eq!(power(&g, m), 11, "5 + 1 + 2 + 3");

    // Without the exemption the warden loses its abilities as a support.
    let plain = engine_with(|m| {
        m["attachments"][0]
            .as_object_mut()
            .unwrap()
            .remove("unless");
    });
    let mut g = position(
        &plain,
        &[("at_line", "main", None), ("at_line", "warden", None)],
    );
    let m = live(&g, "main");
    assert_eq!(power(&g, m), 6);
    step(&mut g, "attach warden to main");
    assert_eq!(
        power(&g, m),
        5,
        "a support without the name loses its abilities"
    );
}

#[test]
fn an_attachment_exemption_names_a_set_characteristic_of_a_suppressing_rule() {
    let not_set = load_errors(|m| {
        m["attachments"][0]["unless"] = serde_json::json!({"char": "power", "name": "x"});
    });
    assert!(
        not_set.contains("attachments (piece): unless: 'power' is not a set characteristic"),
        "{not_set}"
    );
    let works = load_errors(|m| {
        m["attachments"][1]["unless"] = serde_json::json!({"char": "keywords", "name": "x"});
    });
    assert!(works.contains("attachments (gear): `unless`"), "{works}");
}
