//! Lifetimes and limits on a made-up game ("Tally"): effects and granted abilities that
//! persist through named zones, usage limits by object, player, player and name or the whole
//! game over a window of turns, granted replacement abilities, the acting card of an
//! operation, and orientation over several cards as one simultaneous step.
//!
//! Tally: each player starts with cards on their board. A "sage" card's activated abilities
//! do the work (mark a card, move it to the well or the vault, grant abilities, spend and
//! report uses); "gate", "judge", "witness" and "mirror" cards watch or replace moves. A rule
//! check counts the rounds of rule checks ("tally").

mod common;

use common::{deck, engine_of, labels, new_game, pick};
use riffle_core::*;

const MANIFEST: &str = r#"{
  "game": "tally", "name": {"en": "Tally"}, "version": "1",
  "players": {"min": 2, "max": 2},
  "zones": [
    {"name": "deck", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true},
    {"name": "hand", "scope": "player", "visibility": "owner"},
    {"name": "board", "scope": "player", "visibility": "public", "in_play": true},
    {"name": "well", "scope": "player", "visibility": "public", "ordered": true},
    {"name": "vault", "scope": "player", "visibility": "public"}
  ],
  "categories": ["thing", "charm"],
  "characteristics": [{"name": "power", "kind": "int"}],
  "orientations": ["ready", "spent"],
  "counters": ["spark"],
  "flags": ["held"],
  "game_values": ["watch", "seen", "rounds"],
  "events": ["counted", "pulse"],
  "timings": ["main"],
  "durations": ["end_of_turn"],
  "effect_tags": ["mark", "hold"],
  "attachments": [{"category": "charm", "to": "well", "effects": "pause"}],
  "setup": "setup",
  "turn": {"phases": [{"name": "main", "actions": "main_actions"}, {"name": "end", "run": "end_phase"}]},
  "triggers": {"order": "fifo_batches", "player_orders": false},
  "checks": [
    {"name": "tally", "when": "tally_due", "run": "tally_run", "at": "after_each_operation"},
    {"name": "fall", "when": "fall_due", "run": "fall_run", "at": "after_each_operation"}
  ],
  "hooks": {"activate": "activate", "validate_deck": "validate_deck"},
  "deck": {"sections": [{"name": "board", "zone": "board"}]},
  "scripts": ["tally.lua"]
}"#;

const RULES_LUA: &str = r#"
function setup(ctx) end
function end_phase(ctx) ctx:expire("end_of_turn") end
function activate(ctx, ab, args) ab.def.operate(ctx, args) return true end
function validate_deck(deck) return {} end

--- The first card named `name` of player `p`, wherever it is.
function find(ctx, name, p)
  for _, z in ipairs({ "board", "hand", "well", "vault" }) do
    for _, c in ipairs(ctx:cards(z, p)) do
      if c.name == name then return c end
    end
  end
  return nil
end

function count(ctx, key, n) ctx:emit("counted", { key = key, amount = n }) end

function main_actions(ctx)
  local p = ctx.turn_player
  local out = {}
  for _, ab in ipairs(ctx:abilities({ kind = "activated", timing = "main", player = p })) do
    out[#out + 1] = { label = ab.def.label, run = function(ctx)
      activate(ctx:with({ source = ab.source }), ab, {})
    end }
  end
  -- The rules move a card themselves: no acting card.
  out[#out + 1] = { label = "flush", run = function(ctx) ctx:move(find(ctx, "oak", p), "well") end }
  out[#out + 1] = { label = "end turn", ends_phase = true }
  return out
end

-- The "tally" check: once watching, each rule-check round that sees a new number of ready
-- cards on the turn player's board counts one round.
local function ready(ctx)
  local n = 0
  for _, c in ipairs(ctx:cards("board", ctx.turn_player)) do
    if c.orientation == "ready" then n = n + 1 end
  end
  return n
end
function tally_due(ctx) return ctx:game_value("watch") > 0 and ready(ctx) ~= ctx:game_value("seen") end
function tally_run(ctx)
  ctx:set_game_value("seen", ready(ctx))
  ctx:set_game_value("rounds", ctx:game_value("rounds") + 1)
end

-- The "fall" check: a charm held under a card by an effect (flag `held`, an effect tagged
-- `hold` on it) falls to the well once that effect has ended or been cancelled.
local function fallen(ctx)
  local out = {}
  for p = 1, ctx.players do
    for _, c in ipairs(ctx:cards("board", p)) do
      for _, a in ipairs(c.attachments) do
        if a:flag_on("held") and #ctx:effects({ target = a, tag = "hold" }) == 0 then out[#out + 1] = a end
      end
    end
  end
  return out
end
function fall_due(ctx) return #fallen(ctx) > 0 end
function fall_run(ctx) ctx:move(fallen(ctx), "well", { reason = "fall" }) end
"#;

/// The sage: every tool the tests use, as activated abilities named by `label`.
const SAGE: &str = r#"
local echo = { kind = "triggered", on = "pulse", dormant = true,
  operate = function(ctx) count(ctx, "echo", 1) end }
-- Granted to a card: if it would go to the well, it goes to the vault instead.
local divert = { kind = "replacement", replaces = "move", dormant = true, match = { card = "self", to = "well" },
  applies = function(ctx, op) return true end,
  replace = function(ctx, op) op.zone = "vault" return op end }
-- Armed with no card, once: the next card of yours that would go to the well goes to the vault.
local divert_next = { kind = "replacement", replaces = "move", dormant = true, match = { to = "well" },
  applies = function(ctx, op) return op.card.owner == ctx.player end,
  replace = function(ctx, op) op.zone = "vault" return op end }
-- Given as a copy: "When a pulse happens, [S] is heard ([S] 1/turn)". [S] is the card that
-- has the copy: its name, and the limit shared by the cards of that name.
local heard = { kind = "triggered", on = "pulse", dormant = true,
  operate = function(ctx)
    local me = ctx.source.name
    if ctx:uses(ctx.player, "heard", { name = me }) >= 1 then return end
    ctx:use(ctx.player, "heard", { name = me })
    count(ctx, "heard by " .. me, 1)
  end }
local function act(label, fn) return { kind = "activated", timing = "main", label = label, operate = fn } end
local function oak(ctx) return find(ctx, "oak", ctx.player) end
return {
  echo, divert, divert_next, heard,
  act("copy to oak", function(ctx) ctx:grant_ability(heard, oak(ctx)) end),
  act("copy to elm", function(ctx) ctx:grant_ability(heard, find(ctx, "elm", ctx.player)) end),
  act("mark", function(ctx)
    local h = ctx:modify(oak(ctx), { char = "power", op = "add", value = 2 }, { tag = "mark", persists_in = { "well" } })
    count(ctx, "handle", h[1])
  end),
  act("mark till end", function(ctx)
    ctx:modify(oak(ctx), { char = "power", op = "add", value = 2 },
      { tag = "mark", persists_in = "well", ["until"] = "end_of_turn" })
  end),
  act("mark plainly", function(ctx)
    ctx:modify(oak(ctx), { char = "power", op = "add", value = 2 }, { tag = "mark" })
  end),
  act("sink oak", function(ctx) ctx:move(oak(ctx), "well") end),
  act("sink elm", function(ctx) ctx:move(find(ctx, "elm", ctx.player), "well") end),
  act("lift oak", function(ctx) ctx:move(oak(ctx), "hand") end),
  act("stash oak", function(ctx) ctx:move(oak(ctx), "vault") end),
  act("report", function(ctx)
    local c = oak(ctx)
    count(ctx, "oak power", c.power)
    local marks = ctx:effects({ tag = "mark" })
    count(ctx, "marks", #marks)
    count(ctx, "marks on oak", #ctx:effects({ target = c }))
    if marks[1] then
      count(ctx, "mark handle", marks[1].handle)
      count(ctx, "mark zones", #(marks[1].persists_in or {}))
    end
  end),
  act("gift", function(ctx) ctx:grant_ability(echo, oak(ctx), { persists_in = { "well" } }) end),
  act("gift plainly", function(ctx) ctx:grant_ability(echo, oak(ctx)) end),
  act("pulse", function(ctx) ctx:emit("pulse", {}) end),
  act("ward", function(ctx) ctx:grant_ability(divert, oak(ctx), { ["until"] = "end_of_turn" }) end),
  act("ward next", function(ctx) ctx:grant_ability(divert_next, nil, { once = true, ["until"] = "end_of_turn" }) end),
  act("spend", function(ctx)
    ctx:use(ctx.source, "spark")
    ctx:use(ctx.player, "spark")
    ctx:use(ctx.player, "spark", { name = ctx.source.name })
    ctx:use("game", "spark")
  end),
  act("sink and compare", function(ctx)
    local old = oak(ctx)
    local new = ctx:move(old, "well")[1]
    count(ctx, "old power", old.power)
    count(ctx, "new power", new.power)
  end),
  act("mark bead", function(ctx)
    ctx:modify(find(ctx, "bead", ctx.player), { char = "power", op = "add", value = 2 }, { persists_in = "board" })
  end),
  act("tuck bead", function(ctx) ctx:attach(find(ctx, "bead", ctx.player), oak(ctx)) end),
  act("untuck bead", function(ctx) ctx:move(oak(ctx).attachments[1], "board") end),
  act("report bead", function(ctx)
    local b = find(ctx, "bead", ctx.player) or oak(ctx).attachments[1]
    count(ctx, "bead power", b.power)
    count(ctx, "bead effects", #ctx:effects({ target = b }))
  end),
  act("bind bead", function(ctx)
    -- The effect that holds it is made first, and persists as it goes under the oak.
    local b = find(ctx, "bead", ctx.player)
    ctx:modify(b, { char = "power", op = "add", value = 0 }, { tag = "hold", persists_in = "board" })
    b = ctx:attach(b, oak(ctx))
    ctx:set_flag(b, "held", true)
  end),
  act("cancel holds", function(ctx)
    for _, e in ipairs(ctx:effects({ tag = "hold" })) do ctx:end_effect(e.handle) end
  end),
  act("report uses", function(ctx)
    count(ctx, "object", ctx:uses(ctx.source, "spark"))
    count(ctx, "object game", ctx:uses(ctx.source, "spark", { over = "game" }))
    count(ctx, "player", ctx:uses(ctx.player, "spark"))
    count(ctx, "player 2", ctx:uses(ctx.player, "spark", { over = 2 }))
    count(ctx, "player 3", ctx:uses(ctx.player, "spark", { over = 3 }))
    count(ctx, "player game", ctx:uses(ctx.player, "spark", { over = "game" }))
    count(ctx, "name", ctx:uses(ctx.player, "spark", { name = "sage" }))
    count(ctx, "name game", ctx:uses(ctx.player, "spark", { name = "sage", over = "game" }))
    count(ctx, "other name", ctx:uses(ctx.player, "spark", { name = "oak", over = "game" }))
    count(ctx, "game", ctx:uses("game", "spark", { over = "game" }))
    count(ctx, "game turn", ctx:uses("game", "spark"))
  end),
  act("recycle", function(ctx)
    local c = ctx:move(ctx.source, "well")[1]
    ctx:move(c, "board")
  end),
  act("bad use", function(ctx) ctx:use(nil, "spark") end),
  act("bad window", function(ctx) ctx:uses(ctx.player, "spark", { over = 0 }) end),
  act("bad scope", function(ctx) ctx:use(ctx.source, "spark", { name = "oak" }) end),
  act("bad opts", function(ctx) ctx:uses(ctx.player, "spark", "game") end),
  act("bad option", function(ctx) ctx:use(ctx.player, "spark", { per = "game" }) end),
  act("bad zone", function(ctx)
    ctx:modify(oak(ctx), { char = "power", op = "add", value = 1 }, { persists_in = { "moon" } })
  end),
  act("tire all", function(ctx)
    ctx:set_game_value("watch", 0)
    local done = ctx:set_orientation(ctx:cards("board", ctx.player), "spent")
    count(ctx, "tired", #done)
    ctx:set_game_value("seen", 0)
    ctx:set_game_value("watch", 1)
  end),
  act("rouse all", function(ctx) ctx:set_orientation(ctx:cards("board", ctx.player), "ready") end),
  act("spark all", function(ctx)
    local after = ctx:add_counter(ctx:cards("board", ctx.player), "spark", 2)
    count(ctx, "sparked", #after)
    count(ctx, "first spark", after[1])
  end),
  act("report rounds", function(ctx) count(ctx, "rounds", ctx:game_value("rounds")) end),
}
"#;

/// Gate: a card of yours that would go to the well goes to your hand instead.
const GATE: &str = r#"return { { kind = "replacement", replaces = "move", match = { to = "well" },
  applies = function(ctx, op) return op.card.controller == ctx.player end,
  replace = function(ctx, op) op.zone = "hand" return op end } }"#;

/// Witness: when a card goes to a well, count who moved it (the acting card, or the rules).
const WITNESS: &str = r#"return { { kind = "triggered", on = "moved", match = { to = "well" },
  operate = function(ctx)
    local s = ctx.event.source
    count(ctx, "moved by " .. (s and s.name or "rules"), 1)
  end } }"#;

/// Judge: a move to a vault made by a card is announced with that card's name.
const JUDGE: &str = r#"return { { kind = "replacement", replaces = "move", match = { to = "vault", source = "card" },
  applies = function(ctx, op) return op.source ~= nil end,
  replace = function(ctx, op) count(ctx, "replacing " .. op.source.name, 1) return op end } }"#;

/// Mirror: sinks the oak itself; counts the moves its own abilities make, and the others.
const MIRROR: &str = r#"return {
  { kind = "activated", timing = "main", label = "mirror sink",
    operate = function(ctx) ctx:move(find(ctx, "oak", ctx.player), "well") end },
  { kind = "triggered", on = "moved", match = { source = "self" },
    operate = function(ctx) count(ctx, "mirror own", 1) end },
  { kind = "triggered", on = "moved", match = { source = "other" },
    operate = function(ctx) count(ctx, "mirror other", 1) end },
  { kind = "triggered", on = "moved", match = { source = "none" },
    operate = function(ctx) count(ctx, "mirror rules", 1) end },
}"#;

/// Keeper: its spark counters change only by its own abilities; it counts who charged it.
const KEEPER: &str = r#"return {
  { kind = "activated", timing = "main", label = "keeper charge",
    operate = function(ctx) ctx:add_counter(ctx.source, "spark", 1) end },
  { kind = "replacement", replaces = "counter", match = { card = "self", source = "other" },
    applies = function(ctx, op) return true end,
    replace = function(ctx, op) return nil end },
  { kind = "triggered", on = "counter", match = { card = "self" },
    operate = function(ctx) count(ctx, "charged by " .. ctx.event.source.name, 1) end },
}"#;

fn card(id: &str, power: i64, script: Option<&str>) -> CardDef {
    let category = if id == "bead" { "charm" } else { "thing" };
    common::card(id, category, serde_json::json!({ "power": power }), script)
}

fn content() -> Content {
    common::content(
        MANIFEST,
        |_| {},
        &[("tally.lua", RULES_LUA)],
        vec![
            card("oak", 3, None),
            card("elm", 3, None),
            card("sage", 1, Some(SAGE)),
            card("gate", 0, Some(GATE)),
            card("witness", 0, Some(WITNESS)),
            card("judge", 0, Some(JUDGE)),
            card("mirror", 0, Some(MIRROR)),
            card("bead", 1, None),
            card("keeper", 0, Some(KEEPER)),
        ],
    )
}

/// A game whose boards start with these cards (P1's, then P2's).
fn game_with(p1: &[(&str, u32)], p2: &[(&str, u32)]) -> Game {
    let e = engine_of(&content());
    new_game(&e, 1, vec![deck("board", p1), deck("board", p2)])
}

fn game() -> Game {
    game_with(
        &[("oak", 1), ("elm", 1), ("sage", 1)],
        &[("oak", 1), ("elm", 1), ("sage", 1)],
    )
}

/// Answers with the `nth` (0-based) option whose label is `label`.
fn pick_nth(g: &mut Game, label: &str, nth: usize) {
    let all = labels(g);
    let i = (0..all.len())
        .filter(|i| all[*i] == label)
        .nth(nth)
        .unwrap_or_else(|| panic!("no option '{label}' #{nth} in {all:?}"));
    let player = g.request().expect("a request").player();
    g.respond(
        player,
        Response::Choose {
            indices: vec![i as u32],
        },
    )
    .expect("legal");
}

/// The last `counted` event with this key.
fn counted(g: &Game, key: &str) -> i64 {
    try_counted(g, key).unwrap_or_else(|| panic!("no count '{key}'; errors: {:?}", g.errors()))
}

fn try_counted(g: &Game, key: &str) -> Option<i64> {
    g.log().iter().rev().find_map(|e| match e {
        Entry::Event(e) if e.name == "counted" && e.key.as_deref() == Some(key) => Some(e.amount),
        _ => None,
    })
}

/// How many `counted` events with this key were logged.
fn times(g: &Game, key: &str) -> usize {
    g.log()
        .iter()
        .filter(|e| matches!(e, Entry::Event(e) if e.name == "counted" && e.key.as_deref() == Some(key)))
        .count()
}

/// The zone of player `p`'s card `id` (as player `p` sees it).
fn zone_of(g: &Game, p: PlayerId, id: &str) -> String {
    g.view(p)
        .zones
        .iter()
        .find(|z| z.owner == Some(p) && z.cards.iter().any(|c| c.card.as_deref() == Some(id)))
        .map(|z| z.name.clone())
        .unwrap_or_else(|| panic!("{id} is nowhere"))
}

fn last_error(g: &Game) -> String {
    g.errors().last().cloned().unwrap_or_default()
}

// Effects and granted abilities that persist through named zones (G8) ----------------------

#[test]
fn an_effect_that_persists_in_a_zone_follows_the_card_there_with_its_handle() {
    let mut g = game();
    pick(&mut g, "mark");
    let handle = counted(&g, "handle");
    pick(&mut g, "report");
    assert_eq!(counted(&g, "oak power"), 5);
    pick(&mut g, "sink oak");
    assert_eq!(zone_of(&g, 0, "oak"), "well");
    pick(&mut g, "report");
    assert_eq!(
        counted(&g, "oak power"),
        5,
        "the effect followed the oak into the well"
    );
    assert_eq!(counted(&g, "marks"), 1);
    assert_eq!(counted(&g, "marks on oak"), 1, "listed on the new object");
    assert_eq!(counted(&g, "mark handle"), handle, "same handle");
    assert_eq!(
        counted(&g, "mark zones"),
        1,
        "ctx:effects lists persists_in"
    );
}

#[test]
fn the_card_that_left_keeps_the_persisting_effect_in_its_last_known_values() {
    let mut g = game();
    pick(&mut g, "mark");
    pick(&mut g, "sink and compare");
    assert_eq!(
        counted(&g, "old power"),
        5,
        "as it was when it left the board"
    );
    assert_eq!(counted(&g, "new power"), 5, "and the new object has it");
}

#[test]
fn a_persisting_effect_on_a_card_attached_in_its_zone_is_paused_there() {
    let mut g = game_with(&[("oak", 1), ("sage", 1), ("bead", 1)], &[("oak", 1)]);
    pick(&mut g, "mark bead");
    pick(&mut g, "tuck bead"); // a new object under the oak, on the board: it follows
    pick(&mut g, "report bead");
    assert_eq!(
        counted(&g, "bead effects"),
        1,
        "it followed the bead under the oak"
    );
    assert_eq!(
        counted(&g, "bead power"),
        1,
        "paused while attached (effects: pause)"
    );
    pick(&mut g, "untuck bead"); // back on the board by itself
    pick(&mut g, "report bead");
    assert_eq!(counted(&g, "bead power"), 3, "it applies again");
}

#[test]
fn an_attachment_held_by_an_effect_falls_when_the_effect_is_cancelled() {
    let mut g = game_with(&[("oak", 1), ("sage", 1), ("bead", 1)], &[("oak", 1)]);
    pick(&mut g, "bind bead");
    pick(&mut g, "end turn");
    pick(&mut g, "end turn");
    pick(&mut g, "report bead");
    assert_eq!(counted(&g, "bead effects"), 1, "still held under the oak");
    pick(&mut g, "cancel holds");
    assert_eq!(zone_of(&g, 0, "bead"), "well", "the rule check let it fall");
}

#[test]
fn a_persisting_effect_ends_when_the_card_moves_anywhere_else() {
    let mut g = game();
    pick(&mut g, "mark");
    pick(&mut g, "sink oak");
    pick(&mut g, "report");
    assert_eq!(counted(&g, "oak power"), 5, "in the well, it persists");
    pick(&mut g, "lift oak"); // well → hand: not a zone it persists in
    pick(&mut g, "report");
    assert_eq!(counted(&g, "oak power"), 3);
    assert_eq!(counted(&g, "marks"), 0);
    // Straight from the board to the vault: it ends too.
    let mut g = game();
    pick(&mut g, "mark");
    pick(&mut g, "stash oak");
    pick(&mut g, "report");
    assert_eq!((counted(&g, "oak power"), counted(&g, "marks")), (3, 0));
    // An effect without persists_in ends on the way to the well, as before.
    let mut g = game();
    pick(&mut g, "mark plainly");
    pick(&mut g, "sink oak");
    pick(&mut g, "report");
    assert_eq!((counted(&g, "oak power"), counted(&g, "marks")), (3, 0));
}

#[test]
fn a_persisting_effect_keeps_its_duration() {
    let mut g = game();
    pick(&mut g, "mark till end");
    pick(&mut g, "sink oak");
    pick(&mut g, "report");
    assert_eq!(counted(&g, "oak power"), 5, "still there in the well");
    pick(&mut g, "end turn"); // the end of turn passes: it ends
    pick(&mut g, "end turn");
    pick(&mut g, "report");
    assert_eq!((counted(&g, "oak power"), counted(&g, "marks")), (3, 0));
}

#[test]
fn an_ability_granted_to_persist_in_a_zone_keeps_working_there() {
    let mut g = game();
    pick(&mut g, "gift");
    pick(&mut g, "pulse");
    assert_eq!(times(&g, "echo"), 1);
    pick(&mut g, "sink oak");
    pick(&mut g, "pulse");
    assert_eq!(times(&g, "echo"), 2, "the oak in the well still has it");
    pick(&mut g, "lift oak");
    pick(&mut g, "pulse");
    assert_eq!(times(&g, "echo"), 2, "gone once the oak went to the hand");
    // Granted without persists_in: gone in the well.
    let mut g = game();
    pick(&mut g, "gift plainly");
    pick(&mut g, "sink oak");
    pick(&mut g, "pulse");
    assert_eq!(times(&g, "echo"), 0);
}

#[test]
fn persists_in_an_undeclared_zone_is_an_error_naming_the_card_and_the_zones() {
    let mut g = game();
    pick(&mut g, "bad zone");
    let err = last_error(&g);
    assert!(
        err.contains("sage") && err.contains("moon") && err.contains("well"),
        "{err}"
    );
}

// Usage limits by object, player, player and name, or game, over N turns (G17) --------------

#[test]
fn usage_is_counted_by_object_player_name_or_game_over_windows_of_turns() {
    let mut g = game_with(&[("oak", 1), ("sage", 2)], &[("oak", 1), ("sage", 1)]);
    // Turn 1: both of P1's sages spend once.
    pick_nth(&mut g, "spend", 0);
    pick_nth(&mut g, "spend", 1);
    pick_nth(&mut g, "report uses", 0);
    assert_eq!(counted(&g, "object"), 1, "each sage counts its own");
    assert_eq!(counted(&g, "player"), 2);
    assert_eq!(
        counted(&g, "name"),
        2,
        "the two sages share their name's count"
    );
    assert_eq!(counted(&g, "other name"), 0);
    assert_eq!(counted(&g, "game turn"), 2);
    pick(&mut g, "end turn");
    // Turn 2: P2 spends once.
    pick(&mut g, "spend");
    pick(&mut g, "report uses");
    assert_eq!(counted(&g, "player game"), 1, "P2's own count");
    assert_eq!(
        counted(&g, "name game"),
        1,
        "same name, other owner: counted apart"
    );
    assert_eq!(counted(&g, "game"), 3, "the game's count is everyone's");
    pick(&mut g, "end turn");
    // Turn 3: P1 spends once more.
    pick(&mut g, "spend");
    pick(&mut g, "report uses");
    assert_eq!(counted(&g, "object"), 1, "this turn");
    assert_eq!(counted(&g, "object game"), 2, "the whole game");
    assert_eq!(counted(&g, "player"), 1);
    assert_eq!(counted(&g, "player 2"), 1, "turns 2 and 3");
    assert_eq!(counted(&g, "player 3"), 3, "turns 1 to 3");
    assert_eq!(counted(&g, "player game"), 3);
    assert_eq!(counted(&g, "name game"), 3);
    assert_eq!(counted(&g, "game"), 4);
}

#[test]
fn usage_by_object_dies_with_the_object_and_usage_by_player_does_not() {
    let mut g = game();
    pick(&mut g, "spend");
    pick(&mut g, "recycle"); // the sage leaves the board and comes back: a new object
    pick(&mut g, "report uses");
    assert_eq!(
        counted(&g, "object game"),
        0,
        "the new sage has not used it"
    );
    assert_eq!(counted(&g, "player"), 1, "the player has");
    assert_eq!(counted(&g, "name"), 1);
}

#[test]
fn a_fork_copies_usage_and_does_not_share_it() {
    let mut g = game();
    pick(&mut g, "spend");
    let mut f = g.fork();
    pick(&mut f, "spend");
    pick(&mut f, "report uses");
    assert_eq!(counted(&f, "player"), 2);
    pick(&mut g, "report uses");
    assert_eq!(counted(&g, "player"), 1, "the fork's use is its own");
}

#[test]
fn bad_usage_arguments_are_errors_naming_the_card() {
    let mut g = game();
    pick(&mut g, "bad use");
    let err = last_error(&g);
    assert!(err.contains("sage") && err.contains("\"game\""), "{err}");
    pick(&mut g, "bad window");
    let err = last_error(&g);
    assert!(err.contains("sage") && err.contains("over"), "{err}");
    pick(&mut g, "bad scope");
    let err = last_error(&g);
    assert!(err.contains("sage") && err.contains("name"), "{err}");
    pick(&mut g, "bad opts");
    let err = last_error(&g);
    assert!(err.contains("sage") && err.contains("table"), "{err}");
    pick(&mut g, "bad option");
    let err = last_error(&g);
    assert!(err.contains("sage") && err.contains("'per'"), "{err}");
}

// Granted replacement abilities (G1) -------------------------------------------------------

#[test]
fn a_granted_replacement_applies_while_the_grant_lasts() {
    let mut g = game();
    pick(&mut g, "ward");
    pick(&mut g, "sink elm");
    assert_eq!(zone_of(&g, 0, "elm"), "well", "only the oak has it");
    pick(&mut g, "sink oak");
    assert_eq!(
        zone_of(&g, 0, "oak"),
        "vault",
        "the granted replacement applied"
    );
    // Once the grant has ended, it no longer applies.
    let mut g = game();
    pick(&mut g, "ward");
    pick(&mut g, "end turn");
    pick(&mut g, "end turn");
    pick(&mut g, "sink oak");
    assert_eq!(zone_of(&g, 0, "oak"), "well");
}

#[test]
fn a_granted_replacement_is_the_affected_cards_own_in_the_replacement_order() {
    // Gate would send the oak to the hand; the oak's own (granted) replacement goes first
    // and sends it to the vault, where the gate no longer applies.
    let mut g = game_with(&[("oak", 1), ("sage", 1), ("gate", 1)], &[("oak", 1)]);
    pick(&mut g, "sink oak");
    assert_eq!(zone_of(&g, 0, "oak"), "hand", "the gate alone");
    let mut g = game_with(&[("oak", 1), ("sage", 1), ("gate", 1)], &[("oak", 1)]);
    pick(&mut g, "ward");
    pick(&mut g, "sink oak");
    assert_eq!(zone_of(&g, 0, "oak"), "vault");
}

#[test]
fn a_replacement_armed_once_with_no_card_applies_to_the_next_operation_only() {
    let mut g = game();
    pick(&mut g, "ward next");
    pick(&mut g, "sink oak");
    assert_eq!(zone_of(&g, 0, "oak"), "vault");
    pick(&mut g, "sink elm");
    assert_eq!(zone_of(&g, 0, "elm"), "well", "spent");
}

// The acting card of an operation (G11) ----------------------------------------------------

#[test]
fn events_and_replacements_see_the_card_that_acted() {
    let mut g = game_with(
        &[
            ("oak", 1),
            ("elm", 1),
            ("sage", 1),
            ("witness", 1),
            ("judge", 1),
        ],
        &[("oak", 1)],
    );
    pick(&mut g, "sink elm");
    assert_eq!(times(&g, "moved by sage"), 1, "ev.source is the sage");
    pick(&mut g, "flush");
    assert_eq!(
        times(&g, "moved by rules"),
        1,
        "the rules' own move has no source"
    );
    pick(&mut g, "lift oak");
    pick(&mut g, "stash oak");
    assert_eq!(times(&g, "replacing sage"), 1, "op.source is the sage");
}

#[test]
fn a_triggered_abilitys_match_tests_the_acting_card() {
    let mut g = game_with(
        &[("oak", 1), ("elm", 1), ("sage", 1), ("mirror", 1)],
        &[("oak", 1)],
    );
    pick(&mut g, "mirror sink");
    assert_eq!(
        (
            times(&g, "mirror own"),
            times(&g, "mirror other"),
            times(&g, "mirror rules")
        ),
        (1, 0, 0)
    );
    pick(&mut g, "sink elm");
    assert_eq!(
        (
            times(&g, "mirror own"),
            times(&g, "mirror other"),
            times(&g, "mirror rules")
        ),
        (1, 1, 0)
    );
    pick(&mut g, "lift oak");
    pick(&mut g, "flush");
    assert_eq!(
        (
            times(&g, "mirror own"),
            times(&g, "mirror other"),
            times(&g, "mirror rules")
        ),
        (1, 2, 1)
    );
}

#[test]
fn a_counter_only_its_own_card_may_change_refuses_other_cards() {
    let mut g = game_with(&[("oak", 1), ("sage", 1), ("keeper", 1)], &[("oak", 1)]);
    let sparks = |g: &Game, id: &str| {
        g.view(0)
            .zones
            .iter()
            .flat_map(|z| z.cards.iter())
            .find(|c| c.card.as_deref() == Some(id))
            .and_then(|c| c.counters.get("spark").copied())
            .unwrap_or(0)
    };
    pick(&mut g, "spark all"); // the sage adds 2 to every card of the board
    assert_eq!((sparks(&g, "oak"), sparks(&g, "keeper")), (2, 0));
    pick(&mut g, "keeper charge");
    assert_eq!(sparks(&g, "keeper"), 1, "its own ability may");
    assert_eq!(
        times(&g, "charged by keeper"),
        1,
        "the counter event names the keeper"
    );
}

// Orientation and counters over several cards as one step (G3) -----------------------------

#[test]
fn an_orientation_of_several_cards_is_one_step_with_one_round_of_checks() {
    let mut g = game();
    pick(&mut g, "tire all");
    assert_eq!(counted(&g, "tired"), 3, "one result per card");
    pick(&mut g, "rouse all");
    pick(&mut g, "report rounds");
    assert_eq!(
        counted(&g, "rounds"),
        1,
        "three cards readied together: one round of rule checks"
    );
}

#[test]
fn counters_on_several_cards_are_one_operation() {
    let mut g = game();
    pick(&mut g, "spark all");
    assert_eq!((counted(&g, "sparked"), counted(&g, "first spark")), (3, 2));
}

// SM84 (Gl: "gain another card's Skill/Ability"): a gained copy's
// references to its source's name, its limit bracket included, are the receiver's: the
// copy reads `ctx.source`, which is the card that has it.
#[test]
fn a_gained_copy_names_its_receiver_and_counts_its_limit_under_the_receivers_name() {
    let mut g = game();
    pick(&mut g, "copy to oak");
    pick(&mut g, "pulse");
    assert_eq!(times(&g, "heard by oak"), 1);
    assert_eq!(
        times(&g, "heard by sage"),
        0,
        "the sage's own is not printed active"
    );
    // "[S] 1/turn" under the oak's name: a second pulse is not heard again.
    pick(&mut g, "pulse");
    assert_eq!(times(&g, "heard by oak"), 1);
    // Another receiver, another name: its own limit.
    pick(&mut g, "copy to elm");
    pick(&mut g, "pulse");
    assert_eq!(times(&g, "heard by elm"), 1);
    assert_eq!(times(&g, "heard by oak"), 1);
}
