//! Kernel tests on a made-up game, "Skirmish", for 2 to 4 players, never a real one. Each
//! player fields units (attack `atk`, hit points `hp`) that may carry one crew card each; a
//! face-down guard pile and an outpost stand between the units and the player; supply cards
//! in the reserve are the player's level and pay costs; orders are played from hand and
//! resolve in limbo. Damage stays on cards as counters, and rule processing destroys a card
//! whose damage reaches its hp (a guard at any damage). A unit attacks a player or a rested
//! unit in a battle: a procedure with a block window, an action window (both players in
//! turn, the next player first) and a damage step. A player hit by a unit with nothing left
//! to protect them, or with an empty deck, loses.
//!
//! The rules are in `RULES_LUA`; each test adds "scenes" (`scene(name, fn)`: an action of the
//! main phase labelled "do <name>") for what it needs, and builds its position by hand.
//! Each test names the rows of `docs/kernel.md` it checks (`GD…`)
//! and the rule numbers behind them.

mod common;

use std::rc::Rc;

use common::{engine_of, with_keywords};
use riffle_core::state::ZoneId;
use riffle_core::*;
use serde_json::json;

const MANIFEST: &str = r#"{
  "game": "skirmish", "name": {"en": "Skirmish"}, "version": "1",
  "players": {"min": 2, "max": 4},
  "options": [
    {"name": "victory", "values": ["first_to_win", "last_standing"], "default": "first_to_win",
     "doc": "A hit on an unprotected player: its dealer wins, or that player is out and the rest play on."},
    {"name": "action_start", "values": ["next", "turn_player"], "default": "next",
     "doc": "Who acts first in an action window: the player after the turn player, or the turn player."},
    {"name": "seating", "values": ["clockwise", "counterclockwise"], "default": "clockwise"}
  ],
  "zones": [
    {"name": "deck", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true, "removes_tokens": true},
    {"name": "supply", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true, "removes_tokens": true},
    {"name": "hand", "scope": "player", "visibility": "owner", "removes_tokens": true},
    {"name": "reserve", "scope": "player", "visibility": "public", "in_play": true},
    {"name": "field", "scope": "player", "visibility": "public", "in_play": true, "capacity": 6},
    {"name": "outpost", "scope": "player", "visibility": "public", "in_play": true, "capacity": 1},
    {"name": "guards", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true},
    {"name": "limbo", "scope": "player", "visibility": "public", "removes_tokens": true},
    {"name": "scrap", "scope": "player", "visibility": "public", "ordered": true, "removes_tokens": true},
    {"name": "exile", "scope": "player", "visibility": "public", "removes_tokens": true}
  ],
  "categories": ["unit", "crew", "order", "outpost", "supply"],
  "characteristics": [
    {"name": "atk", "kind": "int", "min": 0},
    {"name": "hp", "kind": "int", "min": 0},
    {"name": "cost", "kind": "int", "min": 0},
    {"name": "lv", "kind": "int", "min": 0},
    {"name": "mend", "kind": "int", "min": 0},
    {"name": "traits", "kind": "set"},
    {"name": "names", "kind": "set", "field": "name"},
    {"name": "kinds", "kind": "set"},
    {"name": "bond", "kind": "set"},
    {"name": "keywords", "kind": "set"}
  ],
  "keywords": [{"name": "first_strike"}, {"name": "interceptor"}, {"name": "evasive"}, {"name": "hasty"},
               {"name": "cannot_attack"}, {"name": "unbreakable"}],
  "orientations": ["active", "rested"],
  "counters": ["damage"],
  "flags": ["attacking", "attacked", "bonded"],
  "player_values": ["hit_while_open"],
  "game_values": ["in_battle"],
  "events": ["note", "step", "bonded", "signal"],
  "timings": ["main", "action", "ambush"],
  "durations": ["end_of_turn", "end_of_battle"],
  "attachments": [{"category": "crew"}, {"category": "order"}],
  "setup": "setup",
  "turn": {"phases": [
    {"name": "start", "run": "start_phase"},
    {"name": "draw", "run": "draw_phase"},
    {"name": "resource", "run": "resource_phase"},
    {"name": "main", "actions": "main_actions"},
    {"name": "end", "run": "end_phase"}
  ], "direction_option": "seating"},
  "triggers": {"order": "fifo_batches", "player_orders": true},
  "checks": [
    {"name": "defeat", "when": "defeat_due", "run": "defeat_run", "at": "after_each_operation"},
    {"name": "destruction", "when": "destruction_due", "run": "destruction_run", "at": "after_each_operation"},
    {"name": "bonds", "when": "bond_due", "run": "bond_run", "at": "after_each_operation"}
  ],
  "hooks": {"activate": "activate", "validate_deck": "validate_deck", "rule_abilities": "RULES"},
  "elimination": {"cards": "remove"},
  "deck": {"sections": [{"name": "main", "zone": "deck"}, {"name": "supply", "zone": "supply"}]},
  "procedures": [
    {"name": "battle", "steps": [
      {"name": "attack", "run": "battle_attack"},
      {"name": "block", "stop_unless": "battle_on",
       "window": {"players": "defender", "model": "once", "actions": "block_actions", "prompt": "block"}},
      {"name": "action", "stop_unless": "battle_on",
       "window": {"players": "action_players", "model": "alternating", "actions": "action_actions", "prompt": "action"}},
      {"name": "damage", "stop_unless": "battle_on", "run": "battle_damage"},
      {"name": "end", "run": "battle_end", "always": true}
    ]}
  ],
  "scripts": ["skirmish.lua", "scenes.lua"],
  "limits": {"script_memory": 33554432}
}"#;

const RULES_LUA: &str = r#"
HAND_LIMIT = 4

-- Scenes: what a test adds to the main phase ("do <name>").
SCENES = {}
function scene(name, fn) SCENES[#SCENES + 1] = { name = name, run = fn } end

-- A note for the test to read: the `note` event, keyed.
function note(ctx, key, amount, card)
  ctx:emit("note", { key = key, amount = amount or 0, card = card })
end

local PLACES = { "hand", "field", "outpost", "reserve", "limbo", "scrap", "exile", "guards", "deck" }

--- The first live card named `name` anywhere (attached cards included).
function named(ctx, name)
  for p = 1, ctx.players do
    for _, z in ipairs(PLACES) do
      for _, c in ipairs(ctx:cards(z, p)) do
        if c.name == name then return c end
        for _, a in ipairs(c.attachments) do
          if a.name == name then return a end
        end
      end
    end
  end
  return nil
end

function filter(list, f)
  local out = {}
  for _, x in ipairs(list) do
    if f(x) then out[#out + 1] = x end
  end
  return out
end

function enemy_units(ctx, p)
  local out = {}
  for _, q in ipairs(ctx:opponents(p)) do
    for _, c in ipairs(ctx:cards("field", q)) do out[#out + 1] = c end
  end
  return out
end

--- A player's level: their reserve cards, active or rested, tokens included.
function level(ctx, p) return ctx:count("reserve", p) end
function active_reserve(ctx, p)
  return filter(ctx:cards("reserve", p), function(c) return c.orientation == "active" end)
end
function damaged(c) return c:counter_value("damage") > 0 end
function is_crew(c) return c:has("kinds", "crew") end
function can_crew(c) return c:has("kinds", "crew") or c:has("kinds", "crew_mode") end

--- A unit is bonded when its crew has a name or trait its `bond` asks for.
function bonded(u)
  local a = u.attachments[1]
  if a == nil then return false end
  for _, want in ipairs(u.bond) do
    if a:has("traits", want) or a:has("names", want) then return true end
  end
  return false
end

-- Verbs -------------------------------------------------------------------------------------

function draw(ctx, p)
  local top = ctx:top("deck", p, 1)[1]
  if top then return ctx:move(top, "hand", { reason = "draw" })[1] end
  return nil
end

--- Damage: counters on the card (0 does nothing). Returns the card's damage, or false.
function deal(ctx, c, n, kind) return ctx:add_counter(c, "damage", n, kind) end

--- Recovery: only a damaged card recovers, and never below 0.
function recover(ctx, c, n)
  if not damaged(c) then return false end
  return ctx:add_counter(c, "damage", -n, "recover")
end

--- Pays `n`: rests that many active reserve cards of the player's choice; a token used so
--- is removed instead (it ceases to exist in the exile).
function pay(ctx, p, n)
  if n <= 0 then return true end
  local active = active_reserve(ctx, p)
  if #active < n then return false end
  local chosen = active
  if #active > n then
    chosen = ctx:choose_cards(p, active, { min = n, max = n, prompt = "pay" })
    if n == 1 then chosen = { chosen } end
  end
  for i = 1, n do
    local r = chosen[i]
    if r.token then ctx:move(r, "exile", { reason = "cost" })
    else ctx:set_orientation(r, "rested", "cost") end
  end
  return true
end

--- Deploys a unit from hand. With 6 units already, the owner first trashes one: by the
--- rules, not destroyed.
function deploy(ctx, c)
  local p = c.owner
  if not pay(ctx, p, c.cost) then return nil end
  if ctx:count("field", p) >= 6 then
    local out = ctx:choose_cards(p, ctx:cards("field", p), { prompt = "make_room" })
    ctx:move(out, "scrap", { reason = "rule" })
  end
  return ctx:move(c, "field", { reason = "deploy" })[1]
end

function pair(ctx, c, u)
  if not pay(ctx, c.owner, c.cost) then return nil end
  return ctx:attach(c, u, { reason = "pair" })
end

--- Destroys a card: to its owner's scrap. A guard turns face up and waits in limbo while
--- its owner may spring its ambush. A card that cannot be destroyed stays.
function destroy(ctx, c)
  if c:has("keywords", "unbreakable") then return false end
  if c.zone == "guards" then
    ctx:set_face(c, true)
    local l = ctx:move(c, "limbo", { reason = "destroyed" })[1]
    local ab = ctx:abilities({ card = l, timing = "ambush" })[1]
    if ab and ctx:yes_no(l.owner, "ambush") then
      activate(ctx:with({ source = l, player = l.owner }), ab, {})
    end
    if l.alive then ctx:move(l, "scrap", { reason = "destroyed" }) end
    return true
  end
  return ctx:move(c, "scrap", { reason = "destroyed" })[1] ~= nil
end

-- Orders ------------------------------------------------------------------------------------

function order_ability(ctx, c, timing)
  return ctx:abilities({ card = c, timing = timing })[1]
end

--- Whether the ability's required target exists (an ability with `target` needs one).
function has_targets(ctx, c, ab)
  if ab.def.target == nil then return true end
  return #ab.def.target(ctx:with({ source = c, player = c.owner })) > 0
end

function playable(ctx, c, timing)
  if c.category ~= "order" then return false end
  local ab = order_ability(ctx, c, timing)
  if ab == nil then return false end
  if ab.def.during_battle and ctx:game_value("in_battle") == 0 then return false end
  return level(ctx, c.owner) >= c.lv and #active_reserve(ctx, c.owner) >= c.cost
    and has_targets(ctx, c, ab)
end

--- Plays an order: its target is checked before anything is paid; it resolves in limbo,
--- then goes to the scrap unless its effect moved it.
function play_order(ctx, c, timing)
  local p = c.owner
  local ab = order_ability(ctx, c, timing)
  if ab == nil or not has_targets(ctx, c, ab) then return false end
  if not pay(ctx, p, c.cost) then return false end
  local l = ctx:move(c, "limbo", { reason = "play" })[1]
  activate(ctx:with({ source = l, player = p }), { source = l, def = ab.def, key = ab.key }, {})
  if l.alive then ctx:move(l, "scrap", { reason = "resolved" }) end
  return true
end

-- Abilities ---------------------------------------------------------------------------------

--- Whether an activated ability's costs can all be paid now: `cost = {reserve = n,
--- rest_self = true}` (either, both, or none), `once` per turn, and a `condition`.
function can_activate(ctx, ab)
  local def, src = ab.def, ab.source
  if def.once and ctx:uses(src, ab.key) > 0 then return false end
  local cost = def.cost or {}
  if cost.rest_self and src.orientation ~= "active" then return false end
  if (cost.reserve or 0) > #active_reserve(ctx, src.controller) then return false end
  if def.condition and not def.condition(ctx:with({ source = src, player = src.controller })) then
    return false
  end
  return true
end

function activate(ctx, ab, args)
  local def = ab.def
  if def.kind == "activated" and def.timing ~= "ambush" and ab.source.category ~= "order" then
    if not can_activate(ctx, ab) then return false end
    local cost = def.cost or {}
    if cost.rest_self then ctx:set_orientation(ab.source, "rested", "cost") end
    if not pay(ctx, ab.source.controller, cost.reserve or 0) then return false end
    if def.once then ctx:use(ab.source, ab.key) end
  end
  def.operate(ctx, args)
  return true
end

-- The turn ----------------------------------------------------------------------------------

function setup(ctx)
  for p = 1, ctx.players do
    ctx:shuffle("deck", p)
    ctx:shuffle("supply", p)
  end
  local first = ctx:random(ctx.players)
  ctx:set_first_player(first)
  local order = ctx:players_from(first)
  for _, p in ipairs(order) do
    for _ = 1, 5 do draw(ctx, p) end
  end
  -- Redraws in turn order: the hand to the bottom, 5 new cards, shuffle.
  for _, p in ipairs(order) do
    if ctx:yes_no(p, "redraw") then
      ctx:move(ctx:cards("hand", p), "deck", { position = "bottom", reason = "redraw" })
      for _ = 1, 5 do draw(ctx, p) end
      ctx:shuffle("deck", p)
    end
  end
  for _, p in ipairs(order) do
    for _ = 1, 6 do
      local top = ctx:top("deck", p, 1)[1]
      if top then ctx:move(top, "guards", { reason = "setup" }) end
    end
    ctx:create_token("camp", "outpost", p)
  end
  -- Every player but the first gets a spare supply token.
  for i = 2, #order do ctx:create_token("spare", "reserve", order[i]) end
end

--- A step: its event, then the triggered abilities it caused, before the next step.
function step(ctx, name)
  ctx:emit("step", { key = name, player = ctx.turn_player })
  ctx:resolve_triggers()
end

function start_phase(ctx)
  local tp = ctx.turn_player
  for _, z in ipairs({ "field", "outpost", "reserve" }) do
    for _, c in ipairs(ctx:cards(z, tp)) do ctx:set_orientation(c, "active", "refresh") end
  end
  step(ctx, "active")
  step(ctx, "start")
end

function draw_phase(ctx) draw(ctx, ctx.turn_player) end

function resource_phase(ctx)
  local top = ctx:top("supply", ctx.turn_player, 1)[1]
  if top then ctx:move(top, "reserve", { reason = "resource" }) end
end

function end_phase(ctx)
  local tp = ctx.turn_player
  ctx:window({ players = action_players(ctx), model = "alternating", prompt = "action",
    actions = function(wctx, p) return action_actions(wctx, p) end })
  step(ctx, "end")
  -- The hand step: the turn player alone discards down to the limit.
  local over = ctx:count("hand", tp) - HAND_LIMIT
  if over > 0 then
    local out = ctx:choose_cards(tp, ctx:cards("hand", tp), { min = over, max = over, prompt = "discard" })
    if over == 1 then out = { out } end
    ctx:move(out, "scrap", { reason = "discard" })
  end
  step(ctx, "hand")
  ctx:expire("end_of_turn")
  step(ctx, "cleanup")
end

--- Who acts in an action window, in turn order from the option's first player.
function action_players(ctx)
  local tp = ctx.turn_player
  if ctx:option("action_start") == "turn_player" then return ctx:players_from(tp) end
  return ctx:players_from(ctx:others(tp)[1])
end

--- What player `p` may do in an action window: action orders and action abilities; no
--- pairing, no main orders.
function action_actions(ctx, p)
  local out = {}
  for _, c in ipairs(ctx:cards("hand", p)) do
    if playable(ctx, c, "action") then
      out[#out + 1] = { label = "play " .. c.name, card = c,
        run = function(ctx, o) play_order(ctx, o.card, "action") end }
    end
  end
  for _, ab in ipairs(ctx:abilities({ kind = "activated", timing = "action", player = p })) do
    if ab.source.zone == "field" and can_activate(ctx, ab) then
      out[#out + 1] = { label = "use " .. ab.source.name, card = ab.source,
        run = function(ctx) activate(ctx:with({ source = ab.source, player = p }), ab, {}) end }
    end
  end
  if #out == 0 then return out end
  out[#out + 1] = { label = "pass", pass = true }
  return out
end

--- May unit `u` attack? Active, not forbidden (a prohibition beats every permission), and
--- on the field since before this turn unless hasty or bonded.
function may_attack(ctx, u)
  if u.orientation ~= "active" or u:has("keywords", "cannot_attack") then return false end
  if u.entered_turn < ctx.turn then return true end
  return u:has("keywords", "hasty") or bonded(u)
end

function main_actions(ctx)
  local p = ctx.turn_player
  local out = {}
  local function add(o) out[#out + 1] = o end
  for _, c in ipairs(ctx:cards("hand", p)) do
    if c.category == "unit" and level(ctx, p) >= c.lv and #active_reserve(ctx, p) >= c.cost then
      add({ label = "deploy " .. c.name, kind = "deploy", card = c,
        run = function(ctx, o) deploy(ctx, o.card) end })
    end
    if can_crew(c) and #active_reserve(ctx, p) >= c.cost then
      for _, u in ipairs(ctx:cards("field", p)) do
        if #u.attachments == 0 then
          add({ label = "pair " .. c.name .. " with " .. u.name, kind = "pair", card = c, target = u,
            run = function(ctx, o) pair(ctx, o.card, o.target) end })
        end
      end
    end
    if playable(ctx, c, "main") then
      add({ label = "play " .. c.name, kind = "play", card = c,
        run = function(ctx, o) play_order(ctx, o.card, "main") end })
    end
  end
  for _, u in ipairs(ctx:cards("field", p)) do
    if may_attack(ctx, u) then
      for _, q in ipairs(ctx:opponents(p)) do
        add({ label = "attack player " .. q .. " with " .. u.name, kind = "attack", card = u,
          procedure = "battle", data = { attacker = u, player = q } })
        for _, t in ipairs(ctx:cards("field", q)) do
          if t.orientation == "rested" then
            add({ label = "attack " .. t.name .. " with " .. u.name, kind = "attack", card = u,
              target = t, procedure = "battle", data = { attacker = u, target = t, player = q } })
          end
        end
      end
    end
  end
  for _, ab in ipairs(ctx:abilities({ kind = "activated", timing = "main", player = p })) do
    if ab.source.zone == "field" and can_activate(ctx, ab) then
      add({ label = "use " .. ab.source.name, kind = "use", card = ab.source,
        run = function(ctx) activate(ctx:with({ source = ab.source }), ab, {}) end })
    end
  end
  for _, s in ipairs(SCENES) do
    add({ label = "do " .. s.name, kind = "scene", run = function(ctx) s.run(ctx) end })
  end
  add({ label = "end turn", kind = "end", ends_phase = true })
  return out
end

-- The battle (procedure `battle`: record {attacker, target (a unit, or none: the player),
-- player (the one attacked)}) ------------------------------------------------------------------

--- The unit flagged `f` ("attacking", "attacked") on any field, or nil.
function flagged(ctx, f)
  for p = 1, ctx.players do
    for _, c in ipairs(ctx:cards("field", p)) do
      if c:flag_on(f) then return c end
    end
  end
  return nil
end

--- The attack's current target: the unit flagged `attacked` (a block or an effect may
--- point the attack elsewhere), or nil when the attack is on the player.
function attack_target(ctx) return flagged(ctx, "attacked") end

function retarget(ctx, t)
  local old = attack_target(ctx)
  if old then ctx:set_flag(old, "attacked", false) end
  ctx:set_flag(t, "attacked", true)
end

function battle_attack(ctx, b)
  ctx:set_orientation(b.attacker, "rested", "attack")
  ctx:set_game_value("in_battle", 1)
  ctx:set_flag(b.attacker, "attacking", true)
  if b.target then ctx:set_flag(b.target, "attacked", true) end
  note(ctx, "attack", 0, b.attacker)
end

--- The battle goes on while the attacker and the unit attacked (if any) are where they were.
function battle_on(ctx, b) return b.attacker.alive and (b.target == nil or attack_target(ctx) ~= nil) end

function defender(ctx, b) return { b.player } end

--- The block: an active interceptor of the player attacked, other than the unit attacked at
--- first, unless the attacker is evasive.
function block_actions(ctx, p, b)
  if b.attacker:has("keywords", "evasive") then return {} end
  local out = {}
  for _, c in ipairs(ctx:cards("field", p)) do
    if c ~= b.target and c.orientation == "active" and c:has("keywords", "interceptor") then
      out[#out + 1] = { label = "block with " .. c.name, card = c,
        run = function(ctx, o, b)
          ctx:set_orientation(o.card, "rested", "block")
          retarget(ctx, o.card)
        end }
    end
  end
  if #out > 0 then out[#out + 1] = { label = "no block", pass = true } end
  return out
end

--- Damage to a player goes to their outpost if any, else to their top guard only; with
--- neither, a hit from a unit marks the player (the defeat check reads it).
function hit_player(ctx, a, q)
  local n = a.atk
  local post = ctx:cards("outpost", q)[1]
  if post then return deal(ctx, post, n, "battle") end
  local top = ctx:top("guards", q, 1)[1]
  if top then return deal(ctx, top, n, "battle") end
  if n > 0 then ctx:set_value(q, "hit_while_open", a.controller) end
end

function battle_damage(ctx, b)
  local a, t = b.attacker, attack_target(ctx)
  if t == nil then
    hit_player(ctx, a, b.player)
    return
  end
  if a:has("keywords", "first_strike") and not t:has("keywords", "first_strike") then
    -- Rule processing runs after the first damage: a target destroyed by it strikes back not.
    deal(ctx, t, a.atk, "battle")
    if t.alive and a.alive then deal(ctx, a, t.atk, "battle") end
  else
    local at, ta = a.atk, t.atk
    ctx:together(function(ctx)
      deal(ctx, t, at, "battle")
      deal(ctx, a, ta, "battle")
    end)
  end
end

function battle_end(ctx, b)
  for p = 1, ctx.players do
    for _, c in ipairs(ctx:cards("field", p)) do
      ctx:set_flag(c, "attacking", false)
      ctx:set_flag(c, "attacked", false)
    end
  end
  ctx:set_game_value("in_battle", 0)
  ctx:expire("end_of_battle")
  note(ctx, "battle_end")
end

-- Rule processing ---------------------------------------------------------------------------

function defeat_due(ctx)
  if ctx.turn == 0 then return false end
  for _, p in ipairs(ctx:turn_order()) do
    if ctx:value(p, "hit_while_open") > 0 or ctx:count("deck", p) == 0 then return true end
  end
  return false
end

--- Everyone who meets a condition loses at once. A hit on an unprotected player: under
--- `first_to_win` its dealer wins the game; under `last_standing` that player is out (and
--- the game ends when one is left). An empty deck puts its player out.
function defeat_run(ctx)
  local losers, winner = {}, nil
  local left = ctx:turn_order()
  for _, p in ipairs(left) do
    local by = ctx:value(p, "hit_while_open")
    if by > 0 or ctx:count("deck", p) == 0 then losers[#losers + 1] = p end
    if by > 0 and ctx:option("victory") == "first_to_win" then winner = winner or by end
  end
  if winner then return ctx:end_game({ winner }, "unprotected") end
  if #losers == #left then return ctx:end_game({}, "everyone_lost") end
  for _, p in ipairs(losers) do ctx:eliminate(p, "defeated") end
end

--- Cards whose damage reached their hp (a guard: any damage), in turn order.
local function doomed(ctx)
  local out = {}
  for _, p in ipairs(ctx:turn_order()) do
    for _, z in ipairs({ "field", "outpost" }) do
      for _, c in ipairs(ctx:cards(z, p)) do
        if c:counter_value("damage") >= c.hp and not c:has("keywords", "unbreakable") then
          out[#out + 1] = c
        end
      end
    end
    for _, c in ipairs(ctx:cards("guards", p)) do
      if damaged(c) then out[#out + 1] = c end
    end
  end
  return out
end

function destruction_due(ctx) return #doomed(ctx) > 0 end
function destruction_run(ctx)
  for _, c in ipairs(doomed(ctx)) do destroy(ctx, c) end
end

--- A unit that becomes bonded, when its crew is paired or later, gets the `bonded` event once.
function bond_due(ctx)
  for p = 1, ctx.players do
    for _, u in ipairs(ctx:cards("field", p)) do
      if bonded(u) ~= u:flag_on("bonded") then return true end
    end
  end
  return false
end

function bond_run(ctx)
  for _, p in ipairs(ctx:turn_order()) do
    for _, u in ipairs(ctx:cards("field", p)) do
      local now = bonded(u)
      if now ~= u:flag_on("bonded") then
        ctx:set_flag(u, "bonded", now)
        if now then ctx:emit("bonded", { card = u, player = u.controller }) end
      end
    end
  end
end

function validate_deck(deck) return {} end

-- The rules' own abilities.
RULES = {
  -- A unit gets its crew's atk and hp.
  { kind = "static",
    affects = function(ctx, c) return c.zone == "field" and c.category == "unit" and #c.attachments > 0 end,
    modify = {
      { char = "atk", op = "add", value = function(ctx, c)
          local n = 0
          for _, a in ipairs(c.attachments) do if is_crew(a) then n = n + a.atk end end
          return n
        end },
      { char = "hp", op = "add", value = function(ctx, c)
          local n = 0
          for _, a in ipairs(c.attachments) do if is_crew(a) then n = n + a.hp end end
          return n
        end } } },
  -- At the end step, each damaged unit of the turn player recovers its mend value.
  { kind = "triggered", on = "step",
    when = function(ctx, ev)
      if ev.key ~= "end" then return false end
      for _, u in ipairs(ctx:cards("field", ctx.turn_player)) do
        if u.mend > 0 and damaged(u) then return true end
      end
      return false
    end,
    operate = function(ctx)
      for _, u in ipairs(ctx:cards("field", ctx.turn_player)) do
        if u.mend > 0 then recover(ctx, u, u.mend) end
      end
    end },
}
"#;

// Cards ----------------------------------------------------------------------------------------

/// Walker: when a crew card is paired with it, a note.
const WALKER: &str = r#"return { { kind = "triggered", on = "moved",
  when = function(ctx, ev) return ev.host == ctx.source end,
  operate = function(ctx) note(ctx, "paired", 0, ctx.source) end } }"#;

/// Rig: +1 atk while it has a crew.
const RIG: &str = r#"return { { kind = "static", affects = "self",
  condition = function(ctx) return #ctx.source.attachments > 0 end,
  modify = { { char = "atk", op = "add", value = 1 } } } }"#;

/// Lancer and pikeman: +2 atk while bonded; a note when they become bonded.
const BONDED: &str = r#"return {
  { kind = "static", affects = "self", condition = function(ctx) return bonded(ctx.source) end,
    modify = { { char = "atk", op = "add", value = 2 } } },
  { kind = "triggered", on = "bonded", when = function(ctx, ev) return ev.card == ctx.source end,
    operate = function(ctx) note(ctx, "bonded", 0, ctx.source) end } }"#;

/// Gambit: an order (1 damage to an enemy unit) that may also be paired as a crew: then it
/// is a crew named "maverick" too, and no longer an order.
const GAMBIT: &str = r#"return {
  { kind = "activated", timing = "main", zones = { "hand", "limbo" },
    target = function(ctx) return enemy_units(ctx, ctx.player) end,
    operate = function(ctx)
      local t = ctx:choose_cards(ctx.player, enemy_units(ctx, ctx.player), { prompt = "target" })
      if t then deal(ctx, t, 1, "effect") end
    end },
  { kind = "static", affects = "self", condition = function(ctx) return ctx.source.host ~= nil end,
    modify = { { char = "kinds", op = "revoke", value = "order" },
               { char = "kinds", op = "revoke", value = "crew_mode" },
               { char = "kinds", op = "grant", value = "crew" },
               { char = "names", op = "grant", value = "maverick" } } } }"#;

/// Martyr: when destroyed, deals damage equal to its atk to each enemy unit.
const MARTYR: &str = r#"return { { kind = "triggered", on = "moved",
  when = function(ctx, ev) return ev.old == ctx.source and ev.reason == "destroyed" and ev.from == "field" end,
  operate = function(ctx)
    local n = ctx.source.atk
    note(ctx, "martyr", n)
    for _, u in ipairs(enemy_units(ctx, ctx.player)) do deal(ctx, u, n, "effect") end
  end } }"#;

/// Spotter (a crew card): when its bearer (the unit it crews, or itself alone) is signalled,
/// a note; its bearer has +2 atk; if its bearer would take damage, it takes 1 less.
const SPOTTER: &str = r#"return {
  { kind = "triggered", on = "signal", match = { card = "bearer" },
    operate = function(ctx) note(ctx, "spotted", 0, ctx.source) end },
  { kind = "static", affects = "bearer", modify = { { char = "atk", op = "add", value = 2 } } },
  { kind = "replacement", replaces = "counter", match = { card = "bearer" },
    applies = function(ctx, op) return op.amount > 1 end,
    replace = function(ctx, op) op.amount = op.amount - 1 return op end } }"#;

/// Wrecker: at a signal, 9 damage to the echo.
const WRECKER: &str = r#"return { { kind = "triggered", on = "signal",
  operate = function(ctx) deal(ctx, named(ctx, "echo"), 9, "effect") end } }"#;

/// Echo: at a signal, damage equal to its atk to each enemy unit.
const ECHO: &str = r#"return { { kind = "triggered", on = "signal",
  operate = function(ctx)
    local n = ctx.source.atk
    note(ctx, "echo", n)
    for _, u in ipairs(enemy_units(ctx, ctx.player)) do deal(ctx, u, n, "effect") end
  end } }"#;

/// Sentry: the unit of yours the attack is on gets +3 hp.
const SENTRY: &str = r#"return { { kind = "static",
  affects = function(ctx, c) return c.controller == ctx.player and c:flag_on("attacked") end,
  modify = { { char = "hp", op = "add", value = 3 } } } }"#;

/// Charger: +2 atk while attacking.
const CHARGER: &str = r#"return { { kind = "static", affects = "self",
  condition = function(ctx) return ctx.source:flag_on("attacking") end,
  modify = { { char = "atk", op = "add", value = 2 } } } }"#;

/// Mechanic: (main; pay 1, rest this) a damaged unit of yours recovers 2.
const MECHANIC: &str = r#"return { { kind = "activated", timing = "main", cost = { reserve = 1, rest_self = true },
  operate = function(ctx)
    for _, u in ipairs(ctx:cards("field", ctx.player)) do
      if damaged(u) then recover(ctx, u, 2) return end
    end
  end } }"#;

/// Beacon: (main, once per turn, no cost) a note.
const BEACON: &str = r#"return { { kind = "activated", timing = "main", once = true,
  operate = function(ctx) note(ctx, "beacon") end } }"#;

/// Lookout: (action) a note.
const LOOKOUT: &str = r#"return { { kind = "activated", timing = "action",
  operate = function(ctx) note(ctx, "lookout") end } }"#;

/// Spark (order, main, cost 1): 2 damage to an enemy unit; it needs one.
const SPARK: &str = r#"return { { kind = "activated", timing = "main", zones = { "hand", "limbo" },
  target = function(ctx) return enemy_units(ctx, ctx.player) end,
  operate = function(ctx)
    note(ctx, "in_" .. ctx.source.zone)
    local t = ctx:choose_cards(ctx.player, enemy_units(ctx, ctx.player), { prompt = "target" })
    if t then deal(ctx, t, 2, "effect") end
  end } }"#;

/// Boomerang (order, main): a note, then it returns to its owner's hand.
const BOOMERANG: &str = r#"return { { kind = "activated", timing = "main", zones = { "hand", "limbo" },
  operate = function(ctx)
    note(ctx, "in_" .. ctx.source.zone)
    ctx:move(ctx.source, "hand", { reason = "return" })
  end } }"#;

/// Scramble (order, main): rest 2 enemy units (as many as there are); then you may draw.
const SCRAMBLE: &str = r#"return { { kind = "activated", timing = "main", zones = { "hand", "limbo" },
  operate = function(ctx)
    local rested = 0
    for _, u in ipairs(enemy_units(ctx, ctx.player)) do
      if rested < 2 and ctx:set_orientation(u, "rested", "effect") then rested = rested + 1 end
    end
    note(ctx, "rested", rested)
    if ctx:yes_no(ctx.player, "draw") then draw(ctx, ctx.player) end
  end } }"#;

/// Flash (order, action): a note.
const FLASH: &str = r#"return { { kind = "activated", timing = "action", zones = { "hand", "limbo" },
  operate = function(ctx) note(ctx, "flash") end } }"#;

/// Volley (order, action, only during a battle): 4 damage to the attacking unit.
const VOLLEY: &str = r#"return { { kind = "activated", timing = "action", zones = { "hand", "limbo" },
  during_battle = true,
  target = function(ctx) local a = flagged(ctx, "attacking") return a and { a } or {} end,
  operate = function(ctx) deal(ctx, flagged(ctx, "attacking"), 4, "effect") end } }"#;

/// Trap (a unit; its ambush works in limbo): 2 damage to the attacking unit.
const TRAP: &str = r#"return { { kind = "activated", timing = "ambush", zones = { "limbo" },
  operate = function(ctx)
    local a = flagged(ctx, "attacking")
    if a then deal(ctx, a, 2, "effect") end
  end } }"#;

/// Watcher: when an opponent plays an order, a note.
const WATCHER: &str = r#"return { { kind = "triggered", on = "moved",
  when = function(ctx, ev) return ev.reason == "play" and ev.card.owner ~= ctx.player end,
  operate = function(ctx) note(ctx, "watched") end } }"#;

/// Herald: at your end step, draw a card.
const HERALD: &str = r#"return { { kind = "triggered", on = "step",
  when = function(ctx, ev) return ev.key == "end" and ev.player == ctx.player end,
  operate = function(ctx) note(ctx, "herald") draw(ctx, ctx.player) end } }"#;

fn card(
    id: &str,
    category: &str,
    fields: serde_json::Value,
    keywords: &[&str],
    script: Option<&str>,
) -> CardDef {
    with_keywords(common::card(id, category, fields, script), keywords)
}

/// A unit with this atk and hp (cost 0, level 0).
fn unit(id: &str, atk: i64, hp: i64, keywords: &[&str], script: Option<&str>) -> CardDef {
    card(
        id,
        "unit",
        json!({"atk": atk, "hp": hp, "cost": 0, "lv": 0}),
        keywords,
        script,
    )
}

fn order(id: &str, cost: i64, script: &str) -> CardDef {
    card(
        id,
        "order",
        json!({"cost": cost, "lv": 0, "kinds": ["order"]}),
        &[],
        Some(script),
    )
}

fn cards() -> Vec<CardDef> {
    vec![
        unit("filler", 1, 1, &[], None),
        card(
            "spotter",
            "crew",
            json!({"atk": 0, "hp": 1, "kinds": ["crew"]}),
            &[],
            Some(SPOTTER),
        ),
        card(
            "walker",
            "unit",
            json!({"atk": 2, "hp": 3, "traits": ["heavy"]}),
            &[],
            Some(WALKER),
        ),
        unit("rig", 1, 2, &[], Some(RIG)),
        card(
            "lancer",
            "unit",
            json!({"atk": 2, "hp": 2, "bond": ["veteran"]}),
            &[],
            Some(BONDED),
        ),
        card(
            "pikeman",
            "unit",
            json!({"atk": 1, "hp": 2, "bond": ["ace"]}),
            &[],
            Some(BONDED),
        ),
        card(
            "ace",
            "crew",
            json!({"atk": 1, "hp": 2, "kinds": ["crew"], "traits": ["veteran"]}),
            &[],
            None,
        ),
        card(
            "rookie",
            "crew",
            json!({"atk": 0, "hp": 1, "kinds": ["crew"]}),
            &[],
            None,
        ),
        card(
            "gambit",
            "order",
            json!({"atk": 2, "hp": 1, "kinds": ["order", "crew_mode"]}),
            &[],
            Some(GAMBIT),
        ),
        unit("martyr", 3, 2, &[], Some(MARTYR)),
        unit("wrecker", 1, 1, &[], Some(WRECKER)),
        unit("echo", 1, 2, &[], Some(ECHO)),
        unit("brute", 4, 4, &[], None),
        card(
            "titan",
            "unit",
            json!({"atk": 1, "hp": 6, "cost": 2, "lv": 4}),
            &[],
            None,
        ),
        unit("dummy", 0, 1, &[], None),
        unit("guardian", 1, 4, &["interceptor"], None),
        unit("striker", 3, 2, &["first_strike"], None),
        unit("ghost", 2, 1, &["evasive"], None),
        unit("sprinter", 1, 1, &["hasty"], None),
        unit("bulwark", 0, 1, &["unbreakable"], None),
        unit("sentry", 1, 1, &[], Some(SENTRY)),
        unit("charger", 3, 3, &[], Some(CHARGER)),
        unit("mechanic", 1, 2, &[], Some(MECHANIC)),
        unit("beacon", 0, 1, &[], Some(BEACON)),
        unit("lookout", 0, 1, &[], Some(LOOKOUT)),
        unit("watcher", 0, 1, &[], Some(WATCHER)),
        unit("herald", 0, 1, &[], Some(HERALD)),
        unit("trap", 1, 1, &[], Some(TRAP)),
        card(
            "mender",
            "unit",
            json!({"atk": 1, "hp": 5, "mend": 2}),
            &[],
            None,
        ),
        order("spark", 1, SPARK),
        order("boomerang", 0, BOOMERANG),
        order("scramble", 0, SCRAMBLE),
        order("flash", 0, FLASH),
        order("volley", 0, VOLLEY),
        card("ore", "supply", json!({}), &[], None),
        card("fort", "outpost", json!({"atk": 0, "hp": 5}), &[], None),
        // Tokens.
        card(
            "camp",
            "outpost",
            json!({"atk": 0, "hp": 3, "cost": 0, "lv": 0}),
            &[],
            None,
        ),
        card("spare", "supply", json!({"cost": 0, "lv": 0}), &[], None),
        card(
            "drone",
            "unit",
            json!({"atk": 0, "hp": 1, "cost": 0, "lv": 0}),
            &[],
            None,
        ),
    ]
}

fn content(scenes: &str, tweak: impl FnOnce(&mut serde_json::Value)) -> Content {
    common::content(
        MANIFEST,
        tweak,
        &[("skirmish.lua", RULES_LUA), ("scenes.lua", scenes)],
        cards(),
    )
}

fn engine_with(scenes: &str, tweak: impl FnOnce(&mut serde_json::Value)) -> Rc<Engine> {
    engine_of(&content(scenes, tweak))
}

fn engine(scenes: &str) -> Rc<Engine> {
    engine_with(scenes, |_| {})
}

fn options(pairs: &[(&str, &str)]) -> Options {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), OptionValue::Name(v.to_string())))
        .collect()
}

/// A position at the main phase of turn 2, `turn_player`'s, with `players` seats, each with
/// 3 fillers in their deck. Each placed card is `(player, zone, spec)`: the zone `under:X`
/// attaches the card under the card X that player placed before; the spec is a card id with
/// `:rested`, `:new` (entered this turn) or `:dmg=N` after it.
fn position_with(
    e: &Rc<Engine>,
    players: u8,
    opts: &Options,
    turn_player: PlayerId,
    placed: &[(PlayerId, &str, &str)],
) -> Game {
    let mut b = Builder::with_options(e.clone(), players, 7, opts).expect("builder");
    for p in 0..players {
        for _ in 0..3 {
            b.place(p, "deck", "filler", &Place::default()).unwrap();
        }
    }
    let mut ids: Vec<(PlayerId, String, ObjId)> = Vec::new();
    for (p, zone, spec) in placed {
        let mut parts = spec.split(':');
        let id = parts.next().unwrap();
        let mut place = Place::default();
        for m in parts {
            match m {
                "rested" => place.orientation = Some("rested".into()),
                "new" => place.entered_turn = Some(2),
                f if f.starts_with("flag=") => place.flags.push(f[5..].to_string()),
                d if d.starts_with("dmg=") => {
                    place.counters = vec![("damage".into(), d[4..].parse().unwrap())]
                }
                other => panic!("unknown spec '{other}'"),
            }
        }
        let zone = match zone.strip_prefix("under:") {
            Some(host) => {
                let h = ids
                    .iter()
                    .rev()
                    .find(|(q, n, _)| q == p && n == host)
                    .unwrap_or_else(|| panic!("no {host} placed"))
                    .2;
                place.attach_to = Some(h);
                "field"
            }
            None => zone,
        };
        let o = b
            .place(*p, zone, id, &place)
            .unwrap_or_else(|e| panic!("{e}"));
        ids.push((*p, id.to_string(), o));
    }
    let g = b.start(2, turn_player, "main").expect("started");
    g.check_invariants().expect("invariants");
    g
}

fn position(e: &Rc<Engine>, placed: &[(PlayerId, &str, &str)]) -> Game {
    position_with(e, 2, &Options::new(), 0, placed)
}

/// The pending choice: (prompt, player, labels).
fn asked(g: &Game) -> (String, PlayerId, Vec<String>) {
    match g.request() {
        Some(Request::Choose {
            prompt,
            player,
            options,
            ..
        }) => (
            prompt.clone(),
            *player,
            options.iter().map(|o| o.label.clone()).collect(),
        ),
        other => panic!("not a choice: {other:?} (result {:?})", g.result()),
    }
}

fn labels(g: &Game) -> Vec<String> {
    asked(g).2
}

fn offered(g: &Game, label: &str) -> bool {
    labels(g).iter().any(|l| l == label)
}

/// Answers with the options labelled so (the first that is, for each label), then checks
/// that no script failed and the invariants hold.
fn pick_all(g: &mut Game, wanted: &[&str]) {
    let (prompt, player, labels) = asked(g);
    let mut indices = Vec::new();
    for w in wanted {
        let i = labels
            .iter()
            .enumerate()
            .position(|(i, l)| l == w && !indices.contains(&(i as u32)))
            .unwrap_or_else(|| panic!("no option '{w}' at '{prompt}' in {labels:?}"));
        indices.push(i as u32);
    }
    g.respond(player, Response::Choose { indices })
        .expect("legal");
    assert!(g.errors().is_empty(), "script errors: {:?}", g.errors());
    g.check_invariants()
        .unwrap_or_else(|e| panic!("after {wanted:?}: {e}"));
}

fn pick(g: &mut Game, label: &str) {
    pick_all(g, &[label]);
}

/// The notes so far: `key`, or `key=amount` when the amount is not 0.
fn notes(g: &Game) -> Vec<String> {
    g.log()
        .iter()
        .filter_map(|e| match e {
            Entry::Event(e) if e.name == "note" => {
                let k = e.key.clone().unwrap_or_default();
                Some(if e.amount == 0 {
                    k
                } else {
                    format!("{k}={}", e.amount)
                })
            }
            _ => None,
        })
        .collect()
}

/// Player `p`'s objects in `zone`, bottom to top, whoever may see them.
fn objects(g: &Game, zone: &str, p: PlayerId) -> Vec<ObjId> {
    let decl = g
        .engine()
        .manifest()
        .zones
        .iter()
        .position(|z| z.name == zone)
        .expect("zone");
    g.with_state(|st| st.zone(st.zone_id(decl, p)).cards.clone())
}

/// Player `p`'s cards in `zone` (card ids, bottom to top), whoever may see them.
fn ids(g: &Game, zone: &str, p: PlayerId) -> Vec<String> {
    objects(g, zone, p).iter().map(|c| g.card_id(*c)).collect()
}

fn in_battle(g: &Game) -> bool {
    let i = g
        .engine()
        .manifest()
        .game_values
        .iter()
        .position(|v| v == "in_battle")
        .unwrap();
    g.with_state(|st| st.game_values[i] == 1)
}

/// Card `card` as player `p` sees it in a zone of theirs or a public one (attachments
/// included).
fn seen(g: &Game, p: PlayerId, card: &str) -> CardView {
    fn find(cards: &[CardView], card: &str) -> Option<CardView> {
        cards.iter().find_map(|c| {
            if c.card.as_deref() == Some(card) {
                Some(c.clone())
            } else {
                find(&c.attachments, card)
            }
        })
    }
    let v = g.view(p);
    v.zones
        .iter()
        .find_map(|z| find(&z.cards, card))
        .unwrap_or_else(|| panic!("{card} not seen by player {}", p + 1))
}

fn value(g: &Game, p: PlayerId, card: &str, key: &str) -> i64 {
    seen(g, p, card).values[key]
}

fn damage(g: &Game, p: PlayerId, card: &str) -> i64 {
    seen(g, p, card)
        .counters
        .get("damage")
        .copied()
        .unwrap_or(0)
}

fn set(g: &Game, p: PlayerId, card: &str, key: &str) -> Vec<String> {
    seen(g, p, card).sets.get(key).cloned().unwrap_or_default()
}

/// The moves logged for card `card`: (from, to, reason).
fn moves_of(g: &Game, card: &str) -> Vec<(String, String, String)> {
    let zone = |z: Option<ZoneId>| {
        g.with_state(|st| {
            let decl = st.zone(z.expect("a zone")).decl as usize;
            g.engine().manifest().zones[decl].name.clone()
        })
    };
    g.log()
        .iter()
        .filter_map(|e| match e {
            Entry::Event(e) if e.name == "moved" && g.card_id(e.card.unwrap()) == card => Some((
                zone(e.from),
                zone(e.to),
                e.reason.clone().unwrap_or_default(),
            )),
            _ => None,
        })
        .collect()
}

/// The log's events named `name`, each as (key, player), players 0-based.
fn events(g: &Game, name: &str) -> Vec<(String, Option<PlayerId>)> {
    g.log()
        .iter()
        .filter_map(|e| match e {
            Entry::Event(e) if e.name == name => {
                Some((e.key.clone().unwrap_or_default(), e.player))
            }
            _ => None,
        })
        .collect()
}

// Zones and objects -----------------------------------------------------------------------------

#[test]
fn a_shared_pile_keeps_each_cards_owner_and_sends_it_to_its_owners_scrap() {
    // GD2 (12-3-8): one pile for everyone; a card leaving it goes to the zone of
    // its owner unless a player is named.
    let e = engine_with(
        r#"scene("sweep", function(ctx)
             for _, c in ipairs(ctx:cards("pool", 1)) do ctx:move(c, "scrap", { reason = "destroyed" }) end
           end)"#,
        |m| {
            m["zones"].as_array_mut().unwrap().push(
                json!({"name": "pool", "scope": "shared", "visibility": "public", "ordered": true}),
            )
        },
    );
    let mut g = position(&e, &[(0, "pool", "walker"), (1, "pool", "brute")]);
    assert_eq!(ids(&g, "pool", 0), ["walker", "brute"]);
    assert_eq!(ids(&g, "pool", 1), ["walker", "brute"], "one pile for both");
    let owners: Vec<PlayerId> = objects(&g, "pool", 0)
        .iter()
        .map(|c| g.with_state(|st| st.obj(*c).owner))
        .collect();
    assert_eq!(owners, [0, 1]);
    pick(&mut g, "do sweep");
    assert_eq!(ids(&g, "scrap", 0), ["walker"]);
    assert_eq!(ids(&g, "scrap", 1), ["brute"]);
    assert!(ids(&g, "pool", 0).is_empty());
}

#[test]
fn an_order_resolves_in_limbo_and_goes_to_the_scrap_unless_its_effect_moved_it() {
    // GD4 (3-4-3, 3-4-4): a resolving order is in no zone (limbo here), then goes
    // to the scrap if it still exists there; one whose effect returned it stays where it went.
    let e = engine("");
    let mut g = position(
        &e,
        &[
            (0, "hand", "spark"),
            (0, "hand", "boomerang"),
            (0, "reserve", "ore"),
            (1, "field", "brute"),
        ],
    );
    pick(&mut g, "play spark");
    pick(&mut g, "brute"); // its target
    assert_eq!(damage(&g, 1, "brute"), 2);
    assert_eq!(seen(&g, 0, "ore").orientation, "rested", "paid");
    let spark = moves_of(&g, "spark");
    let limbo_then_scrap = [
        ("hand".to_string(), "limbo".to_string(), "play".to_string()),
        ("limbo".into(), "scrap".into(), "resolved".into()),
    ];
    assert_eq!(spark, limbo_then_scrap);
    pick(&mut g, "play boomerang");
    assert_eq!(
        moves_of(&g, "boomerang"),
        [
            ("hand".to_string(), "limbo".to_string(), "play".to_string()),
            ("limbo".into(), "hand".into(), "return".into())
        ],
        "moved by its own effect: not to the scrap"
    );
    assert_eq!(ids(&g, "hand", 0), ["boomerang"]);
    assert_eq!(notes(&g), ["in_limbo", "in_limbo"]);
}

#[test]
fn a_destroyed_guard_turns_face_up_and_may_spring_its_ambush_from_limbo_before_the_scrap() {
    // GD7 (5-10-3): the destroyed guard flips face up (op face); GD67 (5-5-2,
    // 11-3-1, 8-5-2-3-1): one damage destroys a guard, by rule processing; GD4 (13-2-5-3):
    // its ambush resolves in limbo, then the card goes to the scrap; GD73 (5-5-6): the
    // guard below takes nothing.
    let e = engine("");
    let mut g = position(
        &e,
        &[
            (0, "field", "brute"),
            (1, "guards", "filler"),
            (1, "guards", "trap"),
        ],
    );
    pick(&mut g, "attack player 2 with brute");
    let (prompt, player, _) = asked(&g);
    assert_eq!((prompt.as_str(), player), ("ambush", 1));
    // The guard was flipped face up before it left.
    let flips: Vec<(String, i64)> = g
        .log()
        .iter()
        .filter_map(|e| match e {
            Entry::Event(e) if e.name == "flipped" => Some((g.card_id(e.card.unwrap()), e.amount)),
            _ => None,
        })
        .collect();
    assert_eq!(flips, [("trap".to_string(), 1)]);
    assert_eq!(ids(&g, "limbo", 1), ["trap"], "waiting in limbo");
    pick(&mut g, "yes");
    assert_eq!(damage(&g, 0, "brute"), 2, "the ambush hit the attacker");
    assert_eq!(
        moves_of(&g, "trap"),
        [
            (
                "guards".to_string(),
                "limbo".to_string(),
                "destroyed".to_string()
            ),
            ("limbo".into(), "scrap".into(), "destroyed".into())
        ]
    );
    assert!(seen(&g, 1, "trap").face_up);
    assert_eq!(ids(&g, "guards", 1), ["filler"]);
    let below = objects(&g, "guards", 1)[0];
    assert_eq!(
        g.with_state(|st| st.obj(below).counters.clone()),
        [0],
        "no spill-over to the next guard"
    );
    assert_eq!(notes(&g).last().map(String::as_str), Some("battle_end"));
}

#[test]
fn a_destroyed_units_own_trigger_reads_its_last_known_attack() {
    // GD9 (13-2-8-2-1): a "when destroyed" ability resolves from the scrap and
    // reads the card as it last was on the field (its boost included).
    let e = engine(
        r#"scene("boost", function(ctx)
             ctx:modify(named(ctx, "martyr"), { char = "atk", op = "add", value = 2 }, { ["until"] = "end_of_turn" })
           end)
           scene("ruin", function(ctx) deal(ctx, named(ctx, "martyr"), 9, "effect") end)"#,
    );
    let mut g = position(&e, &[(0, "field", "martyr"), (1, "field", "titan")]);
    pick(&mut g, "do boost");
    assert_eq!(value(&g, 0, "martyr", "atk"), 5);
    pick(&mut g, "do ruin");
    assert_eq!(ids(&g, "scrap", 0), ["martyr"]);
    assert_eq!(notes(&g), ["martyr=5"]);
    assert_eq!(
        damage(&g, 1, "titan"),
        5,
        "last-known atk, not the printed 3"
    );
    assert_eq!(
        value(&g, 0, "martyr", "atk"),
        3,
        "the new object in the scrap"
    );
}

#[test]
fn a_waiting_trigger_whose_source_was_destroyed_still_resolves_with_last_known_values() {
    // GD54 (10-1-6-4): both trigger at the signal; the wrecker's resolves first and
    // destroys the echo; the echo's still resolves, with the echo's last-known atk.
    let e = engine(
        r#"scene("boost", function(ctx)
             ctx:modify(named(ctx, "echo"), { char = "atk", op = "add", value = 2 }, { ["until"] = "end_of_turn" })
           end)
           scene("signal", function(ctx) ctx:emit("signal", {}) end)"#,
    );
    let mut g = position(
        &e,
        &[
            (0, "field", "echo"),
            (0, "field", "wrecker"),
            (1, "field", "titan"),
        ],
    );
    pick(&mut g, "do boost");
    pick(&mut g, "do signal");
    assert_eq!(asked(&g).0, "order_triggers");
    pick(&mut g, "wrecker (signal)");
    assert_eq!(ids(&g, "scrap", 0), ["echo"]);
    assert_eq!(notes(&g), ["echo=3"]);
    assert_eq!(damage(&g, 1, "titan"), 3);
}

// Crew and pairing ------------------------------------------------------------------------------

#[test]
fn a_paired_crew_adds_its_atk_and_hp_but_not_its_traits_and_the_pairing_triggers() {
    // GD13 (3-3-8-1, 2-4-3): a rule static adds the crew's atk and hp to its unit;
    // its traits stay its own. GD17 (13-2-9): the attach is a `moved` event with `host`,
    // which the unit's "when paired" ability reads. GD18 (13-2-10): a self static
    // conditional on having a crew.
    let e = engine("");
    let mut g = position(
        &e,
        &[
            (0, "field", "walker"),
            (0, "field", "rig"),
            (0, "hand", "ace"),
            (0, "hand", "rookie"),
        ],
    );
    assert_eq!(
        (value(&g, 0, "walker", "atk"), value(&g, 0, "walker", "hp")),
        (2, 3)
    );
    pick(&mut g, "pair ace with walker");
    assert_eq!(notes(&g), ["paired"]);
    assert_eq!(
        (value(&g, 0, "walker", "atk"), value(&g, 0, "walker", "hp")),
        (3, 5)
    );
    assert_eq!(
        set(&g, 0, "walker", "traits"),
        ["heavy"],
        "no veteran from the crew"
    );
    assert_eq!(
        seen(&g, 0, "walker").attachments[0].card.as_deref(),
        Some("ace")
    );
    assert_eq!(
        ids(&g, "field", 0),
        ["walker", "rig"],
        "a crew is not a unit of the field"
    );
    // Rig: 1 printed, +0 from a rookie, +1 while paired; no pairing note (the rig has none).
    assert_eq!(value(&g, 0, "rig", "atk"), 1);
    pick(&mut g, "pair rookie with rig");
    assert_eq!(
        (value(&g, 0, "rig", "atk"), value(&g, 0, "rig", "hp")),
        (2, 3)
    );
    assert_eq!(notes(&g), ["paired"]);
    assert!(!offered(&g, "pair rookie with walker"));
}

#[test]
fn a_card_paired_as_crew_changes_its_kinds_and_names_by_its_own_static() {
    // GD15 (3-4-6): an order that may be paired as a crew. In hand it is an order
    // (playable as one, or pairable); paired, a self static makes it a crew named
    // "maverick" too, and the rules treat it as a crew (its atk and hp reach the unit).
    let e = engine("");
    let mut g = position(
        &e,
        &[
            (0, "field", "walker"),
            (0, "hand", "gambit"),
            (1, "field", "brute"),
        ],
    );
    assert!(offered(&g, "play gambit"));
    assert!(offered(&g, "pair gambit with walker"));
    assert_eq!(set(&g, 0, "gambit", "kinds"), ["order", "crew_mode"]);
    assert_eq!(set(&g, 0, "gambit", "names"), ["gambit"]);
    pick(&mut g, "pair gambit with walker");
    assert_eq!(set(&g, 0, "gambit", "kinds"), ["crew"]);
    assert_eq!(set(&g, 0, "gambit", "names"), ["gambit", "maverick"]);
    assert_eq!(
        (value(&g, 0, "walker", "atk"), value(&g, 0, "walker", "hp")),
        (4, 4)
    );
}

#[test]
fn a_bond_is_checked_continuously_and_announced_once_when_it_starts() {
    // GD16 (3-2-6-3, 13-2-11/12): a unit is bonded when its crew has a name or
    // trait the unit asks for. A rule check sees the bond start, at the pairing or later
    // (a trait granted afterwards), and emits `bonded` once; a static works while bonded;
    // and a bonded unit may attack the turn it entered (GD37).
    let e = engine(
        r#"scene("train", function(ctx)
             ctx:modify(named(ctx, "rookie"), { char = "traits", op = "grant", value = "veteran" })
           end)"#,
    );
    let mut g = position(
        &e,
        &[
            (0, "field", "pikeman:new"),
            (0, "field", "lancer:new"),
            (0, "hand", "ace"),
            (0, "hand", "rookie"),
        ],
    );
    assert!(
        !offered(&g, "attack player 2 with pikeman"),
        "entered this turn"
    );
    pick(&mut g, "pair ace with pikeman"); // bonded by name
    assert_eq!(notes(&g), ["bonded"]);
    assert_eq!(value(&g, 0, "pikeman", "atk"), 1 + 1 + 2);
    assert!(offered(&g, "attack player 2 with pikeman"));
    pick(&mut g, "pair rookie with lancer"); // no veteran: no bond
    assert_eq!(notes(&g), ["bonded"]);
    assert_eq!(value(&g, 0, "lancer", "atk"), 2);
    assert!(!offered(&g, "attack player 2 with lancer"));
    pick(&mut g, "do train"); // the rookie becomes a veteran: the bond starts now
    assert_eq!(notes(&g), ["bonded", "bonded"]);
    assert_eq!(value(&g, 0, "lancer", "atk"), 4);
    assert!(offered(&g, "attack player 2 with lancer"));
    let bonded: Vec<String> = g
        .log()
        .iter()
        .filter_map(|e| match e {
            Entry::Event(e) if e.name == "bonded" => Some(g.card_id(e.card.unwrap())),
            _ => None,
        })
        .collect();
    assert_eq!(bonded, ["pikeman", "lancer"], "once each");
}

// Damage counters, values and costs -------------------------------------------------------------

#[test]
fn damage_counters_persist_recover_to_zero_and_zero_damage_does_nothing() {
    // GD19 (5-5-1, 5-18): damage is counters that stay across turns. GD20 (5-6,
    // 5-6-3): recovery stops at 0, and an undamaged card does not recover. GD73 (5-5-5): 0
    // damage does nothing (no event, false).
    let e = engine(
        r#"local function r(x) if x == false then return -1 end return x end
           scene("hit2", function(ctx) note(ctx, "hit", r(deal(ctx, named(ctx, "walker"), 2, "effect"))) end)
           scene("hit0", function(ctx) note(ctx, "hit0", r(deal(ctx, named(ctx, "walker"), 0, "effect"))) end)
           scene("mend5", function(ctx) note(ctx, "mend", r(recover(ctx, named(ctx, "walker"), 5))) end)"#,
    );
    let mut g = position(&e, &[(0, "field", "walker")]);
    pick(&mut g, "do hit2");
    pick(&mut g, "end turn");
    pick(&mut g, "end turn");
    assert_eq!(g.turn(), 4);
    assert_eq!(damage(&g, 0, "walker"), 2, "still there two turns later");
    pick(&mut g, "do hit0");
    pick(&mut g, "do mend5");
    assert_eq!(damage(&g, 0, "walker"), 0);
    pick(&mut g, "do mend5");
    assert_eq!(notes(&g), ["hit=2", "hit0=-1", "mend", "mend=-1"]);
    let changes: Vec<i64> = g
        .log()
        .iter()
        .filter_map(|e| match e {
            Entry::Event(e) if e.name == "counter" => Some(e.amount),
            _ => None,
        })
        .collect();
    assert_eq!(
        changes,
        [2, -2],
        "0 damage and recovery of nothing made no event"
    );
}

#[test]
fn a_valued_keyword_kept_as_an_integer_adds_up_while_plain_keywords_do_not_stack() {
    // GD22 (13-1): "mend N" is an int characteristic read from a printed field,
    // so gains add to it; a plain keyword granted twice is had once. At the end step a rule
    // ability recovers each unit's mend.
    let e = engine(
        r#"scene("tune", function(ctx)
             ctx:modify(named(ctx, "mender"), { char = "mend", op = "add", value = 1 })
             ctx:modify(named(ctx, "guardian"), { char = "keywords", op = "grant", value = "interceptor" })
             ctx:modify(named(ctx, "guardian"), { char = "keywords", op = "grant", value = "interceptor" })
           end)"#,
    );
    let mut g = position(
        &e,
        &[(0, "field", "mender:dmg=4"), (0, "field", "guardian")],
    );
    pick(&mut g, "do tune");
    assert_eq!(value(&g, 0, "mender", "mend"), 3);
    assert_eq!(set(&g, 0, "guardian", "keywords"), ["interceptor"]);
    pick(&mut g, "end turn");
    assert_eq!(damage(&g, 0, "mender"), 1, "4 damage, mend 2 + 1");
}

#[test]
fn level_counts_rested_cards_and_tokens_and_a_token_spent_on_a_cost_is_removed() {
    // GD23 (2-9-4, 7-5-2-2): the level is the reserve's count, rested cards and
    // tokens included, and is checked apart from the payment. GD24 (5-17-3-2-3): paying
    // rests the chosen active cards, and a spare token spent so is removed (it ceases in
    // the exile). GD29 (5-17-1): the token is made from outside the game.
    let e = engine(
        r#"scene("spare", function(ctx) ctx:create_token("spare", "reserve", ctx.player) end)"#,
    );
    let mut g = position(
        &e,
        &[
            (0, "hand", "titan"),
            (0, "reserve", "ore"),
            (0, "reserve", "ore"),
            (0, "reserve", "ore:rested"),
        ],
    );
    assert!(!offered(&g, "deploy titan"), "level 3, titan needs 4");
    pick(&mut g, "do spare");
    assert_eq!(ids(&g, "reserve", 0), ["ore", "ore", "ore", "spare"]);
    pick(&mut g, "deploy titan");
    assert_eq!(asked(&g).0, "pay");
    pick_all(&mut g, &["spare", "ore"]);
    assert_eq!(ids(&g, "field", 0), ["titan"]);
    assert_eq!(ids(&g, "reserve", 0), ["ore", "ore", "ore"]);
    assert!(ids(&g, "exile", 0).is_empty(), "the token ceased there");
    let rested = g
        .view(0)
        .zones
        .iter()
        .find(|z| z.name == "reserve" && z.owner == Some(0))
        .unwrap()
        .cards
        .iter()
        .filter(|c| c.orientation == "rested")
        .count();
    assert_eq!(rested, 2);
    let ceased = g
        .log()
        .iter()
        .filter(|e| matches!(e, Entry::Event(e) if e.name == "ceased"))
        .count();
    assert_eq!(ceased, 1);
    assert_eq!(
        moves_of(&g, "spare"),
        [(
            "reserve".to_string(),
            "exile".to_string(),
            "cost".to_string()
        )]
    );
}

#[test]
fn activated_abilities_list_only_when_every_cost_can_be_paid_and_pay_them_all() {
    // GD25 (10-1-7): costs as ability fields the activate hook reads: a reserve
    // cost and resting the card itself together, none at all, and once per turn.
    let e = engine("");
    let mut g = position(
        &e,
        &[
            (0, "field", "mechanic"),
            (0, "field", "beacon"),
            (0, "field", "walker:dmg=2"),
            (0, "reserve", "ore"),
        ],
    );
    assert!(offered(&g, "use mechanic") && offered(&g, "use beacon"));
    pick(&mut g, "use mechanic");
    assert_eq!(damage(&g, 0, "walker"), 0);
    assert_eq!(seen(&g, 0, "mechanic").orientation, "rested");
    assert_eq!(seen(&g, 0, "ore").orientation, "rested");
    assert!(!offered(&g, "use mechanic"));
    pick(&mut g, "use beacon");
    assert!(!offered(&g, "use beacon"), "once per turn");
    assert_eq!(notes(&g), ["beacon"]);
    // An active mechanic with no active reserve card cannot pay either.
    let g = position(
        &e,
        &[(0, "field", "mechanic"), (0, "reserve", "ore:rested")],
    );
    assert!(!offered(&g, "use mechanic"));
}

#[test]
fn tokens_come_from_card_definitions_and_a_script_sets_a_generic_tokens_stats() {
    // GD29 (5-17-1): a token made from outside the game, as an outpost or a unit.
    // GD31: a built-in token is a card definition (camp: an outpost, atk 0, hp 3). GD32: a
    // generic unit token whose stats the script sets. A full field makes none (F6).
    let e = engine(
        r#"scene("tokens", function(ctx)
             local camp = ctx:create_token("camp", "outpost", ctx.player)
             local d = ctx:create_token("drone", "field", ctx.player)
             ctx:modify(d, { char = "atk", op = "set_base", value = 3 })
             ctx:modify(d, { char = "hp", op = "set_base", value = 2 })
             note(ctx, "made", (camp.token and 1 or 0) + (d.token and 1 or 0))
           end)
           scene("drone", function(ctx)
             note(ctx, "drone", ctx:create_token("drone", "field", ctx.player) and 1 or 0)
           end)"#,
    );
    let mut g = position(&e, &[]);
    pick(&mut g, "do tokens");
    assert_eq!(notes(&g), ["made=2"]);
    let camp = seen(&g, 0, "camp");
    assert_eq!(
        (camp.values["atk"], camp.values["hp"], camp.values["lv"]),
        (0, 3, 0)
    );
    assert_eq!(ids(&g, "outpost", 0), ["camp"]);
    assert_eq!(
        (value(&g, 0, "drone", "atk"), value(&g, 0, "drone", "hp")),
        (3, 2)
    );
    for _ in 0..6 {
        pick(&mut g, "do drone");
    }
    assert_eq!(ids(&g, "field", 0).len(), 6);
    assert_eq!(
        notes(&g)[1..],
        [
            "drone=1", "drone=1", "drone=1", "drone=1", "drone=1", "drone"
        ]
    );
}

// The turn ----------------------------------------------------------------------------------------

#[test]
fn steps_run_in_order_each_after_the_triggers_of_the_one_before_and_only_the_turn_player_discards()
{
    // GD33 (7-1..7-6): a phase's steps are code in its procedure, each emitting
    // an event; GD35 (7-1-3): triggers resolve before the next step (the herald's draw at
    // the end step comes before the hand step); GD41 (7-6-5-1): at the hand step the turn
    // player alone discards down to the limit (4 here), cards of their choice.
    let e = engine("");
    let mut placed = vec![(0, "field", "herald")];
    placed.extend([(0, "hand", "ace"); 4]);
    placed.extend([(1, "hand", "rookie"); 6]);
    let mut g = position(&e, &placed);
    pick(&mut g, "end turn");
    let (prompt, player, labels) = asked(&g);
    assert_eq!((prompt.as_str(), player), ("discard", 0));
    assert_eq!(
        labels,
        ["ace", "ace", "ace", "ace", "filler"],
        "the herald drew"
    );
    pick(&mut g, "filler");
    let steps = events(&g, "step");
    let steps: Vec<(&str, PlayerId)> = steps
        .iter()
        .map(|(k, p)| (k.as_str(), p.unwrap()))
        .collect();
    assert_eq!(
        steps,
        [
            ("end", 0),
            ("hand", 0),
            ("cleanup", 0),
            ("active", 1),
            ("start", 1)
        ]
    );
    assert_eq!(notes(&g), ["herald"]);
    assert_eq!(ids(&g, "hand", 0).len(), 4);
    assert_eq!(ids(&g, "scrap", 0), ["filler"]);
    assert_eq!(
        ids(&g, "hand", 1).len(),
        7,
        "six, and the draw of the new turn"
    );
    assert_eq!(asked(&g).1, 1);
}

// Windows -------------------------------------------------------------------------------------

#[test]
fn the_action_step_alternates_from_the_next_player_resolving_each_action_with_its_triggers() {
    // GD42 (9-2..9-5): the end of turn's action step: strict alternation from the
    // non-turn player, one action or a pass each, closing after passes in a row; each
    // action resolves fully, its triggers included (the watcher's note), before the next
    // player is asked.
    let e = engine("");
    let mut g = position(
        &e,
        &[
            (0, "field", "watcher"),
            (0, "hand", "flash"),
            (0, "hand", "flash"),
            (1, "hand", "flash"),
            (1, "hand", "flash"),
        ],
    );
    pick(&mut g, "end turn");
    let mut seats = Vec::new();
    for a in ["play flash", "play flash", "play flash", "pass"] {
        let (prompt, player, _) = asked(&g);
        assert_eq!(prompt, "action");
        seats.push(player);
        pick(&mut g, a);
    }
    assert_eq!(
        seats,
        [1, 0, 1, 0],
        "player 2, with nothing left, passed too: two passes in a row closed it"
    );
    let by: Vec<String> = g
        .log()
        .iter()
        .filter_map(|e| match e {
            Entry::Event(e) if e.name == "note" => Some(format!(
                "{}@{}",
                e.key.clone().unwrap(),
                e.player.unwrap() + 1
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        by,
        ["flash@2", "watched@1", "flash@1", "flash@2", "watched@1"]
    );
    assert_eq!(asked(&g).1, 1, "player 2's turn");
}

#[test]
fn with_three_seats_the_action_step_goes_round_from_a_configurable_player_until_all_pass() {
    // GD43 (12-2-8): round robin in turn order, from the player the option names,
    // closing when every player has passed in a row.
    let e = engine("");
    let placed = [
        (0, "hand", "flash"),
        (1, "hand", "flash"),
        (2, "hand", "flash"),
    ];
    for (start, order) in [("next", [1, 2, 0, 1]), ("turn_player", [0, 1, 2, 0])] {
        let opts = options(&[("action_start", start)]);
        let mut g = position_with(&e, 3, &opts, 0, &placed);
        pick(&mut g, "end turn");
        let mut seats = Vec::new();
        // The first player acts; the others pass; the first, with nothing left, passes by
        // default: all three passed in a row.
        for a in ["play flash", "pass", "pass"] {
            seats.push(asked(&g).1);
            pick(&mut g, a);
        }
        assert_eq!(seats, order[..3], "{start}");
        assert_eq!(
            asked(&g).1,
            1,
            "{start}: the window closed; player 2's turn"
        );
        assert_eq!(notes(&g), ["flash"]);
    }
}

#[test]
fn an_action_window_offers_action_orders_and_abilities_only() {
    // GD44 (13-2-4-2): inside the action step, only action orders from hand and
    // action abilities; no main order, no pairing, no main ability; and an order usable
    // only during a battle (GD38) is not offered outside one.
    let e = engine("");
    let mut g = position(
        &e,
        &[
            (0, "field", "walker"),
            (0, "field", "lookout"),
            (0, "field", "beacon"),
            (0, "hand", "flash"),
            (0, "hand", "spark"),
            (0, "hand", "ace"),
            (0, "hand", "volley"),
            (0, "reserve", "ore"),
            (1, "field", "brute"),
        ],
    );
    for main in ["play spark", "pair ace with walker", "use beacon"] {
        assert!(offered(&g, main), "{main} in the main phase");
    }
    pick(&mut g, "end turn");
    let (prompt, player, labels) = asked(&g);
    assert_eq!(
        (prompt.as_str(), player),
        ("action", 0),
        "player 2 had nothing"
    );
    assert_eq!(labels, ["play flash", "use lookout", "pass"]);
}

// Battle --------------------------------------------------------------------------------------------

#[test]
fn a_battle_whose_attacker_left_during_the_action_step_skips_to_its_end() {
    // GD34 (8-4-2): the battle is a procedure; at the end of the block and action
    // steps, an attacker or target that left sends it to the battle's end (which always
    // runs). The action step itself goes on until both pass. GD38: the volley, usable only
    // during a battle, is offered there.
    let e = engine("");
    let mut g = position(
        &e,
        &[
            (0, "field", "brute"),
            (0, "hand", "flash"),
            (1, "field", "titan:rested"),
            (1, "hand", "volley"),
        ],
    );
    pick(&mut g, "attack titan with brute");
    let (prompt, player, labels) = asked(&g);
    assert_eq!(
        (prompt.as_str(), player),
        ("action", 1),
        "no interceptor: no block step question"
    );
    assert_eq!(labels, ["play volley", "pass"]);
    assert!(in_battle(&g));
    pick(&mut g, "play volley");
    assert_eq!(ids(&g, "scrap", 0), ["brute"]);
    assert_eq!(
        asked(&g),
        (
            "action".to_string(),
            0,
            vec!["play flash".to_string(), "pass".to_string()]
        )
    );
    pick(&mut g, "pass");
    assert_eq!(damage(&g, 1, "titan"), 0, "no damage step");
    assert_eq!(notes(&g), ["attack", "battle_end"]);
    assert!(!in_battle(&g));
    assert!(seen(&g, 1, "titan").flags.is_empty(), "no longer attacked");
    assert_eq!(asked(&g).0, "main");
}

#[test]
fn the_attack_state_is_flags_other_cards_read_and_a_block_points_the_attack_elsewhere() {
    // GD38 (13-1-6-1, 8-2-3): "attacking" and "attacked" are flags any script
    // reads: the charger's own static (+2 atk while attacking), the sentry's static (+3 hp
    // for the unit attacked). GD39 (8-3-1, 8-5-1): a block moves the "attacked" flag to the
    // guardian, and the damage step hits the current target. GD40: when the battle ends,
    // the guardian's bonus ends and rule processing destroys it at once.
    let e = engine("");
    let mut g = position(
        &e,
        &[
            (0, "field", "charger"),
            (1, "field", "sentry"),
            (1, "field", "guardian"),
            (1, "field", "walker:rested"),
            (1, "hand", "flash"),
        ],
    );
    assert_eq!(value(&g, 0, "charger", "atk"), 3);
    pick(&mut g, "attack walker with charger");
    assert_eq!(value(&g, 0, "charger", "atk"), 5);
    assert_eq!(value(&g, 1, "walker", "hp"), 6);
    let (prompt, player, labels) = asked(&g);
    assert_eq!((prompt.as_str(), player), ("block", 1));
    assert_eq!(labels, ["block with guardian", "no block"]);
    pick(&mut g, "block with guardian");
    assert_eq!(seen(&g, 1, "guardian").flags, ["attacked"]);
    assert_eq!(value(&g, 1, "guardian", "hp"), 7);
    assert_eq!(value(&g, 1, "walker", "hp"), 3);
    assert_eq!(asked(&g).0, "action");
    pick(&mut g, "pass");
    // Damage: 5 to the guardian (hp 7 now), 1 back to the charger; the walker untouched.
    assert_eq!(damage(&g, 0, "charger"), 1);
    assert_eq!(damage(&g, 1, "walker"), 0);
    assert_eq!(value(&g, 0, "charger", "atk"), 3, "no longer attacking");
    assert_eq!(
        ids(&g, "scrap", 1),
        ["guardian"],
        "5 damage against hp 4 after the battle"
    );
    let destroyed: Vec<(String, String, String)> = moves_of(&g, "guardian");
    assert_eq!(
        destroyed,
        [(
            "field".to_string(),
            "scrap".to_string(),
            "destroyed".to_string()
        )]
    );
}

#[test]
fn no_block_is_asked_against_an_evasive_attacker_and_only_active_interceptors_are_offered() {
    // GD46 (8-3): the block step is a window of the battle procedure; its
    // options read the battle's record: an evasive attacker cannot be blocked, and only an
    // active interceptor other than the unit attacked may block.
    let e = engine("");
    let placed = [
        (0, "field", "ghost"),
        (0, "field", "brute"),
        (1, "field", "guardian"),
        (1, "field", "guardian:rested"),
        (1, "field", "walker:rested"),
    ];
    let mut g = position(&e, &placed);
    pick(&mut g, "attack walker with ghost");
    assert_eq!(damage(&g, 1, "walker"), 2, "straight to the damage step");
    let mut g = position(&e, &placed);
    pick(&mut g, "attack walker with brute");
    assert_eq!(labels(&g), ["block with guardian", "no block"]);
    pick(&mut g, "no block");
    assert_eq!(ids(&g, "scrap", 1), ["walker"]);
}

#[test]
fn first_strike_is_two_damage_operations_with_rule_processing_between() {
    // GD72 (13-1-5-2, 8-5-3-2-2): the striker deals its damage first; rule
    // processing runs after that operation, so a target it destroys deals nothing back; a
    // target that survives strikes back after.
    let e = engine("");
    let mut g = position(
        &e,
        &[
            (0, "field", "striker"),
            (1, "field", "walker:rested"),
            (1, "field", "titan:rested"),
        ],
    );
    pick(&mut g, "attack walker with striker");
    assert_eq!(ids(&g, "scrap", 1), ["walker"]);
    assert_eq!(damage(&g, 0, "striker"), 0);
    let order: Vec<String> = g
        .log()
        .iter()
        .filter_map(|e| match e {
            Entry::Event(e) if e.name == "counter" => {
                Some(format!("{}+{}", g.card_id(e.card.unwrap()), e.amount))
            }
            Entry::Event(e) if e.name == "moved" && e.reason.as_deref() == Some("destroyed") => {
                Some(format!("{} destroyed", g.card_id(e.card.unwrap())))
            }
            _ => None,
        })
        .collect();
    assert_eq!(order, ["walker+3", "walker destroyed"]);
    // Against the titan (hp 6): it survives the first strike and strikes back.
    let mut g = position(&e, &[(0, "field", "striker"), (1, "field", "titan:rested")]);
    pick(&mut g, "attack titan with striker");
    assert_eq!((damage(&g, 1, "titan"), damage(&g, 0, "striker")), (3, 1));
}

#[test]
fn damage_to_a_player_goes_to_the_outpost_if_any_else_to_the_top_guard_else_the_player_loses() {
    // GD74 (3-5-3, 8-5-2): the outpost takes the hit and the guards are not
    // touched; without an outpost the top guard only (destroyed by any damage, GD67); with
    // neither, a unit's hit makes the player lose (GD66). GD73 (5-5-5): an attacker with 0
    // atk does nothing to a guard and makes no one lose.
    let e = engine("");
    let attack = |placed: &[(PlayerId, &str, &str)], with: &str| {
        let mut all = vec![(0, "field", with)];
        all.extend_from_slice(placed);
        let mut g = position(&e, &all);
        pick(&mut g, &format!("attack player 2 with {with}"));
        g
    };
    let g = attack(
        &[
            (1, "outpost", "fort"),
            (1, "guards", "filler"),
            (1, "guards", "filler"),
        ],
        "brute",
    );
    assert_eq!(damage(&g, 1, "fort"), 4);
    assert_eq!(ids(&g, "guards", 1).len(), 2);
    let g = attack(&[(1, "guards", "walker"), (1, "guards", "filler")], "brute");
    assert_eq!(ids(&g, "guards", 1), ["walker"], "the top guard only");
    assert_eq!(ids(&g, "scrap", 1), ["filler"]);
    let g = attack(&[(1, "guards", "filler")], "dummy");
    assert_eq!(
        ids(&g, "guards", 1),
        ["filler"],
        "0 damage destroys nothing"
    );
    let g = attack(&[], "dummy");
    assert_eq!(g.result(), None);
    let g = attack(&[], "brute");
    let r = g.result().expect("over");
    assert_eq!((r.winners, r.reason.as_str()), (vec![0], "unprotected"));
}

// Effects -------------------------------------------------------------------------------------------

#[test]
fn an_order_whose_required_target_is_missing_is_not_offered_and_nothing_is_paid() {
    // GD57 (10-1-8-1-1): the target check comes before any payment: with no
    // enemy unit the spark is not offered, and playing it anyway does nothing at all.
    let e = engine(
        r#"scene("force", function(ctx) note(ctx, "forced", play_order(ctx, named(ctx, "spark"), "main") and 1 or 0) end)"#,
    );
    let mut g = position(&e, &[(0, "hand", "spark"), (0, "reserve", "ore")]);
    assert!(!offered(&g, "play spark"));
    pick(&mut g, "do force");
    assert_eq!(notes(&g), ["forced"]);
    assert_eq!(seen(&g, 0, "ore").orientation, "active", "nothing paid");
    assert_eq!(ids(&g, "hand", 0), ["spark"]);
    let g = position(
        &e,
        &[
            (0, "hand", "spark"),
            (0, "reserve", "ore"),
            (1, "field", "brute"),
        ],
    );
    assert!(offered(&g, "play spark"));
}

#[test]
fn an_optional_part_asks_and_a_mandatory_one_does_as_much_as_it_can() {
    // GD58 (10-1-3, 1-3-2): "rest 2 enemy units" rests the one there is (the
    // other is rested already: setting a state it has does nothing, GD28); "you may draw"
    // asks.
    let e = engine("");
    let mut g = position(
        &e,
        &[
            (0, "hand", "scramble"),
            (1, "field", "brute"),
            (1, "field", "titan:rested"),
        ],
    );
    pick(&mut g, "play scramble");
    assert_eq!(asked(&g).0, "draw");
    assert_eq!(notes(&g), ["rested=1"]);
    pick(&mut g, "yes");
    assert_eq!(ids(&g, "hand", 0), ["filler"]);
    assert_eq!(seen(&g, 1, "brute").orientation, "rested");
    let turned: Vec<String> = g
        .log()
        .iter()
        .filter_map(|e| match e {
            Entry::Event(e) if e.name == "turned" => Some(g.card_id(e.card.unwrap())),
            _ => None,
        })
        .collect();
    assert_eq!(turned, ["brute"], "no event for the titan, rested already");
}

#[test]
fn a_prohibition_beats_a_permission_and_an_instruction() {
    // GD60 (1-3-3, 10-1-5-6): "cannot attack" beats "may attack the turn it
    // entered"; "cannot be destroyed" beats a destroy instruction and rule processing's
    // destruction.
    let e = engine(
        r#"scene("forbid", function(ctx)
             ctx:modify(named(ctx, "sprinter"), { char = "keywords", op = "grant", value = "cannot_attack" }, { ["until"] = "end_of_turn" })
           end)
           scene("destroy", function(ctx) note(ctx, "destroyed", destroy(ctx, named(ctx, "bulwark")) and 1 or 0) end)"#,
    );
    let mut g = position(
        &e,
        &[(0, "field", "sprinter:new"), (0, "field", "bulwark:dmg=3")],
    );
    assert!(offered(&g, "attack player 2 with sprinter"), "hasty");
    pick(&mut g, "do forbid");
    assert!(!offered(&g, "attack player 2 with sprinter"));
    pick(&mut g, "do destroy");
    assert_eq!(notes(&g), ["destroyed"]);
    assert_eq!(ids(&g, "field", 0), ["sprinter", "bulwark"]);
}

#[test]
fn simultaneous_choices_go_from_the_turn_player_in_turn_order() {
    // GD65 (1-3-4, 12-2-4): each player chooses in turn, the turn player first,
    // then in the direction of play.
    let e = engine(
        r#"scene("muster", function(ctx)
             for _, p in ipairs(ctx:turn_order()) do
               ctx:set_orientation(ctx:choose_cards(p, ctx:cards("field", p), { prompt = "muster" }), "rested", "muster")
             end
           end)"#,
    );
    let placed = [
        (0, "field", "walker"),
        (1, "field", "walker"),
        (2, "field", "walker"),
    ];
    for (seating, order) in [("clockwise", [1, 2, 0]), ("counterclockwise", [1, 0, 2])] {
        let mut g = position_with(&e, 3, &options(&[("seating", seating)]), 1, &placed);
        pick(&mut g, "do muster");
        let mut seats = Vec::new();
        for _ in 0..3 {
            let (prompt, player, _) = asked(&g);
            assert_eq!(prompt, "muster");
            seats.push(player);
            pick(&mut g, "walker");
        }
        assert_eq!(seats, order, "{seating}");
    }
}

#[test]
fn a_seventh_unit_makes_its_owner_trash_one_which_is_not_destroyed() {
    // GD68 (11-4): at 6 units, deploying another first trashes one of the owner's
    // choice; GD69 (5-10-4): by the rules (reason `rule`), so the martyr's "when destroyed"
    // does not trigger.
    let e = engine("");
    let mut placed = vec![(0, "field", "martyr")];
    placed.extend([(0, "field", "filler"); 5]);
    placed.push((0, "hand", "walker"));
    placed.push((1, "field", "titan"));
    let mut g = position(&e, &placed);
    pick(&mut g, "deploy walker");
    assert_eq!(asked(&g).0, "make_room");
    pick(&mut g, "martyr");
    assert_eq!(
        moves_of(&g, "martyr"),
        [("field".to_string(), "scrap".to_string(), "rule".to_string())]
    );
    assert_eq!(ids(&g, "field", 0).len(), 6);
    assert!(notes(&g).is_empty());
    assert_eq!(damage(&g, 1, "titan"), 0);
}

// Setup, search, hidden order, victory ----------------------------------------------------------

#[test]
fn setup_draws_redraws_places_six_guards_a_camp_and_a_spare_for_the_second_player() {
    // GD76 (6-2): shuffle, a random first player, 5 cards, redraws in turn order
    // (hand to the bottom, 5 more, shuffle), 6 guards from the deck top, a camp token each
    // (GD31) and a spare token for every player but the first. GD1: the guards are hidden
    // even from their owner.
    let e = engine("");
    let decks = vec![
        {
            let mut d = DeckList::default();
            d.sections
                .insert("main".into(), [("filler".to_string(), 15)].into());
            d.sections
                .insert("supply".into(), [("ore".to_string(), 3)].into());
            d
        };
        2
    ];
    let mut g = Game::new(
        e,
        GameConfig {
            seed: 3,
            decks,
            keep_log: true,
        },
    )
    .expect("starts");
    let (prompt, first, _) = asked(&g);
    assert_eq!(prompt, "redraw");
    pick(&mut g, "yes");
    let (prompt, second, _) = asked(&g);
    assert_eq!((prompt.as_str(), second), ("redraw", 1 - first));
    pick(&mut g, "no");
    assert_eq!(
        moves_of(&g, "filler")
            .iter()
            .filter(|m| m.2 == "redraw")
            .count(),
        5
    );
    for p in [first, second] {
        let v = g.view(p);
        let zone = |name: &str| {
            v.zones
                .iter()
                .find(|z| z.name == name && z.owner == Some(p))
                .unwrap()
                .clone()
        };
        assert_eq!(zone("guards").count, 6);
        assert!(
            zone("guards")
                .cards
                .iter()
                .all(|c| c.card.is_none() && !c.face_up)
        );
        assert_eq!(ids(&g, "outpost", p), ["camp"]);
        assert_eq!(seen(&g, p, "camp").values["hp"], 3);
    }
    // The first player draws no card on turn 1 here (the turn starts at its start phase and
    // draws one): 5 + 1 in hand; the deck lost 5 + 6 + 1.
    assert_eq!(
        g.view(first)
            .zones
            .iter()
            .find(|z| z.name == "hand" && z.owner == Some(first))
            .unwrap()
            .count,
        6
    );
    assert_eq!(ids(&g, "deck", first).len(), 15 - 5 - 6 - 1);
    assert!(ids(&g, "reserve", first).iter().all(|c| c != "spare"));
    assert!(ids(&g, "reserve", second).iter().any(|c| c == "spare"));
    let tokens = g.with_state(|st| st.objects.iter().filter(|o| o.alive && o.token).count());
    assert_eq!(tokens, 3, "two camps and one spare");
}

#[test]
fn a_deck_search_looks_chooses_and_shuffles_and_the_opponent_sees_only_the_card_taken() {
    // GD79 (10-3-5): look at the deck (a look: the searcher only), choose a card,
    // reveal it, take it, shuffle, and stop looking.
    let e = engine(
        r#"scene("search", function(ctx)
             local deck = ctx:cards("deck", ctx.player)
             ctx:look(deck, ctx.player)
             local c = ctx:choose_cards(ctx.player, filter(deck, function(c) return c.name ~= "filler" end), { min = 0, prompt = "search" })
             if c then
               ctx:reveal(c)
               ctx:move(c, "hand", { reason = "search" })
             end
             ctx:shuffle("deck", ctx.player)
             ctx:conceal(ctx:cards("deck", ctx.player))
           end)"#,
    );
    let mut g = position(&e, &[(0, "deck", "walker"), (0, "deck", "brute")]);
    pick(&mut g, "do search");
    assert_eq!(
        asked(&g),
        (
            "search".to_string(),
            0,
            vec!["walker".to_string(), "brute".to_string()]
        )
    );
    assert!(g.view(1).request.is_none());
    pick(&mut g, "brute");
    assert_eq!(ids(&g, "hand", 0), ["brute"]);
    let revealed = |viewer: PlayerId| -> Vec<Option<String>> {
        g.events_for(viewer)
            .iter()
            .filter_map(|e| match e {
                Entry::Event(e) if e.name == "revealed" => Some(e.card.map(|c| g.card_id(c))),
                _ => None,
            })
            .collect()
    };
    assert_eq!(
        revealed(0).iter().flatten().count(),
        6,
        "5 looked at, 1 revealed"
    );
    assert_eq!(revealed(1).iter().flatten().collect::<Vec<_>>(), ["brute"]);
    assert!(events(&g, "shuffled").iter().any(|(_, p)| *p == Some(0)));
    let deck = g
        .view(0)
        .zones
        .into_iter()
        .find(|z| z.name == "deck" && z.owner == Some(0))
        .unwrap();
    assert_eq!(deck.count, 4);
    assert!(
        deck.cards.iter().all(|c| c.card.is_none()),
        "no longer looked at"
    );
}

#[test]
fn cards_put_under_a_deck_go_in_the_owners_chosen_order_which_no_one_else_learns() {
    // GD6 (4-1-6, 4-1-7): the owner orders cards going into a closed zone by
    // single choices, which only they see; the others' log shows cards going, not which.
    let e = engine(
        r#"scene("tuck", function(ctx)
             local left = ctx:cards("hand", ctx.player)
             while #left > 0 do
               local c = ctx:choose_cards(ctx.player, left, { prompt = "bottom" })
               ctx:move(c, "deck", { position = "bottom", reason = "tuck" })
               left = filter(left, function(x) return x ~= c end)
             end
           end)"#,
    );
    let mut g = position(
        &e,
        &[
            (0, "hand", "walker"),
            (0, "hand", "brute"),
            (0, "hand", "rig"),
        ],
    );
    pick(&mut g, "do tuck");
    for c in ["brute", "rig", "walker"] {
        assert!(g.view(1).request.is_none(), "the opponent sees no question");
        pick(&mut g, c);
    }
    assert_eq!(
        ids(&g, "deck", 0)[..3],
        ["walker", "rig", "brute"],
        "bottom first"
    );
    let tucked = |viewer: PlayerId| -> Vec<Option<String>> {
        g.events_for(viewer)
            .iter()
            .filter_map(|e| match e {
                Entry::Event(e) if e.name == "moved" && e.reason.as_deref() == Some("tuck") => {
                    Some(e.card.map(|c| g.card_id(c)))
                }
                _ => None,
            })
            .collect()
    };
    assert_eq!(
        tucked(0),
        [
            Some("brute".to_string()),
            Some("rig".into()),
            Some("walker".into())
        ]
    );
    assert_eq!(tucked(1), [None, None, None]);
}

#[test]
fn the_victory_option_decides_between_the_first_to_win_and_the_last_standing() {
    // GD84 (12-2-5): with three players, a unit's hit on an unprotected player
    // ends the game for its dealer (`first_to_win`), or takes that player out and the
    // others play on (`last_standing`, GD83).
    let e = engine("");
    let placed = [
        (0, "field", "brute"),
        (1, "field", "walker"),
        (2, "field", "walker"),
    ];
    let mut g = position_with(&e, 3, &options(&[("victory", "first_to_win")]), 0, &placed);
    pick(&mut g, "attack player 2 with brute");
    let r = g.result().expect("over");
    assert_eq!((r.winners, r.reason.as_str()), (vec![0], "unprotected"));
    let mut g = position_with(&e, 3, &options(&[("victory", "last_standing")]), 0, &placed);
    pick(&mut g, "attack player 2 with brute");
    assert_eq!(g.result(), None);
    assert_eq!(g.view(0).out, [1]);
    assert!(
        ids(&g, "field", 1).is_empty(),
        "the player's cards are removed"
    );
    assert_eq!(asked(&g), ("main".to_string(), 0, labels(&g)));
    pick(&mut g, "end turn");
    assert_eq!(asked(&g).1, 2, "seat 2 is skipped");
}

#[test]
fn a_guard_taken_into_hand_is_seen_by_its_owner_only() {
    // GD87 (Part 13, add_shield_to_hand): a move out of the guard pile, which no
    // one sees, into the hand, which its owner sees.
    let e = engine(
        r#"scene("take", function(ctx)
             ctx:move(ctx:top("guards", ctx.player, 1), "hand", { reason = "take_guard" })
           end)"#,
    );
    let mut g = position(&e, &[(0, "guards", "filler"), (0, "guards", "brute")]);
    let hidden = |g: &Game, p: PlayerId| {
        g.view(p)
            .zones
            .iter()
            .find(|z| z.name == "guards" && z.owner == Some(0))
            .unwrap()
            .cards
            .iter()
            .all(|c| c.card.is_none())
    };
    assert!(hidden(&g, 0) && hidden(&g, 1), "hidden from its owner too");
    pick(&mut g, "do take");
    assert_eq!(ids(&g, "hand", 0), ["brute"], "the top guard");
    assert_eq!(seen(&g, 0, "brute").card.as_deref(), Some("brute"));
    let taken = |viewer: PlayerId| -> Vec<Option<String>> {
        g.events_for(viewer)
            .iter()
            .filter_map(|e| match e {
                Entry::Event(e) if e.reason.as_deref() == Some("take_guard") => {
                    Some(e.card.map(|c| g.card_id(c)))
                }
                _ => None,
            })
            .collect()
    };
    assert_eq!(taken(0), [Some("brute".to_string())]);
    assert_eq!(taken(1), [None]);
}

#[test]
fn a_printed_field_the_card_lacks_reads_nil() {
    // Found on the way (docs/kernel.md F7): `card:printed(field)` gave the serializer's
    // null, a userdata, for a field the card lacks, so `printed(x) == nil` never held.
    let e = engine(
        r#"scene("read", function(ctx)
             local w = named(ctx, "walker")
             note(ctx, type(w:printed("bond")) .. "_" .. type(w:printed("traits")) .. "_" .. w:printed("atk"))
           end)"#,
    );
    let mut g = position(&e, &[(0, "field", "walker")]);
    pick(&mut g, "do read");
    assert_eq!(notes(&g), ["nil_table_2"]);
}

#[test]
fn a_destruction_check_given_as_data_is_tested_by_the_kernel_with_every_effect_applied() {
    // GD67 (5-5-2, 11-3-1, 11-3-1-1) with the check's condition as data: a card whose
    // damage reaches its hp as read now (a crew's hp included), or a guard with any damage,
    // is found without a call into Lua; a card flagged as spared is left alone.
    let data_check = |m: &mut serde_json::Value| {
        m["flags"].as_array_mut().unwrap().push(json!("spared"));
        m["checks"][1]["when"] = json!({"from_turn": 1, "any_card": [
            {"zones": ["field", "outpost"], "counter": "damage", "reaches": "hp", "unless_flag": "spared"},
            {"zones": ["guards"], "counter": "damage", "at_least": 1}
        ]});
    };
    let scenes = r#"
      scene("hurt walker", function(ctx) deal(ctx, named(ctx, "walker"), 2, "effect") end)
      scene("hurt titan", function(ctx) deal(ctx, named(ctx, "titan"), 6, "effect") end)
      scene("hurt guard", function(ctx) deal(ctx, ctx:top("guards", 2, 1)[1], 1, "effect") end)
    "#;
    let e = engine_with(scenes, data_check);
    let mut g = position(
        &e,
        &[
            (0, "field", "walker"),
            (0, "under:walker", "ace"),
            (1, "field", "titan:flag=spared"),
            (1, "guards", "filler"),
        ],
    );
    // Walker: hp 3, and 2 from its crew.
    pick(&mut g, "do hurt walker");
    pick(&mut g, "do hurt walker");
    assert_eq!(ids(&g, "field", 0), ["walker"], "4 damage of 5 hp");
    pick(&mut g, "do hurt walker");
    assert_eq!(
        ids(&g, "field", 0),
        Vec::<String>::new(),
        "6 damage of 5 hp"
    );
    assert_eq!(ids(&g, "scrap", 0), ["walker", "ace"]);
    // The titan is spared: 6 damage of 6 hp, and it stays.
    pick(&mut g, "do hurt titan");
    assert_eq!(ids(&g, "field", 1), ["titan"]);
    // A guard goes at any damage.
    pick(&mut g, "do hurt guard");
    assert_eq!(ids(&g, "guards", 1), Vec::<String>::new());
    // A test with neither bound, or naming what is not declared, is a load error.
    let bad = |test: serde_json::Value| {
        let c = content(scenes, |m| {
            data_check(m);
            m["checks"][1]["when"] = json!({"any_card": [test]});
        });
        common::load_errors(&c)
    };
    let e = bad(json!({"zones": ["field"], "counter": "damage"}));
    assert!(
        e.contains("one of `at_least`") && e.contains("`reaches`"),
        "{e}"
    );
    let e = bad(json!({"zones": ["field"], "counter": "damage", "reaches": "traits"}));
    assert!(e.contains("traits"), "{e}");
    let e = bad(json!({"zones": ["field"], "counter": "damge", "at_least": 1}));
    assert!(e.contains("damge"), "{e}");
}

#[test]
fn an_attached_cards_ability_may_name_its_bearer_the_card_it_is_attached_to() {
    // GD14, GD63 (3-3-9-2): a crew's text speaks of "this unit", the unit it crews: a trigger
    // `match = {card = "bearer"}`, a static `affects = "bearer"` and a replacement matching
    // its bearer's counter. Unattached, its bearer is itself.
    let scenes = r#"
      scene("signal walker", function(ctx) ctx:emit("signal", { card = named(ctx, "walker") }) end)
      scene("signal spotter", function(ctx) ctx:emit("signal", { card = named(ctx, "spotter") }) end)
      scene("hurt walker", function(ctx) deal(ctx, named(ctx, "walker"), 2, "effect") end)
    "#;
    let e = engine(scenes);
    let mut g = position(
        &e,
        &[(0, "field", "walker"), (0, "under:walker", "spotter")],
    );
    assert_eq!(
        value(&g, 0, "walker", "atk"),
        4,
        "2, and 2 from its crew's static"
    );
    pick(&mut g, "do signal walker");
    pick(&mut g, "do signal spotter");
    assert_eq!(
        notes(&g),
        ["spotted"],
        "the crew answers its bearer's signal only"
    );
    pick(&mut g, "do hurt walker");
    assert_eq!(damage(&g, 0, "walker"), 1, "2 damage, 1 less");
    // Alone on the field, the spotter bears its own text.
    let mut g = position(&e, &[(0, "field", "spotter"), (0, "field", "walker")]);
    assert_eq!(value(&g, 0, "walker", "atk"), 2);
    assert_eq!(value(&g, 0, "spotter", "atk"), 2);
    pick(&mut g, "do signal walker");
    pick(&mut g, "do signal spotter");
    assert_eq!(notes(&g), ["spotted"]);
}
