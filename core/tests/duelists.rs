//! Kernel tests on a made-up two-player game, "Duelists", built the way a game of long
//! commands and alternating half-turns needs the kernel: each kernel turn is one player's
//! attack subturn (the other player defends), and its eight phases are the subturn's steps
//! (checkup, draw, discard, interfere, main, interfere, refill, cleanup). Creatures stand in a
//! front line or a back line, or drift in no line, or wait in the casting zone while they are
//! cast (four zones of one identity group); charms attach to creatures; a creature may carry
//! others as supports (a composite whose stats come from a form table). Commands (cast,
//! attack, change line, skills, curses) are procedures with interfere windows, statuses as
//! flags and locks. Positions are built by hand (`placed`, `Builder`). Each test names the
//! requirement rows of docs/kernel.md it checks and the digest rules it follows.

mod common;

use std::rc::Rc;

use common::engine_of;
use riffle_core::*;

const MANIFEST: &str = r#"{
  "game": "duelists", "name": {"en": "Duelists"}, "version": "1",
  "players": {"min": 2, "max": 2},
  "zones": [
    {"name": "deck", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true},
    {"name": "tome", "scope": "player", "visibility": "hidden", "ordered": true, "face_down": true},
    {"name": "hand", "scope": "player", "visibility": "owner"},
    {"name": "front", "scope": "player", "visibility": "public", "ordered": true, "in_play": true},
    {"name": "back", "scope": "player", "visibility": "public", "ordered": true, "in_play": true},
    {"name": "adrift", "scope": "player", "visibility": "public", "in_play": true},
    {"name": "casting", "scope": "player", "visibility": "public", "in_play": true},
    {"name": "graveyard", "scope": "player", "visibility": "public", "ordered": true},
    {"name": "exile", "scope": "player", "visibility": "public"},
    {"name": "reserve", "scope": "player", "visibility": "owner", "face_down": true},
    {"name": "gallery", "scope": "player", "visibility": "public"}
  ],
  "categories": ["creature", "charm"],
  "characteristics": [
    {"name": "power", "kind": "int", "min": 0},
    {"name": "guard", "kind": "int", "min": 0},
    {"name": "cost", "kind": "int", "min": 0},
    {"name": "level", "kind": "int"},
    {"name": "elements", "kind": "set"},
    {"name": "keywords", "kind": "set"}
  ],
  "keywords": [{"name": "interfere"}, {"name": "charging", "valued": true}, {"name": "wake_up"},
               {"name": "extra_attack"}, {"name": "vanish"}],
  "orientations": ["ready", "tired"],
  "counters": ["charge", "poison", "doom"],
  "flags": ["attacking", "attacked", "pending", "being_cast", "from_hand", "loser", "destroyed",
            "stone", "freeze", "dimension", "twinkled"],
  "player_values": ["mana", "mana_max", "subturns", "progressed", "had_creature", "drew_from_empty",
                    "woke"],
  "game_values": ["working"],
  "events": ["note", "declared", "attack_declared", "cursed", "entered"],
  "timings": ["main", "interfere", "on_attack", "cast"],
  "durations": ["end_of_subturn", "end_of_command"],
  "effect_tags": ["curse"],
  "identity": [{"zones": ["front", "back", "adrift", "casting"]}],
  "attachments": [
    {"category": "charm", "to": "graveyard"},
    {"category": "creature", "keep_identity": true, "effects": "pause", "abilities": "suppressed",
     "stay_in": ["exile"]}
  ],
  "setup": "setup",
  "turn": {"phases": [
    {"name": "checkup", "run": "checkup"},
    {"name": "draw", "run": "draw_step"},
    {"name": "discard", "run": "discard_step"},
    {"name": "interfere_a", "run": "interfere_step"},
    {"name": "main", "run": "main_begins", "actions": "main_actions"},
    {"name": "interfere_b", "run": "interfere_step"},
    {"name": "refill", "run": "refill"},
    {"name": "cleanup", "run": "cleanup"}
  ]},
  "triggers": {"order": "fifo_batches", "player_orders": true,
               "classes": ["other", "destroy", "move", "follow_up"]},
  "checks": [
    {"name": "deck_out", "when": {"any_player": [{"value": "drew_from_empty", "at_least": 1}]},
     "run": "deck_out", "at": "after_each_operation"},
    {"name": "lines", "when": "lines_due", "run": "fix_lines", "at": "after_each_operation"},
    {"name": "forms", "when": "forms_due", "run": "fix_forms", "at": "after_each_operation"},
    {"name": "charms", "when": "charms_due", "run": "fix_charms", "at": "after_each_operation"}
  ],
  "hooks": {"activate": "activate", "validate_deck": "validate_deck", "rule_abilities": "RULES"},
  "deck": {"sections": [
    {"name": "main", "zone": "deck"}, {"name": "charms", "zone": "tome"},
    {"name": "extras", "zone": "reserve"}, {"name": "gallery", "zone": "gallery"}
  ]},
  "scripts": ["duelists.lua"],
  "procedures": [
    {"name": "cast", "steps": [
      {"name": "declare", "run": "cast_declare"},
      {"name": "line", "run": "cast_line"},
      {"name": "interfere", "window": {"players": "interferers", "model": "alternating", "actions": "window_actions", "prompt": "interfere"}},
      {"name": "resolve", "run": "cast_resolve"},
      {"name": "end", "run": "command_end", "always": true}
    ]},
    {"name": "attack", "steps": [
      {"name": "declare", "run": "attack_declare"},
      {"name": "target", "run": "attack_target"},
      {"name": "choose", "run": "attack_choose"},
      {"name": "interfere", "window": {"players": "interferers", "model": "alternating", "actions": "window_actions", "prompt": "interfere"}},
      {"name": "check", "run": "attack_check"},
      {"name": "validate", "run": "attack_validate"},
      {"name": "battle", "run": "attack_battle"},
      {"name": "again", "run": "attack_again"},
      {"name": "end", "run": "command_end", "always": true}
    ]},
    {"name": "line", "steps": [
      {"name": "declare", "run": "line_declare"},
      {"name": "interfere", "window": {"players": "interferers", "model": "alternating", "actions": "window_actions", "prompt": "interfere"}},
      {"name": "resolve", "run": "line_resolve"},
      {"name": "end", "run": "command_end", "always": true}
    ]},
    {"name": "skill", "steps": [
      {"name": "declare", "run": "skill_declare"},
      {"name": "targets", "run": "skill_targets"},
      {"name": "interfere", "window": {"players": "interferers", "model": "alternating", "actions": "window_actions", "prompt": "interfere"}},
      {"name": "bind", "run": "skill_bind"},
      {"name": "work", "run": "skill_work"},
      {"name": "again", "run": "skill_again"},
      {"name": "end", "run": "command_end", "always": true}
    ]},
    {"name": "curse", "steps": [
      {"name": "cursed", "run": "curse_declare"},
      {"name": "interfere", "window": {"players": "interferers", "model": "alternating", "actions": "window_actions", "prompt": "interfere"}},
      {"name": "apply", "run": "curse_apply"}
    ]}
  ]
}"#;

/// The rules of Duelists. Cards' own scripts are short: the rules hold the procedures.
const RULES_LUA: &str = r#"
HAND_MAX = 7
ATTACK_COST = 1
FIELD = { "front", "back", "adrift", "casting" }
LINES = { "front", "back" }
CURSES = { "stone", "freeze", "dimension" }

function other(p) return 3 - p end
function defender(ctx) return other(ctx.turn_player) end

-- The story the tests read: an event `note` with a key (and a player).
function note(ctx, key, p) ctx:emit("note", { key = key, player = p }) end

function member(list, x)
  for _, y in ipairs(list) do if y == x then return true end end
  return false
end

function index_of(list, x)
  for i, y in ipairs(list) do if y == x then return i end end
  return nil
end

-- Player values are plain integers; some are read through a floor of 0, and the raw value
-- is kept for later arithmetic (SM4, Gl: Mp Max).
function mana_max(ctx, p) return math.max(0, ctx:value(p, "mana_max")) end

-- In the field: in a line or adrift, or attached (at any depth) to a card that is (510.2).
function in_field(c)
  if not c.alive then return false end
  local top = c
  while top.host ~= nil do top = top.host end
  return member(FIELD, top.zone)
end

function field_cards(ctx, p)
  local out = {}
  for _, z in ipairs(FIELD) do
    for _, c in ipairs(ctx:cards(z, p)) do out[#out + 1] = c end
  end
  return out
end

function creatures(ctx, p)
  local out = {}
  for _, c in ipairs(field_cards(ctx, p)) do
    if c.category == "creature" then out[#out + 1] = c end
  end
  return out
end

function all_creatures(ctx)
  local out = creatures(ctx, 1)
  for _, c in ipairs(creatures(ctx, 2)) do out[#out + 1] = c end
  return out
end

function cursed(c)
  for _, k in ipairs(CURSES) do if c:flag_on(k) then return true end end
  return c:counter_value("poison") > 0
end

-- Setup (102): shuffle both piles, draw, starting mana (SM35, 102.6).
function setup(ctx)
  for p = 1, 2 do
    ctx:shuffle("deck", p)
    ctx:shuffle("tome", p)
    ctx:set_value(p, "mana_max", 8)
    for i = 1, 3 do draw(ctx, p, "deck") end
    draw(ctx, p, "tome")
  end
  local first = ctx.turn_player
  ctx:set_value(first, "mana", 5)
  ctx:set_value(other(first), "mana", mana_max(ctx, other(first)))
end

function draw(ctx, p, pile)
  local top = ctx:top(pile, p, 1)[1]
  if top == nil then ctx:set_value(p, "drew_from_empty", 1) return nil end
  return ctx:move(top, "hand", { reason = "draw" })[1]
end

function deck_out(ctx)
  local losers = {}
  for p = 1, 2 do
    if ctx:value(p, "drew_from_empty") > 0 then losers[#losers + 1] = p end
  end
  if #losers == 2 then ctx:end_game({}, "both_out") else ctx:end_game({ other(losers[1]) }, "deck_out") end
end

-- The steps of an attack subturn (401) ----------------------------------------------------------

function checkup(ctx)
  local p = ctx.turn_player
  ctx:set_value(p, "had_creature", #creatures(ctx, p) > 0 and 1 or 0)
  -- SM78 (Gl: Charging): charging n gives a charge counter at its owner's checkup, unless
  -- it has n already (other effects may give it more).
  for _, c in ipairs(creatures(ctx, p)) do
    local n = c:keyword("charging")
    if n and c:counter_value("charge") < n then ctx:add_counter(c, "charge", 1, "charging") end
  end
end

-- SM34 (401.3.1, 401.3.2, Gl: Progress): a card from either pile, but no draw in a player's
-- first attack subturn, nor after a progress.
function draw_step(ctx)
  local p = ctx.turn_player
  if ctx:value(p, "subturns") == 0 or ctx:value(p, "progressed") > 0 then return end
  local o = ctx:choose(p, { { label = "draw from deck", pile = "deck" }, { label = "draw from tome", pile = "tome" } },
    { prompt = "draw" })
  draw(ctx, p, o.pile)
end

function discard_step(ctx)
  local p = ctx.turn_player
  local extra = ctx:count("hand", p) - HAND_MAX
  if extra > 0 then
    local cs = ctx:choose_cards(p, ctx:cards("hand", p), { min = extra, max = extra, prompt = "discard" })
    ctx:move(cs, "graveyard", { reason = "discard" })
  end
end

-- The fixed interfere steps (401.5, 401.7, 616.3): the defender first, then in turn until
-- both pass in a row (402.3).
function interfere_step(ctx)
  ctx:window{ players = { defender(ctx), ctx.turn_player }, model = "alternating", prompt = "interfere",
    actions = function(ctx, p) return window_actions(ctx, p, {}) end }
end

-- SM36 (401.8.4, 401.8.6): the attack player's mana is erased, then filled to the maximum.
function refill(ctx)
  local p = ctx.turn_player
  ctx:set_value(p, "mana", 0)
  ctx:set_value(p, "mana", mana_max(ctx, p))
end

-- SM37 (401.9.5-401.9.8), SM76.
function cleanup(ctx)
  local p = ctx.turn_player
  ctx:expire("end_of_subturn")
  ctx:together(function(ctx)
    for q = 1, 2 do
      for _, c in ipairs(creatures(ctx, q)) do
        if c.orientation == "tired" then ctx:set_orientation(c, "ready", "cleanup") end
      end
    end
  end)
  -- Counters that count subturns: poison destroys when it runs out (709.8.1), doom sends a
  -- charm to the graveyard (201.9.2.2).
  local dying = {}
  for q = 1, 2 do
    for _, c in ipairs(all_field_cards(ctx, q)) do
      for _, k in ipairs({ "poison", "doom" }) do
        if c:counter_value(k) > 0 then
          ctx:add_counter(c, k, -1, "cleanup")
          if c:counter_value(k) == 0 then
            if k == "poison" then dying[#dying + 1] = c else ctx:move(c, "graveyard", { reason = "doom", by = false }) end
          end
        end
      end
    end
  end
  if #dying > 0 then destroy(ctx, dying) end
  ctx:add_value(p, "subturns", 1)
  if ctx:value(p, "had_creature") == 0 and #creatures(ctx, p) == 0 then
    ctx:end_game({ other(p) }, "no_creatures")
  end
end

-- Cards in the field and the cards attached to them, at any depth.
function all_field_cards(ctx, p)
  local out = {}
  local function walk(c)
    out[#out + 1] = c
    for _, a in ipairs(c.attachments) do walk(a) end
  end
  for _, c in ipairs(field_cards(ctx, p)) do walk(c) end
  return out
end

-- The main step (401.6): only the attack player acts, and nobody while a card works.
function main_actions(ctx)
  local p = ctx.player
  local out = {}
  local function opt(o) out[#out + 1] = o end
  if ctx:game_value("working") == 0 then
    for _, c in ipairs(ctx:cards("hand", p)) do
      if c.cost <= ctx:value(p, "mana") then
        opt({ label = "cast " .. c.name, procedure = "cast", data = { card = c, kind = "cast" } })
      end
    end
    for _, c in ipairs(ctx:cards("reserve", p)) do
      if may_create(ctx, p, c) then
        opt({ label = "create " .. c.name, card = c, run = function(ctx, o) create(ctx, o.card) end })
      end
    end
    for _, c in ipairs(creatures(ctx, p)) do
      if commandable(c) then
        if c.zone == "front" and (c.orientation == "ready" or extra_attack(ctx, c)) then
          local n = c:printed("attacks") or 1
          opt({ label = "attack with " .. c.name, procedure = "attack",
            data = { attacker = c, kind = "attack", count = n } })
          if #attack_targets(ctx, c) == 0 and c.owner == c.controller then
            opt({ label = "hand attack with " .. c.name, procedure = "attack",
              data = { attacker = c, kind = "attack", mode = "hand", count = 1 } })
          end
        end
        for _, z in ipairs(LINES) do
          if c.zone ~= z and ctx:uses(c, "line") == 0 then
            opt({ label = "move " .. c.name .. " to " .. z, procedure = "line", data = { card = c, line = z, kind = "line" } })
          end
        end
        for _, s in ipairs(creatures(ctx, p)) do
          if s ~= c and may_support(ctx, c, s) then
            opt({ label = "combine " .. c.name .. " with " .. s.name, card = c, target = s,
              run = function(ctx, o) combine(ctx, o.card, o.target) end })
          end
        end
      end
    end
    for _, ab in ipairs(ctx:abilities{ kind = "activated", timing = "main", player = p }) do
      -- 712.1: a card controlled by a player other than its owner uses no skill.
      if in_field(ab.source) and commandable(ab.source) and ab.source.owner == p then
        opt({ label = "use " .. ab.source.name, procedure = "skill",
          data = { card = ab.source, ability = ab.key, kind = "skill", count = ab.def.times or 1 } })
      end
    end
    for _, name in ipairs(hand_skill_names(ctx, p)) do
      opt({ label = "declare " .. name, procedure = "skill", data = { name = name, kind = "hand_skill", count = 1 } })
    end
  end
  opt({ label = "end", ends_phase = true })
  return out
end

-- SM81 (Gl: Wake Up): entering the main step, its player may bring one card with wake up
-- from the hand or the deck into the field for free; not while a card of the same name is
-- in their field.
function main_begins(ctx)
  local p = ctx.turn_player
  local opts = {}
  for _, z in ipairs({ "hand", "deck" }) do
    for _, c in ipairs(ctx:cards(z, p)) do
      if c:has("keywords", "wake_up") and not same_name_in_field(ctx, p, c.name) then
        opts[#opts + 1] = { label = "wake " .. c.name .. " from " .. z, card = c }
      end
    end
  end
  if #opts == 0 then return end
  -- Waking one from the deck, the player searches it: they see what they may take (a
  -- choice among cards they cannot see would be blind).
  local searched = {}
  for _, o in ipairs(opts) do
    if o.card.zone == "deck" then searched[#searched + 1] = o.card end
  end
  if #searched > 0 then ctx:look(searched, p) end
  opts[#opts + 1] = { label = "no wake up" }
  local o = ctx:choose(p, opts, { prompt = "wake_up" })
  if o.card then ctx:move(o.card, "adrift", { reason = "wake_up" }) end
end

function same_name_in_field(ctx, p, name)
  for _, c in ipairs(all_field_cards(ctx, p)) do if c.name == name then return true end end
  return false
end

-- 500.1: in the field, ready or not, no command pending, no curse that forbids commands.
function commandable(c)
  return in_field(c) and c.host == nil and not c:flag_on("pending") and not c:flag_on("being_cast")
    and not c:flag_on("stone") and not c:flag_on("dimension")
end

function extra_attack(ctx, c) return c:has("keywords", "extra_attack") and ctx:uses(c, "extra_attack") == 0 end

-- Interfere windows (615, 616) ------------------------------------------------------------------

-- SM57 (616.4): which commands have an interfere step; an effect that acts like a command
-- has none (710.2); nor has a window in a step where nobody may cast (401.2.2 ...).
HAS_INTERFERE = { cast = true, attack = true, line = true, skill = true, hand_skill = true, curse = true,
                  line_from_adrift = false }
QUIET_STEPS = { checkup = true, draw = true, discard = true, refill = true, cleanup = true }

function interferers(ctx, d)
  if not HAS_INTERFERE[d.kind] or d.as_effect or QUIET_STEPS[ctx.phase] then return {} end
  return { defender(ctx), ctx.turn_player }
end

-- SM42, SM55 (500.10, 609.4): in a window, only cards with interfere may be cast, and only
-- interfere skills of cards with no command pending used.
function window_actions(ctx, p, d)
  local out = {}
  for _, c in ipairs(ctx:cards("hand", p)) do
    if c:has("keywords", "interfere") and c.cost <= ctx:value(p, "mana") then
      out[#out + 1] = { label = "cast " .. c.name, run = function(ctx)
        ctx:procedure("cast", { card = c, kind = "cast" })
      end }
    end
  end
  for _, ab in ipairs(ctx:abilities{ kind = "activated", timing = "interfere", player = p }) do
    if commandable(ab.source) then
      out[#out + 1] = { label = "use " .. ab.source.name, run = function(ctx)
        ctx:procedure("skill", { card = ab.source, ability = ab.key, kind = "skill", count = 1 })
      end }
    end
  end
  if #out > 0 then out[#out + 1] = { label = "pass", pass = true } end
  return out
end

-- Commands --------------------------------------------------------------------------------------

-- SM43 (504.4-504.5, 605.5-605.6, 610.1.2-610.1.3): the cost is checked before anything is
-- paid; a command that cannot pay stops with nothing paid; nothing is ever refunded.
function pay(ctx, p, cost)
  if ctx:value(p, "mana") < cost then return false end
  if cost > 0 then ctx:add_value(p, "mana", -cost) end
  return true
end

-- SM41, SM42 (100.5, 500.1, 401.6.3): the commanded card carries `pending` and the game is
-- `working` until the command ends.
function begin_command(ctx, d, c)
  if c ~= nil then d.set_pending = ctx:set_flag(c, "pending", true) end
  ctx:set_game_value("working", ctx:game_value("working") + 1)
  d.began = true
end

-- The end of every command: its statuses end on the cards as they are now (a card that
-- changed zone is a new object, with no status already), the lock is released, and an
-- attack or a skill leaves its creature tired (504.18, 605.15), unless it was a follow-up
-- command (605.12) or never began.
function command_end(ctx, d)
  local c = d.card or d.attacker
  if d.began and not d.follow_up and (d.kind == "attack" or d.kind == "skill") and c ~= nil
      and in_field(c) and c.category == "creature" then
    ctx:set_orientation(c, "tired", d.kind)
  end
  for _, k in ipairs({ "card", "attacker", "target" }) do
    local x = d[k]
    if x ~= nil and x.alive then
      for _, f in ipairs({ "attacking", "attacked", "being_cast", "loser" }) do
        if x:flag_on(f) then ctx:set_flag(x, f, false) end
      end
    end
  end
  if c ~= nil and c.alive and d.set_pending then ctx:set_flag(c, "pending", false) end
  if d.began then ctx:set_game_value("working", ctx:game_value("working") - 1) end
  ctx:expire("end_of_command")
  note(ctx, d.kind .. "_end")
end

-- Casting (609, 610) ------------------------------------------------------------------------------

function cast_declare(ctx, d)
  local c = d.card
  local p = ctx.player or c.owner
  d.player = p
  if c.zone ~= "hand" then return "stop" end
  if not d.free and not pay(ctx, p, c.cost) then note(ctx, "cannot_pay", p) return "stop" end
  -- 609.5, 610.1.3, 610.2.5: being cast, it is in the field already, in no line yet (a
  -- zone of the field apart from the lines and from the state of being in no line).
  local n = ctx:move(c, "casting", { reason = "cast" })[1]
  d.card = n
  ctx:set_flag(n, "being_cast", true)
  if n.category == "creature" then ctx:set_flag(n, "from_hand", true) end -- SM53 (508.10.7)
  begin_command(ctx, d, d.card)
  ctx:emit("declared", { card = d.card, player = p, key = "cast" })
end

-- 610.1.6 (creatures: the line and the place) or 610.2.8 (charms: what it attaches to).
function cast_line(ctx, d)
  local c = d.card
  if c.category == "creature" then
    d.line = ctx:choose(d.player, { { label = "front", line = "front" }, { label = "back", line = "back" } },
      { prompt = "line" }).line
    d.place = choose_place(ctx, d.player, d.line, d.player)
  elseif c:printed("attach") then
    local hosts = {}
    for q = 1, 2 do for _, x in ipairs(creatures(ctx, q)) do hosts[#hosts + 1] = x end end
    if #hosts == 0 then return "stop" end
    d.host = ctx:choose_cards(d.player, hosts, { prompt = "host" })
  end
end

function cast_resolve(ctx, d)
  local c = d.card
  if not (c.alive and c.zone == "casting") then return "stop" end
  ctx:set_flag(c, "being_cast", false) -- 610.1.12, 610.2.11
  if c.category == "creature" then
    ctx:move(c, d.line, { player = d.player, position = d.place, reason = "cast" })
    ctx:emit("entered", { card = c, player = d.player })
  elseif d.host ~= nil then
    if not in_field(d.host) then -- 610.2.10: no host: to the graveyard
      ctx:move(c, "graveyard", { reason = "fizzle" })
      return
    end
    local n = ctx:attach(c, d.host)[1]
    local turns = n:printed("turns")
    if turns then ctx:add_counter(n, "doom", turns) end
    ctx:emit("entered", { card = n, player = d.player })
  else
    -- A charm that attaches to nothing works, then goes to the graveyard (610.2.13).
    for _, ab in ipairs(ctx:abilities{ card = c, timing = "cast" }) do
      activate(ctx:with{ source = c, player = d.player }, ab, { data = d })
    end
    if c.alive then ctx:move(c, "graveyard", { reason = "cast" }) end
  end
end

-- Lines (303.2, 515-517) ----------------------------------------------------------------------

-- SM11 (515.6, 515.7): a creature may go anywhere in a line: 1 is the leftmost place.
function choose_place(ctx, p, line, owner)
  local n = ctx:count(line, owner)
  if n == 0 then return 1 end
  local opts = {}
  for i = 1, n + 1 do opts[i] = { label = line .. " " .. i, place = i } end
  return ctx:choose(p, opts, { prompt = "place" }).place
end

-- Beside: the places next to it in its line.
function neighbours(ctx, c)
  local out = {}
  for _, x in ipairs(ctx:cards(c.zone, c.zone_owner)) do
    if math.abs(x.position - c.position) == 1 then out[#out + 1] = x end
  end
  return out
end

function lines_due(ctx)
  for p = 1, 2 do
    for _, c in ipairs(ctx:cards("adrift", p)) do
      if c.category == "creature" and not c:flag_on("dimension") and not c:flag_on("being_cast") then return true end
    end
    for _, z in ipairs(LINES) do
      for _, c in ipairs(ctx:cards(z, p)) do
        if c:flag_on("dimension") or (z == "front" and c:flag_on("freeze")) then return true end
      end
    end
  end
  return false
end

function fix_lines(ctx)
  for p = 1, 2 do
    -- SM75: dimension: in no line (709.11.1); freeze: the back line only (709.6.1). Neither
    -- is a line assignment, and the creature stays the same object.
    for _, z in ipairs(LINES) do
      for _, c in ipairs(ctx:cards(z, p)) do
        if c:flag_on("dimension") then
          ctx:move(c, "adrift", { player = p, reason = "dimension", by = false })
        elseif z == "front" and c:flag_on("freeze") then
          ctx:move(c, "back", { player = p, reason = "freeze", by = false })
        end
      end
    end
    -- SM12 (515.3, 709.11.8): a creature in no line is given one at once by its controller.
    for _, c in ipairs(ctx:cards("adrift", p)) do
      if c.category == "creature" and not c:flag_on("dimension") and not c:flag_on("being_cast") then
        ctx:procedure("line", { card = c, kind = "line_from_adrift", player = c.controller })
      end
    end
  end
end

function line_declare(ctx, d)
  local c = d.card
  d.player = d.player or ctx.player
  if d.kind == "line_from_adrift" then
    -- 517.2; 515.3: even if it had its line assignment this subturn.
    d.line = ctx:choose(d.player, { { label = "front", line = "front" }, { label = "back", line = "back" } },
      { prompt = "assign_line" }).line
  else
    ctx:use(c, "line") -- 515.9.1
  end
  begin_command(ctx, d, c)
end

function line_resolve(ctx, d)
  local c = d.card
  if not (c.alive and in_field(c)) then return "stop" end
  local place = choose_place(ctx, d.player, d.line, c.zone_owner)
  ctx:move(c, d.line, { player = c.zone_owner, position = place, reason = d.kind })
end

-- Composites (508-514) ----------------------------------------------------------------------------

-- The form table: by the main's name, each form names the supports it needs (one card per
-- need, 611.6-style) and how specific it is (508.6: a name before an element); the main
-- must have the element. The most specific form that fits is the composite's.
FORMS = {
  drake = {
    { form = "drake+whelp+whelp", element = "fire", needs = { { name = "whelp" }, { name = "whelp" } }, rank = 1, power = 12, guard = 9 },
    { form = "drake+whelp", element = "fire", needs = { { name = "whelp" } }, rank = 1, power = 9, guard = 6 },
    { form = "drake+fire", element = "fire", needs = { { element = "fire" } }, rank = 6, power = 7, guard = 5 },
  },
}

function meets(c, need)
  if need.name then return c.name == need.name end
  if need.element then return c:has("elements", need.element) end
  return false
end

-- Whether each need gets its own card (611.6: one card satisfies one need at most).
function fits(cards, needs)
  if #cards ~= #needs then return false end
  local used = {}
  local function go(i)
    if i > #needs then return true end
    for j, c in ipairs(cards) do
      if not used[j] and meets(c, needs[i]) then
        used[j] = true
        if go(i + 1) then return true end
        used[j] = false
      end
    end
    return false
  end
  return go(1)
end

function supports_of(c)
  local out = {}
  for _, a in ipairs(c.attachments) do if a.category == "creature" then out[#out + 1] = a end end
  return out
end

function best_form(main, supports)
  local best = nil
  for _, f in ipairs(FORMS[main.name] or {}) do
    if main:has("elements", f.element) and fits(supports, f.needs) and (best == nil or f.rank < best.rank) then
      best = f
    end
  end
  return best
end

function form_of(c)
  if FORMS[c.name] == nil then return nil end
  local s = supports_of(c)
  if #s == 0 then return nil end
  return best_form(c, s)
end

-- SM53 (508.10): who may be a support.
function may_support(ctx, main, s)
  local p = ctx.player
  if FORMS[main.name] == nil or main.host ~= nil or s.host ~= nil then return false end
  if main.owner ~= p or main.controller ~= p or s.owner ~= p or s.controller ~= p then return false end -- 508.10.3
  if ctx:uses(main, "combine") > 0 then return false end -- 508.10.1
  if main.orientation ~= "ready" or s.orientation ~= "ready" then return false end -- 508.10.5-6
  if #s.attachments > 0 or cursed(s) or not commandable(s) then return false end -- 508.10.6
  -- 508.10.7: cast from the hand less than a turn (two subturns) ago; 508.10.8: any other
  -- way in does not count.
  if s:flag_on("from_hand") and ctx.turn - s.entered_turn < 2 then return false end
  local supports = supports_of(main)
  supports[#supports + 1] = s
  return best_form(main, supports) ~= nil
end

function combine(ctx, main, s)
  ctx:use(main, "combine")
  ctx:attach(s, main)
  note(ctx, "combined", ctx.player)
end

function forms_due(ctx)
  for p = 1, 2 do
    for _, c in ipairs(field_cards(ctx, p)) do
      if #supports_of(c) > 0 and form_of(c) == nil then return true end
    end
  end
  return false
end

-- SM71 (513.3): a composite that fits no form splits at once; the supports go beside the
-- main in its line, on the side its controller chooses (513.2).
function fix_forms(ctx)
  for p = 1, 2 do
    for _, c in ipairs(field_cards(ctx, p)) do
      if #supports_of(c) > 0 and form_of(c) == nil then split(ctx, c, "split") end
    end
  end
end

function split(ctx, c, reason)
  local side = 0
  if member(LINES, c.zone) then
    side = ctx:choose(c.controller, { { label = "left", at = 0 }, { label = "right", at = 1 } }, { prompt = "side" }).at
  end
  for _, s in ipairs(supports_of(c)) do
    if not member(LINES, c.zone) then
      ctx:move(s, c.zone, { player = c.zone_owner, reason = reason, by = false })
    else
      ctx:move(s, c.zone, { player = c.zone_owner, position = c.position + side, reason = reason, by = false })
    end
  end
  note(ctx, reason)
end

-- Charms attached to creatures --------------------------------------------------------------------

-- SM72 (201.11.3): a charm whose host breaks its exception falls to the graveyard.
function charms_due(ctx)
  for p = 1, 2 do
    for _, c in ipairs(all_field_cards(ctx, p)) do
      local e = c.category == "charm" and c.host ~= nil and c:printed("exception")
      if e and not c.host:has("elements", e) then return true end
    end
  end
  return false
end

function fix_charms(ctx)
  for p = 1, 2 do
    for _, c in ipairs(all_field_cards(ctx, p)) do
      local e = c.category == "charm" and c.host ~= nil and c:printed("exception")
      if e and not c.host:has("elements", e) then ctx:move(c, "graveyard", { reason = "exception", by = false }) end
    end
  end
end

-- Destruction (701, 504.20) -----------------------------------------------------------------------

-- Cards destroyed together go together, in one operation; each owner orders their own
-- cards arriving on top of their graveyard (SM20: 301.4, 703.2), choosing the lowest first.
function destroy(ctx, cards)
  local ordered = {}
  for p = 1, 2 do
    local left = {}
    for _, c in ipairs(cards) do if c.alive and c.owner == p then left[#left + 1] = c end end
    while #left > 1 do
      local c = ctx:choose_cards(p, left, { prompt = "graveyard_order" })
      ordered[#ordered + 1] = c
      table.remove(left, index_of(left, c))
    end
    if #left == 1 then ordered[#ordered + 1] = left[1] end
  end
  for _, c in ipairs(ordered) do ctx:set_flag(c, "destroyed", true) end
  ctx:move(ordered, "graveyard", { reason = "destroy" })
end

-- Attacks (501-507) ------------------------------------------------------------------------------

-- 501.2.1, 501.2.2, 503.2, 709.11.5: the front line if it has anyone, else the back line.
function attack_targets(ctx, a)
  local q = other(a.controller)
  local list = ctx:cards("front", q)
  if #list == 0 then list = ctx:cards("back", q) end
  local out = {}
  for _, t in ipairs(list) do
    if t.owner ~= a.controller and not t:flag_on("dimension") then out[#out + 1] = t end
  end
  return out
end

function attack_declare(ctx, d)
  local a = d.attacker
  local p = a.controller
  d.player = p
  if d.mode ~= "hand" and #attack_targets(ctx, a) == 0 then return "stop" end -- 504.3
  -- 504.4, 504.5; 507.5: a multiple attack pays once for all.
  if not d.free and not pay(ctx, p, ATTACK_COST) then note(ctx, "cannot_pay", p) return "stop" end
  begin_command(ctx, d, a)
  ctx:set_flag(a, "attacking", true)
  if a.orientation == "tired" then ctx:use(a, "extra_attack") end
  d.done = 0
  -- FIRE-NOW (504.5): ordinary triggered abilities of the declaration.
  ctx:emit("attack_declared", { card = a, player = p, key = d.mode or "normal" })
end

function attack_target(ctx, d)
  if d.mode == "hand" then return "choose" end -- 505.7: the opponent is the target
  local ts = attack_targets(ctx, d.attacker)
  if #ts == 0 then note(ctx, "no_target") return "stop" end
  d.target = ctx:choose_cards(d.player, ts, { prompt = "attack_target" })
  ctx:set_flag(d.target, "attacked", true)
end

function valid_aim(t) return t ~= nil and t.alive and in_field(t) end

function aims_for(ctx, p)
  local out = {}
  for _, c in ipairs(creatures(ctx, other(p))) do out[#out + 1] = c end
  return out
end

function on_attack(ctx)
  return ctx:abilities{ kind = "activated", timing = "on_attack" }
end

function ability_key(ab) return ab.key .. "@" .. ab.source.id end

-- SM59 CHOOSE (504.7): the on-attack abilities in play choose their targets now. After a
-- loop back (504.11), an ability chosen before is not chosen again; only one whose target
-- failed aims again, and one that worked is left alone (SM44, 504.12).
function attack_choose(ctx, d)
  d.chosen = d.chosen or {}
  d.aims = d.aims or {}
  d.worked = d.worked or {}
  for _, ab in ipairs(on_attack(ctx)) do
    local key = ability_key(ab)
    local i = index_of(d.chosen, key)
    if i == nil or (not member(d.worked, key) and not valid_aim(d.aims[i])) then
      local aims = aims_for(ctx, ab.source.controller)
      if #aims > 0 then
        local t = ctx:choose_cards(ab.source.controller, aims, { prompt = "aim " .. ab.source.name })
        if i == nil then
          d.chosen[#d.chosen + 1] = key
          d.aims[#d.aims + 1] = t
        else
          d.aims[i] = t
        end
      end
    end
  end
end

-- SM59 CHECK (504.11): each chosen ability that has not worked works now if its target is
-- still there; one whose target is gone sends the attack back to CHOOSE (and so through
-- another interfere step).
function attack_check(ctx, d)
  local again = false
  for i, key in ipairs(d.chosen) do
    if not member(d.worked, key) then
      local ab = nil
      for _, x in ipairs(on_attack(ctx)) do if ability_key(x) == key then ab = x end end
      if ab == nil then
        d.worked[#d.worked + 1] = key -- its card left: it does not work
      elseif valid_aim(d.aims[i]) then
        d.worked[#d.worked + 1] = key
        activate(ctx:with{ source = ab.source, player = ab.source.controller }, ab, { target = d.aims[i], data = d })
      elseif #aims_for(ctx, ab.source.controller) > 0 then
        again = true
      else
        d.worked[#d.worked + 1] = key
      end
    end
  end
  if again then note(ctx, "aim_again") return "choose" end
end

-- 504.12, 504.13; 505.11.
function attack_validate(ctx, d)
  local a = d.attacker
  if not (a.alive and a.zone == "front" and a:flag_on("attacking")) then note(ctx, "attack_fails") return "stop" end
  if d.mode == "hand" then
    -- SM45 (505.11): a hand attack that can no longer be one becomes a normal attack,
    -- declared anew, not paid again.
    if #attack_targets(ctx, a) > 0 then
      d.mode = "normal"
      note(ctx, "now_normal")
      return "target"
    end
    return
  end
  if not (valid_aim(d.target) and d.target:flag_on("attacked")) then
    if #attack_targets(ctx, a) > 0 then note(ctx, "new_target") return "target" end -- 504.13
    note(ctx, "no_target")
    return "stop"
  end
end

-- 504.15, 504.20: in the front line the weaker loses (both on a tie); in the back line the
-- attacker must beat the guard, and an attacker that loses there is not destroyed
-- (504.20.1); every loser is destroyed at once.
function attack_battle(ctx, d)
  local a, t = d.attacker, d.target
  if d.mode == "hand" then hand_attack(ctx, d) else
    local losers = {}
    if t.zone == "front" then
      if a.power <= t.power then losers[#losers + 1] = a end
      if t.power <= a.power then losers[#losers + 1] = t end
    elseif a.power > t.guard then
      losers[#losers + 1] = t
    elseif a.power < t.guard then
      ctx:set_flag(a, "loser", true)
    end
    for _, c in ipairs(losers) do ctx:set_flag(c, "loser", true) end
    note(ctx, "battle")
    destroy(ctx, losers)
  end
  d.done = d.done + 1
end

-- SM66 (505.12, Gl: Random): the attacker, the opponent of the hand's owner, picks at random:
-- first the kind, then a card of that kind face down (the hand is shuffled and the options
-- name no card).
function hand_attack(ctx, d)
  local p, q = d.player, other(d.player)
  local kind = ctx:choose(p, { { label = "creature", kind = "creature" }, { label = "charm", kind = "charm" } },
    { prompt = "kind" }).kind
  ctx:shuffle("hand", q)
  local pool = {}
  for _, c in ipairs(ctx:cards("hand", q)) do if c.category == kind then pool[#pool + 1] = c end end
  if #pool == 0 then note(ctx, "missed") return end
  local opts = {}
  for i = 1, #pool do opts[i] = { label = "card " .. i, slot = i } end
  local slot = ctx:choose(p, opts, { prompt = "random_pick" }).slot
  ctx:move(pool[slot], "graveyard", { reason = "hand_attack" })
end

-- SM47 (507.12): a multiple attack counts its successful attacks, and goes round again
-- (each time with its own interfere step) until the count is reached.
function attack_again(ctx, d)
  local a = d.attacker
  if d.done < (d.count or 1) and a.alive and a.zone == "front" and #attack_targets(ctx, a) > 0 then
    d.target = nil
    d.chosen, d.aims, d.worked = {}, {}, {}
    note(ctx, "again")
    return "target"
  end
end

-- Skills (604-608, 619) ------------------------------------------------------------------------

function skill_def(ctx, d)
  if d.kind == "hand_skill" then
    for _, ab in ipairs(ctx:abilities{ kind = "activated", timing = "main", player = d.player }) do
      if ab.source.zone == "hand" and ab.source.name == d.name and ab.def.hand then return ab.def end
    end
    return nil
  end
  for _, ab in ipairs(ctx:abilities{ card = d.card }) do
    if ab.key == d.ability then return ab.def end
  end
  return nil
end

function hand_skill_names(ctx, p)
  local out = {}
  for _, ab in ipairs(ctx:abilities{ kind = "activated", timing = "main", player = p }) do
    if ab.source.zone == "hand" and ab.def.hand and not member(out, ab.source.name) then
      out[#out + 1] = ab.source.name
    end
  end
  return out
end

function skill_declare(ctx, d)
  local p = ctx.player or (d.card and d.card.controller)
  d.player = p
  if d.kind == "hand_skill" then
    -- SM48 (619.2): only the name is announced; the card is bound later.
    ctx:emit("declared", { player = p, key = "hand_skill", name = d.name })
  end
  local def = skill_def(ctx, d)
  if def == nil then return "stop" end
  if def.target and #def.target(ctx, p) == 0 then return "stop" end -- 605.4
  if not pay(ctx, p, def.cost or 0) then note(ctx, "cannot_pay", p) return "stop" end -- 605.5-605.6
  begin_command(ctx, d, d.card)
  d.done = 0
end

function skill_targets(ctx, d) -- 605.7, 607.7
  local def = skill_def(ctx, d)
  if def and def.target then
    local ts = def.target(ctx, d.player)
    if #ts == 0 then return "stop" end
    d.target = ctx:choose_cards(d.player, ts, { prompt = "skill_target" })
  end
end

-- SM48 (619.13): a hand skill binds its card now: a card of the announced name still in the
-- hand (the player picks which, privately), or the skill ends, its cost spent.
function skill_bind(ctx, d)
  if d.kind ~= "hand_skill" then return end
  local found = {}
  for _, c in ipairs(ctx:cards("hand", d.player)) do if c.name == d.name then found[#found + 1] = c end end
  if #found == 0 then note(ctx, "no_card", d.player) return "stop" end
  d.card = #found == 1 and found[1] or ctx:choose_cards(d.player, found, { prompt = "which" })
  ctx:reveal(d.card)
end

function skill_work(ctx, d) -- 605.11, 605.12
  local def = skill_def(ctx, d)
  if def == nil then return "stop" end
  -- 605.11: the target must still be a legal one; else choose again, if any is left.
  if def.target and not (d.target.alive and member(def.target(ctx, d.player), d.target)) then
    if #def.target(ctx, d.player) > 0 then return "targets" end
    return "stop"
  end
  def.operate(ctx:with{ source = d.card, player = d.player }, { target = d.target, data = d })
  d.done = d.done + 1
end

function skill_again(ctx, d) -- 607.15
  if d.done < (d.count or 1) then return "targets" end
end

-- Curses (709) -------------------------------------------------------------------------------

-- SM79 (709.12): a creature that has a curse of a kind cannot be the target of another.
function curse_targets(ctx, p, kind)
  local out = {}
  for _, c in ipairs(creatures(ctx, other(p))) do
    local has = (member(CURSES, kind) and c:flag_on(kind)) or (kind == "poison" and c:counter_value("poison") > 0)
    if not has then out[#out + 1] = c end
  end
  return out
end

function curse_declare(ctx, d) -- 709.14.1
  d.player = d.player or ctx.player
  ctx:emit("cursed", { card = d.target, player = d.player, key = d.curse })
end

-- 709.14.3, 709.14.4: after the window, the curse applies, unless its creature is gone;
-- death destroys at once (709.9.1).
function curse_apply(ctx, d)
  local t = d.target
  if not (t.alive and in_field(t)) then note(ctx, "curse_gone") return end
  if d.curse == "death" then destroy(ctx, { t }) return end
  if d.curse == "poison" then ctx:add_counter(t, "poison", d.turns or 2, "curse")
  else ctx:set_flag(t, d.curse, true) end
  note(ctx, "cursed " .. d.curse)
end

-- 709.13: curing several curses at once ends them together.
function cure(ctx, c)
  ctx:together(function(ctx)
    for _, k in ipairs(CURSES) do if c:flag_on(k) then ctx:set_flag(c, k, false) end end
    if c:counter_value("poison") > 0 then ctx:add_counter(c, "poison", -c:counter_value("poison")) end
  end)
end

-- Extras: off-game pools (621) --------------------------------------------------------------

function is_extra(c) return c:printed("extra") == true end

-- 621.4: at most `capacity` of a name come into the game per player, counted as they leave
-- the reserve (they never go back).
function may_create(ctx, p, c)
  local n = 0
  for _, z in ipairs({ "hand", "front", "back", "adrift", "casting", "graveyard", "exile" }) do
    for _, x in ipairs(ctx:cards(z, p)) do if x.name == c.name then n = n + 1 end end
  end
  return n < (c:printed("capacity") or 1)
end

function create(ctx, c)
  ctx:move(c, "adrift", { reason = "create" }) -- 621.2: into the field; its line comes next
end

-- Abilities --------------------------------------------------------------------------------------

-- SM60: abilities work in the field and not while their card is being cast unless they say
-- so (601.1.3); optional ones ask (601.2.2).
function activate(ctx, ab, args)
  local def, src = ab.def, ctx.source
  if src ~= nil and src.alive and src:flag_on("being_cast") and not def.while_cast then return false end
  if def.optional and not ctx:yes_no(ctx.player, "optional") then return false end
  def.operate(ctx, args or {})
  return true
end

function validate_deck(deck) return {} end

RULES = {
  -- SM16 (508.5, 200.12.3): a composite's values are its form's.
  { kind = "static",
    affects = function(ctx, c) return c.category == "creature" and form_of(c) ~= nil end,
    modify = { { char = "power", op = "set_base", value = function(ctx, c) return form_of(c).power end },
               { char = "guard", op = "set_base", value = function(ctx, c) return form_of(c).guard end } } },
  -- SM22 (621.6.3, 621.6.4): an extra that would go to a hand, a pile or the reserve goes
  -- to the exile instead.
  { kind = "replacement", replaces = "move",
    applies = function(ctx, op)
      return op.zone ~= nil and is_extra(op.card) and member({ "hand", "deck", "tome", "reserve" }, op.zone)
        and op.from ~= "reserve"
    end,
    replace = function(ctx, op) op.zone = "exile"; op.position = nil; return op end },
  -- SM22 (701.1, 713.2): a destroyed card, or a battle's loser, goes nowhere but to the
  -- graveyard.
  { kind = "replacement", replaces = "move",
    applies = function(ctx, op)
      return op.zone ~= nil and op.zone ~= "graveyard" and (op.card:flag_on("destroyed") or op.card:flag_on("loser"))
    end,
    replace = function(ctx, op) op.zone = "graveyard"; op.position = nil; op.player = nil; return op end },
  -- SM22 (Gl: Twinkling): a twinkled card leaves its graveyard by no opponent's doing.
  { kind = "replacement", replaces = "move",
    applies = function(ctx, op)
      return op.card:flag_on("twinkled") and op.from == "graveyard" and op.by ~= nil and op.by ~= op.card.owner
    end,
    replace = function(ctx, op) return nil end },
}
"#;

const P1: PlayerId = 0;
const P2: PlayerId = 1;

fn card(id: &str, category: &str, fields: serde_json::Value, script: Option<&str>) -> CardDef {
    let serde_json::Value::Object(mut map) = fields else {
        panic!("fields of {id}")
    };
    let keywords = match map.remove("keywords") {
        Some(serde_json::Value::Array(ks)) => ks
            .into_iter()
            .map(|k| match k {
                serde_json::Value::String(s) => KeywordUse::Plain(s),
                serde_json::Value::Object(o) => KeywordUse::Valued(
                    o.into_iter()
                        .map(|(k, v)| (k, v.as_i64().expect("a number")))
                        .collect(),
                ),
                other => panic!("keyword {other}"),
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut c = common::card(id, category, serde_json::Value::Object(map), script);
    c.keywords = keywords;
    c
}

/// A creature with power, guard and cost, of an element, with a script.
fn creature(id: &str, pgc: (i64, i64, i64), element: &str, script: Option<&str>) -> CardDef {
    let (power, guard, cost) = pgc;
    card(
        id,
        "creature",
        serde_json::json!({"power": power, "guard": guard, "cost": cost, "level": 1, "elements": [element]}),
        script,
    )
}

/// A creature with a main-step skill: `{cost, target, operate}` Lua fields.
fn skilled(id: &str, skill: &str) -> CardDef {
    creature(
        id,
        (2, 2, 2),
        "earth",
        Some(&format!(
            r#"return {{ {{ kind = "activated", timing = "main", {skill} }} }}"#
        )),
    )
}

/// A charm that attaches to nothing: cast, it works, then goes to the graveyard.
fn spell(id: &str, interfere: bool, operate: &str) -> CardDef {
    let keywords: Vec<&str> = if interfere { vec!["interfere"] } else { vec![] };
    card(
        id,
        "charm",
        serde_json::json!({"cost": 1, "keywords": keywords}),
        Some(&format!(
            r#"return {{ {{ kind = "activated", timing = "cast", zones = {{"casting"}},
                 operate = function(ctx, args) {operate} end }} }}"#
        )),
    )
}

const OWN: &str = "target = function(ctx, p) return creatures(ctx, p) end";
const THEIRS: &str = "target = function(ctx, p) return creatures(ctx, other(p)) end";

fn cards() -> Vec<CardDef> {
    use serde_json::json;
    let noter = |id: &str, key: &str, on: &str, extra: &str| {
        creature(
            id,
            (2, 2, 2),
            "earth",
            Some(&format!(
                r#"return {{ {{ kind = "triggered", on = "{on}", {extra},
                     operate = function(ctx) note(ctx, "{key}", ctx.player) end }} }}"#
            )),
        )
    };
    vec![
        creature("dummy", (1, 1, 1), "earth", None),
        creature("grunt", (3, 2, 2), "earth", None),
        creature("ace", (5, 3, 4), "fire", None),
        creature("drake", (4, 4, 4), "fire", None),
        creature("whelp", (2, 1, 1), "fire", None),
        // No guard at all (a dash): not 0, no value.
        card(
            "wisp",
            "creature",
            json!({"power": 1, "cost": 1, "level": 1, "elements": ["wind"]}),
            None,
        ),
        // Printed element symbols: fire twice, wind, and the all-elements symbol.
        card(
            "prism",
            "creature",
            json!({"power": 2, "guard": 2, "cost": 3, "level": 1, "elements": ["fire", "fire", "wind", "multi"]}),
            None,
        ),
        card(
            "twinblade",
            "creature",
            json!({"power": 6, "guard": 2, "cost": 4, "level": 1, "elements": ["earth"], "attacks": 2}),
            None,
        ),
        card(
            "golem",
            "creature",
            json!({"power": 4, "guard": 4, "cost": 0, "level": 1, "elements": ["earth"], "extra": true, "capacity": 1}),
            None,
        ),
        card(
            "battery",
            "creature",
            json!({"power": 1, "guard": 1, "cost": 1, "level": 1, "elements": ["earth"], "keywords": [{"charging": 2}]}),
            None,
        ),
        card(
            "sleeper",
            "creature",
            json!({"power": 2, "guard": 2, "cost": 3, "level": 1, "elements": ["earth"], "keywords": ["wake_up"]}),
            None,
        ),
        // Entering each checkup of its side: the attack player's, or the defender's.
        noter(
            "herald",
            "attack",
            "phase_began",
            r#"match = { turn = "self" }, when = function(ctx, ev) return ev.key == "checkup" end"#,
        ),
        noter(
            "sentinel",
            "defense",
            "phase_began",
            r#"match = { turn = "other" }, when = function(ctx, ev) return ev.key == "checkup" end"#,
        ),
        spell("zap", true, r#"note(ctx, "zap", ctx.player)"#),
        spell(
            "recall",
            true,
            r#"local all = {}
               for q = 1, 2 do for _, c in ipairs(creatures(ctx, q)) do all[#all + 1] = c end end
               local c = ctx:choose_cards(ctx.player, all, { prompt = "recall" })
               if c then ctx:move(c, "hand", { reason = "recall" }) end"#,
        ),
        skilled(
            "rally",
            &format!(
                r#"cost = 1, {OWN}, operate = function(ctx, a)
                 ctx:modify(a.target, {{ char = "power", op = "add", value = 2 }}, {{ ["until"] = "end_of_subturn" }}) end"#
            ),
        ),
        skilled(
            "blessing",
            &format!(
                r#"cost = 1, {OWN}, operate = function(ctx, a)
                 ctx:modify(a.target, {{ char = "power", op = "add", value = 2 }}, {{ ["until"] = "end_of_subturn", times = 2 }}) end"#
            ),
        ),
        // Notes a creature's printed and current power, its kinds of printed element
        // symbols, its current elements and its printed guard.
        skilled(
            "appraiser",
            r#"cost = 0, target = function(ctx, p) return all_creatures(ctx) end, operate = function(ctx, a)
                 local t = a.target
                 local kinds = {}
                 for _, e in ipairs(t:printed("elements")) do if not member(kinds, e) then kinds[#kinds + 1] = e end end
                 note(ctx, t.name .. ": printed " .. t:printed("power") .. ", now " .. t.power .. "; symbols "
                   .. #kinds .. ", earth " .. tostring(t:has("elements", "earth")) .. "; guard " .. tostring(t:printed("guard")))
               end"#,
        ),
        // A guard-dependent skill: only a creature with a guard value is a legal target.
        skilled(
            "gauger",
            r#"cost = 0, target = function(ctx, p)
                 local out = {}
                 for _, c in ipairs(all_creatures(ctx)) do if c:printed("guard") ~= nil then out[#out + 1] = c end end
                 return out
               end,
               operate = function(ctx, a) ctx:modify(a.target, { char = "guard", op = "set", value = 0 }, { ["until"] = "end_of_subturn" }) end"#,
        ),
        skilled(
            "soaker",
            r#"cost = 0, target = function(ctx, p) return all_creatures(ctx) end, operate = function(ctx, a)
                 ctx:modify(a.target, { char = "elements", op = "grant", value = "earth" }, { ["until"] = "end_of_subturn" }) end"#,
        ),
        // Takes control of an opposing creature: it moves to the same line on its new
        // controller's side, the same object (not a line assignment).
        skilled(
            "charmer",
            &format!(
                r#"cost = 2, {THEIRS}, operate = function(ctx, a)
                 ctx:set_controller(a.target, ctx.player)
                 ctx:move(a.target, a.target.zone, {{ player = ctx.player, reason = "control" }}) end"#
            ),
        ),
        // At its controller's checkup, a creature of theirs gets +1 power this subturn; its
        // controller chooses which.
        creature(
            "oracle",
            (2, 2, 2),
            "earth",
            Some(
                r#"return {
                 { kind = "triggered", on = "phase_began", match = { turn = "self" },
                   when = function(ctx, ev) return ev.key == "checkup" end,
                   operate = function(ctx)
                     local c = ctx:choose_cards(ctx.player, creatures(ctx, ctx.player), { prompt = "bless" })
                     ctx:modify(c, { char = "power", op = "add", value = 1 }, { ["until"] = "end_of_subturn" })
                   end },
                 { kind = "activated", timing = "main", cost = 0, operate = function(ctx) note(ctx, "oracle", ctx.player) end } }"#,
            ),
        ),
        skilled(
            "smite",
            &format!(
                r#"cost = 1, {THEIRS}, operate = function(ctx, a) destroy(ctx, {{ a.target }}) end"#
            ),
        ),
        skilled(
            "burier",
            &format!(
                r#"cost = 1, {THEIRS}, operate = function(ctx, a) ctx:move(a.target, "graveyard", {{ reason = "bury" }}) end"#
            ),
        ),
        skilled(
            "recaller",
            r#"cost = 0, target = function(ctx, p) return all_creatures(ctx) end,
               operate = function(ctx, a) ctx:move(a.target, "hand", { reason = "recall" }) end"#,
        ),
        skilled(
            "exhumer",
            r#"cost = 0, target = function(ctx, p)
                 local out = ctx:cards("graveyard", 1)
                 for _, c in ipairs(ctx:cards("graveyard", 2)) do out[#out + 1] = c end
                 return out
               end,
               operate = function(ctx, a) ctx:move(a.target, "hand", { reason = "exhume" }) end"#,
        ),
        // A creature of yours that would go to your graveyard goes to your hand instead.
        creature(
            "shelter",
            (1, 1, 1),
            "earth",
            Some(
                r#"return { { kind = "replacement", replaces = "move",
                   applies = function(ctx, op) return op.zone == "graveyard" and op.card.owner == ctx.player
                     and op.card.category == "creature" end,
                   replace = function(ctx, op) op.zone = "hand"; return op end } }"#,
            ),
        ),
        // Entering a line, it gives the creatures beside it +1 power this subturn.
        creature(
            "scout",
            (1, 1, 1),
            "earth",
            Some(
                r#"return { { kind = "triggered", on = "entered", match = { card = "self" },
                   operate = function(ctx)
                     local names = {}
                     for _, c in ipairs(neighbours(ctx, ctx.source)) do
                       names[#names + 1] = c.name
                       ctx:modify(c, { char = "power", op = "add", value = 1 }, { ["until"] = "end_of_subturn" })
                     end
                     note(ctx, "beside " .. table.concat(names, "+"), ctx.player)
                   end } }"#,
            ),
        ),
        // Curses an opposing creature: the kind first, then the target, then the curse's
        // own procedure.
        skilled(
            "warlock",
            r#"cost = 0, operate = function(ctx)
                 local kinds = {}
                 for _, k in ipairs({ "stone", "freeze", "dimension", "poison", "death" }) do kinds[#kinds + 1] = { label = k, k = k } end
                 local kind = ctx:choose(ctx.player, kinds, { prompt = "curse" }).k
                 local t = ctx:choose_cards(ctx.player, curse_targets(ctx, ctx.player, kind), { prompt = "curse_target" })
                 if t then ctx:procedure("curse", { target = t, curse = kind, kind = "curse" }) end
               end"#,
        ),
        skilled(
            "lifter",
            r#"cost = 0, target = function(ctx, p)
                 local out = {}
                 for _, c in ipairs(all_creatures(ctx)) do if cursed(c) then out[#out + 1] = c end end
                 return out
               end,
               operate = function(ctx, a) cure(ctx, a.target) end"#,
        ),
        skilled(
            "plucker",
            r#"cost = 0, target = function(ctx, p)
                 local out = {}
                 for _, c in ipairs(all_creatures(ctx)) do
                   for _, s in ipairs(supports_of(c)) do if in_field(s) then out[#out + 1] = s end end
                 end
                 return out
               end,
               operate = function(ctx, a) destroy(ctx, { a.target }) end"#,
        ),
        skilled(
            "douser",
            r#"cost = 0, target = function(ctx, p) return all_creatures(ctx) end, operate = function(ctx, a)
                 ctx:modify(a.target, { char = "elements", op = "revoke", value = "fire" }, { ["until"] = "end_of_subturn" }) end"#,
        ),
        // 300.5: its owner puts up to two cards from the hand on top of the deck, in the order
        // they choose (the one chosen last is the top).
        skilled(
            "ponderer",
            r#"cost = 0, operate = function(ctx)
                 local p = ctx.player
                 local left = ctx:choose_cards(p, ctx:cards("hand", p), { min = 0, max = 2, prompt = "to_deck" })
                 while #left > 0 do
                   local c = left[1]
                   if #left > 1 then c = ctx:choose_cards(p, left, { prompt = "next_on_top" }) end
                   ctx:move(c, "deck", { position = "top", reason = "ponder" })
                   table.remove(left, index_of(left, c))
                 end
               end"#,
        ),
        // 704.2: a card returned to the deck: the deck is shuffled.
        skilled(
            "recycler",
            r#"cost = 0, target = function(ctx, p) return ctx:cards("graveyard", p) end, operate = function(ctx, a)
                 ctx:move(a.target, "deck", { reason = "recycle" })
                 ctx:shuffle("deck", ctx.player) end"#,
        ),
        // 300.8: the top card is shown to both, and stays where it was: no shuffle.
        skilled(
            "peeker",
            r#"cost = 0, operate = function(ctx)
                 local top = ctx:top("deck", ctx.player, 1)[1]
                 ctx:reveal(top)
                 note(ctx, "peeked " .. top.name, ctx.player)
                 ctx:conceal(top)
               end"#,
        ),
        // Whenever a creature goes to a graveyard.
        creature(
            "mourner",
            (1, 1, 1),
            "earth",
            Some(
                r#"return { { kind = "triggered", on = "moved", match = { to = "graveyard" },
                   when = function(ctx, ev) return ev.card.category == "creature" end,
                   operate = function(ctx, a) note(ctx, "mourn " .. a.event.card.name, ctx.player) end } }"#,
            ),
        ),
        skilled(
            "quaker",
            r#"cost = 0, operate = function(ctx)
                 local weak = {}
                 for _, c in ipairs(creatures(ctx, other(ctx.player))) do if c.power <= 3 then weak[#weak + 1] = c end end
                 destroy(ctx, weak)
               end"#,
        ),
        // Interfere skills.
        creature(
            "hawk",
            (2, 1, 2),
            "wind",
            Some(
                r#"return { { kind = "activated", timing = "interfere", cost = 0, operate = function(ctx) note(ctx, "hawk", ctx.player) end } }"#,
            ),
        ),
        creature(
            "owl",
            (2, 1, 2),
            "wind",
            Some(
                r#"return { { kind = "activated", timing = "interfere", cost = 0, operate = function(ctx) note(ctx, "owl", ctx.player) end } }"#,
            ),
        ),
        card(
            "pixie",
            "creature",
            json!({"power": 1, "guard": 1, "cost": 1, "level": 1, "elements": ["wind"], "keywords": ["interfere"]}),
            None,
        ),
        // Then this creature is commanded to attack: a follow-up command, free (605.12).
        skilled(
            "lancer",
            r#"cost = 2, operate = function(ctx)
                 ctx:procedure("attack", { attacker = ctx.source, kind = "attack", free = true, follow_up = true, count = 1 })
                 note(ctx, "after the follow-up: " .. ctx.source.orientation, ctx.player)
               end"#,
        ),
        // This creature attacks: an effect acting like a command (710).
        skilled(
            "goad",
            r#"cost = 0, operate = function(ctx)
                 ctx:procedure("attack", { attacker = ctx.source, kind = "attack", free = true, as_effect = true, count = 1 })
               end"#,
        ),
        skilled(
            "frenzy",
            r#"cost = 0, operate = function(ctx)
                 ctx:modify(ctx.source, { char = "keywords", op = "grant", value = "extra_attack" }, { ["until"] = "end_of_subturn" })
               end"#,
        ),
        // A skill used from the hand: declared by name (619).
        creature(
            "trick",
            (1, 1, 3),
            "wind",
            Some(
                r#"return { { kind = "activated", timing = "main", zones = { "hand" }, hand = true, cost = 1,
                   operate = function(ctx) note(ctx, "trick", ctx.player); ctx:move(ctx.source, "graveyard", { reason = "trick" }) end } }"#,
            ),
        ),
        spell(
            "scatter",
            true,
            r#"for _, c in ipairs(ctx:cards("hand", ctx.turn_player)) do ctx:move(c, "deck", { position = "bottom", reason = "scatter" }) end"#,
        ),
        // On-attack abilities: chosen, then checked after the window (504.7, 504.11).
        creature(
            "hexer",
            (1, 1, 1),
            "earth",
            Some(
                r#"return { { kind = "activated", timing = "on_attack", operate = function(ctx, a)
                   note(ctx, "hex " .. a.target.name, ctx.player)
                   ctx:modify(a.target, { char = "power", op = "add", value = -2 }, { ["until"] = "end_of_command" }) end } }"#,
            ),
        ),
        creature(
            "drummer",
            (1, 1, 1),
            "earth",
            Some(
                r#"return { { kind = "activated", timing = "on_attack", operate = function(ctx, a)
                   note(ctx, "drum " .. a.target.name, ctx.player) end } }"#,
            ),
        ),
        noter(
            "bugle",
            "bugle",
            "attack_declared",
            r#"match = { player = "self" }"#,
        ),
        // Abilities and the state of being cast (601.1.3), optional ones (601.2.2), one that
        // works from the graveyard (301.5).
        creature(
            "seer",
            (1, 1, 1),
            "earth",
            Some(
                r#"return {
                 { kind = "triggered", on = "declared", match = { card = "self" }, operate = function(ctx) note(ctx, "seer cast", ctx.player) end },
                 { kind = "triggered", on = "entered", match = { card = "self" }, operate = function(ctx) note(ctx, "seer entered", ctx.player) end } }"#,
            ),
        ),
        creature(
            "lark",
            (1, 1, 1),
            "earth",
            Some(
                r#"return { { kind = "triggered", on = "declared", match = { card = "self" }, while_cast = true,
                   operate = function(ctx) note(ctx, "lark cast", ctx.player) end } }"#,
            ),
        ),
        creature(
            "hopeful",
            (1, 1, 1),
            "earth",
            Some(
                r#"return { { kind = "triggered", on = "entered", match = { card = "self" }, optional = true,
                   operate = function(ctx) note(ctx, "hopeful entered", ctx.player) end } }"#,
            ),
        ),
        noter(
            "ghost",
            "ghost",
            "phase_began",
            r#"zones = { "graveyard" }, match = { turn = "self" }, when = function(ctx, ev) return ev.key == "main" end"#,
        ),
        // Effects at the same moment, by class (603.6.1).
        noter(
            "chant",
            "other",
            "phase_began",
            r#"priority = "other", when = function(ctx, ev) return ev.key == "main" end"#,
        ),
        noter(
            "tremor",
            "destroy",
            "phase_began",
            r#"priority = "destroy", when = function(ctx, ev) return ev.key == "main" end"#,
        ),
        noter(
            "gust",
            "move",
            "phase_began",
            r#"priority = "move", when = function(ctx, ev) return ev.key == "main" end"#,
        ),
        noter(
            "echo",
            "follow_up",
            "phase_began",
            r#"priority = "follow_up", when = function(ctx, ev) return ev.key == "main" end"#,
        ),
        // Charms that attach: one with an exception (its host must be fire), one that
        // works only while its host is in the front line, one that lasts a subturn.
        card(
            "flameblade",
            "charm",
            json!({"cost": 1, "attach": true, "exception": "fire"}),
            Some(
                r#"return { { kind = "static", affects = function(ctx, c) return ctx.source.host == c end,
                   modify = { { char = "power", op = "add", value = 1 } } } }"#,
            ),
        ),
        card(
            "banner",
            "charm",
            json!({"cost": 1, "attach": true}),
            Some(
                r#"return { { kind = "static", condition = function(ctx) return ctx.source.host ~= nil and ctx.source.host.zone == "front" end,
                   affects = function(ctx, c) return ctx.source.host == c end,
                   modify = { { char = "power", op = "add", value = 2 } } } }"#,
            ),
        ),
        card(
            "hourglass",
            "charm",
            json!({"cost": 1, "attach": true, "turns": 1}),
            None,
        ),
        skilled(
            "charger",
            &format!(
                r#"cost = 0, {OWN}, operate = function(ctx, a) ctx:add_counter(a.target, "charge", 1) end"#
            ),
        ),
        // Whenever a curse on a creature of yours ends.
        creature(
            "keeper",
            (1, 1, 1),
            "earth",
            Some(
                r#"return { { kind = "triggered", on = "flag",
                   when = function(ctx, ev) return member(CURSES, ev.key) and ev.amount == 0 and ev.card.controller == ctx.player end,
                   operate = function(ctx, a) note(ctx, "lifted " .. a.event.key, ctx.player) end } }"#,
            ),
        ),
        // Entering its player's checkup, it stones an opposing creature.
        creature(
            "bell",
            (1, 1, 1),
            "earth",
            Some(
                r#"return { { kind = "triggered", on = "phase_began", match = { turn = "self" },
                   when = function(ctx, ev) return ev.key == "checkup" end,
                   operate = function(ctx)
                     local t = curse_targets(ctx, ctx.player, "stone")[1]
                     if t then ctx:procedure("curse", { target = t, curse = "stone", kind = "curse" }) end
                   end } }"#,
            ),
        ),
        // Growth-like: two fire creatures of its owner, one card for each (611.6), leave the
        // game, and it gets +3 power.
        skilled(
            "titan",
            r#"cost = 0, operate = function(ctx)
                 local pool = {}
                 for _, c in ipairs(creatures(ctx, ctx.player)) do
                   if c ~= ctx.source and c.owner == ctx.player then pool[#pool + 1] = c end
                 end
                 local picked = ctx:choose_cards(ctx.player, pool, { min = 2, max = 2, prompt = "conditions" })
                 if not fits(picked, { { element = "fire" }, { element = "fire" } }) then note(ctx, "no growth", ctx.player) return end
                 ctx:move(picked, "exile", { reason = "growth" })
                 ctx:modify(ctx.source, { char = "power", op = "add", value = 3 })
                 note(ctx, "grown", ctx.player)
               end"#,
        ),
        // Vanish: when it becomes tired, if its owner has another creature, it leaves for
        // the exile and comes back at the next cleanup (a delayed ability).
        creature(
            "vanisher",
            (4, 2, 3),
            "wind",
            Some(
                r#"local back = { kind = "triggered", on = "phase_began", dormant = true,
                   when = function(ctx, ev) return ev.key == "cleanup" end,
                   operate = function(ctx)
                     local c = ctx:current(ctx.source)
                     if c.zone == "exile" then ctx:move(c, "adrift", { reason = "vanish" }) end
                   end }
                 return {
                   { kind = "triggered", on = "turned", match = { card = "self" },
                     when = function(ctx, ev) return ev.key == "tired" and #creatures(ctx, ctx.source.owner) > 1 end,
                     operate = function(ctx)
                       ctx:move(ctx.source, "exile", { reason = "vanish" })
                       ctx:delay(back, {})
                     end },
                   back }"#,
            ),
        ),
        skilled(
            "well",
            r#"cost = 0, operate = function(ctx) ctx:add_value(ctx.player, "mana_max", 5) end"#,
        ),
    ]
}

fn engine() -> Rc<Engine> {
    engine_of(&common::content(
        MANIFEST,
        |_| {},
        &[("duelists.lua", RULES_LUA)],
        cards(),
    ))
}

/// A position: the cards placed in order as (player, zone, card), each on top of its zone
/// (a line fills left to right). A zone written `under:N` attaches the card under the Nth
/// card placed (from 0); `zone#x#y` places it with flags, counters (`poison=2`) or tired.
/// Both players have 10 mana (of 8 at most), have had a subturn already, and hold dummies
/// in their piles.
fn placed(cards: &[(PlayerId, &str, &str)]) -> (Builder, Vec<ObjId>) {
    let mut b = Builder::new(engine(), 2, 7).expect("builder");
    for p in [P1, P2] {
        for (name, v) in [("mana", 10), ("mana_max", 8), ("subturns", 1)] {
            b.set_value(p, name, v).expect("value");
        }
        for pile in ["deck", "deck", "deck", "tome", "tome"] {
            b.place(p, pile, "dummy", &Place::default()).expect("pile");
        }
    }
    let mut ids: Vec<ObjId> = Vec::new();
    for (p, spec, c) in cards {
        let mut parts = spec.split('#');
        let mut zone = parts.next().expect("a zone").to_string();
        let mut opts = Place::default();
        if let Some(n) = zone.strip_prefix("under:") {
            opts.attach_to = Some(ids[n.parse::<usize>().expect("an index")]);
            zone = "front".into();
        }
        for x in parts {
            match x.split_once('=') {
                Some((k, v)) => opts.counters.push((k.into(), v.parse().expect("a number"))),
                None if x == "tired" => opts.orientation = Some("tired".into()),
                None => opts.flags.push(x.into()),
            }
        }
        ids.push(b.place(*p, &zone, c, &opts).expect("placed"));
    }
    (b, ids)
}

fn start(b: Builder, turn: u32, p: PlayerId, phase: &str) -> Game {
    let g = b.start(turn, p, phase).expect("started");
    assert!(g.errors().is_empty(), "script errors: {:?}", g.errors());
    g
}

/// The pending request: prompt, who decides, option labels.
fn asked(g: &Game) -> (String, PlayerId, Vec<String>) {
    match g.request().expect("a request") {
        Request::Choose {
            prompt,
            player,
            options,
            ..
        } => (
            prompt.clone(),
            *player,
            options.iter().map(|o| o.label.clone()).collect(),
        ),
        other => panic!("not a choice: {other:?}"),
    }
}

/// Answers with the option labelled `label`; no script may fail.
fn answer(g: &mut Game, label: &str) {
    let (prompt, player, labels) = asked(g);
    let i = labels.iter().position(|l| l == label).unwrap_or_else(|| {
        panic!(
            "no option '{label}' at '{prompt}' for P{} in {labels:?}",
            player + 1
        )
    });
    g.respond(
        player,
        Response::Choose {
            indices: vec![i as u32],
        },
    )
    .expect("legal");
    assert!(g.errors().is_empty(), "script errors: {:?}", g.errors());
    g.check_invariants()
        .unwrap_or_else(|e| panic!("after '{label}': {e}"));
}

/// Answers each of `labels` in turn.
fn answers(g: &mut Game, labels: &[&str]) {
    for l in labels {
        answer(g, l);
    }
}

/// Plays on with the plain answers (end the main step, pass in windows, draw from the deck)
/// until `prompt` is asked of `player`.
fn until(g: &mut Game, prompt: &str, player: PlayerId) {
    for _ in 0..200 {
        let (p, who, _) = asked(g);
        if p == prompt && who == player {
            return;
        }
        match p.as_str() {
            "main" => answer(g, "end"),
            "interfere" => answer(g, "pass"),
            "draw" => answer(g, "draw from deck"),
            other => panic!("'{other}' asked of P{} on the way to '{prompt}'", who + 1),
        }
    }
    panic!("'{prompt}' never came");
}

/// The rules' notes so far, as `key@seat`.
fn notes(g: &Game) -> Vec<String> {
    g.log()
        .iter()
        .filter_map(|e| match e {
            Entry::Event(e) if e.name == "note" => Some(format!(
                "{}{}",
                e.key.clone().unwrap_or_default(),
                e.player.map(|p| format!("@{}", p + 1)).unwrap_or_default()
            )),
            _ => None,
        })
        .collect()
}

/// The log's events named `name` since entry `from`.
fn events(g: &Game, name: &str, from: usize) -> Vec<riffle_core::events::Event> {
    g.log()
        .into_iter()
        .skip(from)
        .filter_map(|e| match e {
            Entry::Event(e) if e.name == name => Some(e),
            _ => None,
        })
        .collect()
}

/// The live object of card `name` that `p` owns (there must be one).
fn live(g: &Game, p: PlayerId, name: &str) -> ObjId {
    g.with_state(|st| {
        let found: Vec<ObjId> = st
            .objects
            .iter()
            .filter(|o| o.alive && o.owner == p && g.card_id(o.id) == name)
            .map(|o| o.id)
            .collect();
        assert_eq!(found.len(), 1, "{name} of P{}: {found:?}", p + 1);
        found[0]
    })
}

/// Where a card is: (zone, whose zone).
fn place_of(g: &Game, id: ObjId) -> (String, Option<PlayerId>) {
    g.with_state(|st| {
        let z = st.zone(st.obj(id).zone);
        let name = g.engine().manifest().zones[z.decl as usize].name.clone();
        (name, z.owner)
    })
}

/// The names of the cards in a zone, bottom (or leftmost) first.
fn names_in(g: &Game, zone: &str, p: PlayerId) -> Vec<String> {
    g.with_state(|st| {
        let decl = g
            .engine()
            .manifest()
            .zones
            .iter()
            .position(|z| z.name == zone)
            .expect("a zone");
        st.zones
            .iter()
            .find(|z| z.decl as usize == decl && z.owner == Some(p))
            .expect("the zone")
            .cards
            .iter()
            .map(|c| g.card_id(*c))
            .collect()
    })
}

/// A card as player 1 sees it (searching attachments too).
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
    g.view(P1)
        .zones
        .iter()
        .find_map(|z| find(&z.cards, id))
        .unwrap_or_else(|| panic!("card {id:?} not in view"))
}

fn stat(g: &Game, id: ObjId, name: &str) -> i64 {
    seen(g, id).values[name]
}

fn flags(g: &Game, id: ObjId) -> Vec<String> {
    seen(g, id).flags
}

/// A player's value.
fn value(g: &Game, p: PlayerId, name: &str) -> i64 {
    g.view(P1).values[p as usize][name]
}

// --- 10.4 Turn engine ---------------------------------------------------------------------------

/// SM2, SM30, SM32 (400.1, 400.2, 401.1, 401.2.3, 401.2.4, 402.1): a kernel
/// turn is one player's attack subturn, whose phases are its eight steps; the defender has no
/// steps of their own, and the default next turn goes to the other player, so attack and
/// defense swap each subturn. A step's entry event reaches each side's abilities, the attack
/// player's (`match.turn = "self"`) and the defender's (`"other"`).
#[test]
fn each_kernel_turn_is_one_players_attack_subturn_and_the_other_defends() {
    let (b, _) = placed(&[
        (P1, "front", "herald"),
        (P1, "front", "sentinel"),
        (P2, "front", "herald"),
        (P2, "front", "sentinel"),
    ]);
    let mut g = start(b, 1, P1, "checkup");
    let from = 0;
    for _ in 0..3 {
        let tp = g.view(P1).turn_player;
        until(&mut g, "main", tp);
        answer(&mut g, "end");
    }
    assert_eq!(
        notes(&g)
            .iter()
            .filter(|n| !n.ends_with("_end"))
            .collect::<Vec<_>>(),
        [
            "attack@1",
            "defense@2",
            "attack@2",
            "defense@1",
            "attack@1",
            "defense@2",
            "attack@2",
            "defense@1"
        ]
    );
    let turns: Vec<PlayerId> = events(&g, "turn_began", from)
        .iter()
        .map(|e| e.player.expect("a player"))
        .collect();
    assert_eq!(turns, [P2, P1, P2], "a turn for each subturn, alternating");
    let steps: Vec<String> = events(&g, "phase_began", from)
        .iter()
        .take(8)
        .map(|e| e.key.clone().expect("a phase"))
        .collect();
    assert_eq!(
        steps,
        [
            "checkup",
            "draw",
            "discard",
            "interfere_a",
            "main",
            "interfere_b",
            "refill",
            "cleanup"
        ]
    );
}

/// Answers `labels` in turn and returns who was asked what: `prompt@seat` for each.
fn trail(g: &mut Game, labels: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for l in labels {
        let (prompt, p, _) = asked(g);
        out.push(format!("{prompt}@{}", p + 1));
        answer(g, l);
    }
    out
}

/// SM31, SM33, SM55 (401.1, 401.2.2-401.9.1, 401.6.5, 402.2, 402.3, 616.2,
/// 616.3): the steps ask nothing but the draw until the interfere step after the discard;
/// there the defender is asked first, then the players in turn until both pass, and only
/// cards with interfere are offered; the main step asks the attack player alone; the second
/// interfere step follows it; the refill and cleanup ask nothing.
#[test]
fn the_steps_gate_who_may_act_and_with_what() {
    let (b, _) = placed(&[
        (P1, "front", "dummy"),
        (P2, "front", "dummy"),
        (P1, "hand", "zap"),
        (P1, "hand", "grunt"),
        (P2, "hand", "zap"),
        (P2, "hand", "grunt"),
    ]);
    let mut g = start(b, 1, P1, "checkup");
    assert_eq!(asked(&g).2, ["draw from deck", "draw from tome"]);
    let asks = trail(&mut g, &["draw from deck", "pass"]);
    assert_eq!(asks, ["draw@1", "interfere@2"]);
    let (prompt, p, labels) = asked(&g);
    assert_eq!((prompt.as_str(), p), ("interfere", P1));
    assert_eq!(labels, ["cast zap", "pass"], "grunt has no interfere");
    answer(&mut g, "pass");
    let (prompt, p, labels) = asked(&g);
    assert_eq!((prompt.as_str(), p), ("main", P1));
    assert!(labels.contains(&"cast grunt".to_string()), "{labels:?}");
    // P2 casts its zap: a command with a window of its own, where P2 has nothing left to
    // use and P1 passes; then the fixed step goes on, with P1.
    answer(&mut g, "end");
    let asks = trail(&mut g, &["cast zap", "pass"]);
    assert_eq!(asks, ["interfere@2", "interfere@1"]);
    assert_eq!(notes(&g), ["zap@2", "cast_end@2"]);
    let asks = trail(&mut g, &["pass"]);
    assert_eq!(asks, ["interfere@1"]);
    // Refill and cleanup asked nothing: P2's subturn, from its draw.
    let asks = trail(&mut g, &["draw from deck"]);
    assert_eq!(asks, ["draw@2"]);
    assert_eq!(asked(&g).0, "interfere");
    assert_eq!(asked(&g).1, P1, "the defender first");
}

/// SM34 (401.3.2, Gl: Progress): no draw in a player's first attack
/// subturn, nor after a progress: the draw step's procedure returns early (a player value).
#[test]
fn the_draw_is_skipped_in_a_players_first_subturn_and_after_a_progress() {
    let (mut b, _) = placed(&[(P1, "front", "grunt"), (P2, "front", "grunt")]);
    b.set_value(P1, "subturns", 0).unwrap();
    let mut g = start(b, 1, P1, "checkup");
    assert_eq!(asked(&g).0, "main", "P1's first subturn: no draw");
    answer(&mut g, "end");
    assert_eq!(
        asked(&g),
        (
            "draw".into(),
            P2,
            vec!["draw from deck".into(), "draw from tome".into()]
        )
    );
    until(&mut g, "main", P2);
    answer(&mut g, "end");
    assert_eq!(asked(&g).0, "draw", "P1's second subturn draws");

    let (mut b, _) = placed(&[(P1, "front", "grunt"), (P2, "front", "grunt")]);
    b.set_value(P1, "progressed", 1).unwrap();
    let g = start(b, 5, P1, "checkup");
    assert_eq!(asked(&g).0, "main", "a progress this subturn: no draw");
}

fn decks() -> Vec<DeckList> {
    let deck = || {
        let mut d = DeckList::default();
        d.sections
            .insert("main".into(), [("grunt".to_string(), 6)].into());
        d.sections
            .insert("charms".into(), [("zap".to_string(), 3)].into());
        d
    };
    vec![deck(), deck()]
}

/// SM35 (102.5, 102.6): setup draws from both piles and gives the first
/// player 5 mana and the other their maximum (player values set in `setup`).
#[test]
fn setup_gives_the_first_player_five_mana_and_the_other_their_maximum() {
    let g = Game::new(
        engine(),
        GameConfig {
            seed: 3,
            decks: decks(),
            keep_log: true,
        },
    )
    .expect("a game");
    assert_eq!((value(&g, P1, "mana"), value(&g, P2, "mana")), (5, 8));
    assert_eq!(names_in(&g, "hand", P1).len(), 4);
    assert_eq!(
        names_in(&g, "hand", P2)
            .iter()
            .filter(|n| *n == "zap")
            .count(),
        1,
        "one from the charm pile"
    );
}

/// SM36, SM4 (401.8.4, 401.8.6, Gl: Mp Max): mana may exceed its maximum;
/// the refill erases it, then fills it to the maximum; a maximum below 0 is read as 0 while
/// its raw value is kept, so a later +5 makes it 2, not 5.
#[test]
fn mana_is_erased_then_filled_and_a_maximum_below_zero_keeps_its_raw_value() {
    let (mut b, _) = placed(&[(P1, "front", "well"), (P2, "front", "grunt")]);
    b.set_value(P1, "mana", 11).unwrap();
    let mut g = start(b, 1, P1, "main");
    assert_eq!(value(&g, P1, "mana"), 11, "above the maximum of 8");
    let from = g.log().len();
    answer(&mut g, "end");
    let mana: Vec<i64> = events(&g, "value", from)
        .iter()
        .filter(|e| e.key.as_deref() == Some("mana") && e.player == Some(P1))
        .map(|e| e.amount)
        .collect();
    assert_eq!(mana, [-11, 8], "erased, then filled");

    let (mut b, _) = placed(&[(P1, "front", "well"), (P2, "front", "grunt")]);
    b.set_value(P1, "mana_max", -3).unwrap();
    let mut g = start(b, 1, P1, "main");
    answer(&mut g, "end");
    assert_eq!(value(&g, P1, "mana"), 0, "filled to max(0, -3)");
    assert_eq!(value(&g, P1, "mana_max"), -3, "the raw value is kept");
    until(&mut g, "main", P1);
    answer(&mut g, "use well");
    assert_eq!(value(&g, P1, "mana_max"), 2);
    answer(&mut g, "end");
    assert_eq!(value(&g, P1, "mana"), 2);
}

/// SM37 (401.9.5, 401.9.7, 401.9.8, 103.5): the cleanup ends the effects
/// that last the subturn, readies every tired creature of both players at once, and a player
/// who had no creature at the checkup and has none now loses.
#[test]
fn the_cleanup_ends_subturn_effects_readies_both_sides_and_a_player_without_creatures_loses() {
    let (b, ids) = placed(&[
        (P1, "front", "grunt"),
        (P1, "front", "rally"),
        (P2, "front", "dummy"),
        (P2, "front", "ace"),
    ]);
    let mut g = start(b, 1, P1, "main");
    answers(&mut g, &["use rally", "grunt"]);
    assert_eq!(stat(&g, ids[0], "power"), 5);
    answers(&mut g, &["attack with grunt", "dummy"]);
    let tired = |g: &Game| {
        ids.iter()
            .filter(|c| g.with_state(|st| st.obj(**c).alive))
            .map(|c| seen(g, *c).orientation)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        tired(&g),
        ["tired", "tired", "ready"],
        "grunt attacked, rally used its skill"
    );
    answer(&mut g, "end");
    assert_eq!(stat(&g, ids[0], "power"), 3, "the subturn's effect ended");
    assert_eq!(tired(&g), ["ready", "ready", "ready"]);

    let (b, _) = placed(&[(P2, "front", "grunt")]);
    let mut g = start(b, 1, P1, "checkup");
    until(&mut g, "main", P1);
    answer(&mut g, "end");
    let r = g.result().expect("over");
    assert_eq!((r.winners, r.reason.as_str()), (vec![P2], "no_creatures"));
}

/// SM38, SM61 (401.9.6, Gl: counts as 1 Turn, 602.1.6): durations count
/// subturns, one kernel turn each, so "for 1 Turn" is a count-down of two cleanups
/// (`times = 2`); the effect outlives the card whose skill made it.
#[test]
fn a_duration_of_one_turn_lasts_two_subturns() {
    let (b, ids) = placed(&[
        (P1, "front", "grunt"),
        (P1, "front", "blessing"),
        (P2, "front", "dummy"),
        (P2, "front", "smite"),
    ]);
    let mut g = start(b, 1, P1, "main");
    answers(&mut g, &["use blessing", "grunt"]);
    assert_eq!(stat(&g, ids[0], "power"), 5);
    answer(&mut g, "end");
    assert_eq!(stat(&g, ids[0], "power"), 5, "one subturn passed");
    until(&mut g, "main", P2);
    answers(&mut g, &["use smite", "blessing"]);
    assert!(!alive(&g, ids[1]));
    assert_eq!(
        stat(&g, ids[0], "power"),
        5,
        "its source is gone, not the effect"
    );
    answer(&mut g, "end");
    assert_eq!(stat(&g, ids[0], "power"), 3, "two subturns: one turn");
}

// --- 10.3 Card characteristics --------------------------------------------------------------------

/// Labels of the pending request that start with `prefix`.
fn offered(g: &Game, prefix: &str) -> Vec<String> {
    asked(g)
        .2
        .into_iter()
        .filter(|l| l.starts_with(prefix))
        .collect()
}

/// SM25, SM26, SM28 (Gl: normal values, element symbol, Double Element,
/// "-"): `card:printed` reads the printed value whatever effects do (the current value is the
/// characteristic); element symbols are the printed icons, counted by kind; a value printed
/// as a dash is no value (`printed` is nil, not 0), so a skill that needs it cannot target
/// the card.
#[test]
fn printed_values_ignore_effects_and_a_dash_is_no_value() {
    let (b, _) = placed(&[
        (P1, "front", "grunt"),
        (P1, "front", "prism"),
        (P1, "back", "rally"),
        (P1, "back", "appraiser"),
        (P1, "back", "gauger"),
        (P1, "back", "soaker"),
        (P2, "front", "wisp"),
        (P2, "front", "ace"),
    ]);
    let mut g = start(b, 1, P1, "main");
    answers(&mut g, &["use rally", "grunt", "use soaker", "prism"]);
    answers(
        &mut g,
        &["use appraiser", "grunt", "use appraiser", "prism"],
    );
    answers(&mut g, &["use appraiser", "wisp"]);
    let asks: Vec<String> = notes(&g)
        .into_iter()
        .filter(|n| n.contains("printed"))
        .collect();
    assert_eq!(
        asks,
        [
            "grunt: printed 3, now 5; symbols 1, earth true; guard 2@1",
            // An effect gave prism earth: an element now, never a symbol.
            "prism: printed 2, now 2; symbols 3, earth true; guard 2@1",
            "wisp: printed 1, now 1; symbols 1, earth false; guard nil@1",
        ]
    );
    answer(&mut g, "use gauger");
    assert_eq!(asked(&g).0, "skill_target");
    assert_eq!(
        asked(&g).2,
        [
            "grunt",
            "prism",
            "rally",
            "appraiser",
            "gauger",
            "soaker",
            "ace"
        ],
        "wisp has no guard: it is no target"
    );
}

/// Answers a request for several options with those labelled `labels`.
fn answer_many(g: &mut Game, labels: &[&str]) {
    let (prompt, player, all) = asked(g);
    let indices = labels
        .iter()
        .map(|l| {
            all.iter()
                .position(|x| x == l)
                .unwrap_or_else(|| panic!("no option '{l}' at '{prompt}' in {all:?}"))
                as u32
        })
        .collect();
    g.respond(player, Response::Choose { indices })
        .expect("legal");
    assert!(g.errors().is_empty(), "script errors: {:?}", g.errors());
}

fn alive(g: &Game, id: ObjId) -> bool {
    g.with_state(|st| st.obj(id).alive)
}

fn controller(g: &Game, id: ObjId) -> PlayerId {
    g.with_state(|st| st.obj(id).controller)
}

// --- 10.1 Players, identity, ownership -------------------------------------------------------

/// SM3, SM65 (Gl: Control, 712.1, 712.2, 711.2, 711.3): control changes
/// the card's controller (op control), not its owner; it moves to its controller's side as
/// the same object; its abilities now trigger on its controller's turns and its controller
/// makes their choices; a card controlled by another than its owner uses no skill; when it
/// leaves the field it goes to its owner's zone, a new object controlled by its owner.
#[test]
fn control_moves_a_card_and_its_abilities_to_its_controller_until_it_leaves() {
    let (b, ids) = placed(&[
        (P1, "front", "oracle"),
        (P1, "back", "smite"),
        (P2, "front", "charmer"),
        (P2, "front", "ace"),
    ]);
    let oracle = ids[0];
    let mut g = start(b, 2, P2, "main");
    // The skill's user chooses its target.
    answer(&mut g, "use charmer");
    assert_eq!(asked(&g).1, P2);
    answer(&mut g, "oracle");
    assert!(alive(&g, oracle), "the same object");
    assert_eq!(place_of(&g, oracle), ("front".into(), Some(P2)));
    assert_eq!(
        (
            controller(&g, oracle),
            g.with_state(|st| st.obj(oracle).owner)
        ),
        (P2, P1)
    );
    let labels = asked(&g).2;
    assert!(
        labels.contains(&"attack with oracle".to_string()),
        "{labels:?}"
    );
    assert!(
        !labels.contains(&"use oracle".to_string()),
        "712.1: {labels:?}"
    );
    // P1's checkup: not its controller's turn. P2's: it triggers, and P2 chooses.
    answer(&mut g, "end");
    until(&mut g, "main", P1);
    answer(&mut g, "end");
    until(&mut g, "bless", P2);
    assert_eq!(asked(&g).2, ["charmer", "ace", "oracle"]);
    answer(&mut g, "ace");
    until(&mut g, "main", P1);
    // Destroyed, it goes to its owner's graveyard, controlled by its owner again.
    answers(&mut g, &["use smite", "oracle"]);
    assert!(!alive(&g, oracle));
    let now = live(&g, P1, "oracle");
    assert_eq!(place_of(&g, now), ("graveyard".into(), Some(P1)));
    assert_eq!(controller(&g, now), P1);
}

// --- 10.2 Zones and spatial structure -------------------------------------------------------

/// SM11 (303.2.3, 515.6, 515.7, 513.2): a creature entering a line goes to
/// any place in it (`position = n`), and the cards beside it are those at its place ± 1; a
/// creature is never moved within its own line.
#[test]
fn a_creature_takes_any_place_in_a_line_and_knows_who_is_beside_it() {
    let (b, ids) = placed(&[
        (P1, "front", "grunt"),
        (P1, "front", "ace"),
        (P1, "front", "wisp"),
        (P1, "hand", "scout"),
        (P2, "front", "dummy"),
    ]);
    let mut g = start(b, 1, P1, "main");
    answers(&mut g, &["cast scout", "front"]);
    assert_eq!(asked(&g).2, ["front 1", "front 2", "front 3", "front 4"]);
    answer(&mut g, "front 2");
    assert_eq!(names_in(&g, "front", P1), ["grunt", "scout", "ace", "wisp"]);
    assert_eq!(notes(&g)[0], "beside grunt+ace@1");
    let powers: Vec<i64> = ids[..3].iter().map(|c| stat(&g, *c, "power")).collect();
    assert_eq!(powers, [4, 6, 1]);
    let labels = asked(&g).2;
    assert!(
        labels.iter().all(|l| !l.ends_with("to front")),
        "{labels:?}"
    );
}

/// SM12, SM75, SM57 (303.3, 515.3, 517, 709.6.1, 709.11.1, 709.11.8,
/// 616.4): a check keeps the lines: dimension takes a creature out of every line, freeze
/// puts it in the back line (the same object each time, and no line assignment); a creature
/// in no line otherwise is given one at once by its controller, even in the other player's
/// subturn, through the assignment procedure, which has no interfere step, while a change of
/// line commanded by a player has one.
#[test]
fn a_check_keeps_the_lines_and_asks_at_once_for_a_line_when_one_is_missing() {
    let (b, ids) = placed(&[
        (P1, "front", "grunt"),
        (P1, "front", "ace"),
        (P1, "hand", "zap"),
        (P2, "front", "warlock"),
        (P2, "front", "warlock"),
        (P2, "front", "lifter"),
        (P2, "front", "oracle"),
    ]);
    let (grunt, ace) = (ids[0], ids[1]);
    let mut g = start(b, 2, P2, "main");
    // The skill's window, then the curse's: P1 may interfere in both (it holds a zap).
    answers(&mut g, &["use warlock", "pass"]);
    answers(&mut g, &["dimension", "grunt"]);
    assert_eq!(
        asked(&g),
        (
            "interfere".into(),
            P1,
            vec!["cast zap".into(), "pass".into()]
        )
    );
    answer(&mut g, "pass");
    assert_eq!(
        place_of(&g, grunt),
        ("adrift".into(), Some(P1)),
        "the same object, in no line"
    );
    assert_eq!(
        asked(&g).0,
        "main",
        "no line is asked for while the curse lasts"
    );
    answers(&mut g, &["use lifter", "grunt", "pass"]);
    // The curse ended: P1 assigns a line now, in P2's subturn, with no window first.
    assert_eq!(
        asked(&g),
        (
            "assign_line".into(),
            P1,
            vec!["front".into(), "back".into()]
        )
    );
    answer(&mut g, "back");
    assert_eq!(place_of(&g, grunt), ("back".into(), Some(P1)));
    assert!(alive(&g, grunt));
    answers(&mut g, &["use warlock", "pass", "freeze", "ace", "pass"]);
    assert_eq!(
        place_of(&g, ace),
        ("back".into(), Some(P1)),
        "freeze: the back line"
    );
    assert_eq!(names_in(&g, "back", P1), ["grunt", "ace"]);
    assert!(flags(&g, ace).contains(&"freeze".to_string()));
    // A change of line commanded by a player has its interfere step.
    answer(&mut g, "move oracle to back");
    assert_eq!(asked(&g).0, "interfere");
    assert_eq!(asked(&g).1, P1);
}

/// SM16, SM71 (508.4-508.9, 510.2, 513.2, 513.3, 200.12.3): a main with
/// supports under it is one creature whose values are its form's, from a form table, by a
/// rule's static ability (`set_base` with a value function); supports are still in the field
/// (a predicate over hosts); a composite that loses a support falls back to the form that
/// still fits; one that fits no form splits at once, the supports beside the main on the
/// side its controller chooses.
#[test]
fn a_composite_takes_its_values_from_its_form_falls_back_and_splits() {
    let (b, ids) = placed(&[
        (P1, "front", "drake"),
        (P1, "under:0", "whelp"),
        (P1, "under:0", "whelp"),
        (P1, "front", "grunt"),
        (P1, "back", "plucker"),
        (P1, "back", "douser"),
        (P2, "front", "dummy"),
    ]);
    let drake = ids[0];
    let mut g = start(b, 3, P1, "main");
    assert_eq!(
        (stat(&g, drake, "power"), stat(&g, drake, "guard")),
        (12, 9)
    );
    assert_eq!(
        stat(&g, ids[1], "power"),
        2,
        "a support keeps its own values"
    );
    // Supports are in the field: a skill may target one.
    answer(&mut g, "use plucker");
    assert_eq!(asked(&g).2, ["whelp", "whelp"]);
    answer(&mut g, "whelp");
    assert!(!alive(&g, ids[1]));
    assert_eq!(
        (stat(&g, drake, "power"), stat(&g, drake, "guard")),
        (9, 6),
        "the double form"
    );
    // No fire: no form fits; P1 chooses the side.
    answers(&mut g, &["use douser", "drake"]);
    assert_eq!(
        asked(&g),
        ("side".into(), P1, vec!["left".into(), "right".into()])
    );
    answer(&mut g, "right");
    assert_eq!(names_in(&g, "front", P1), ["drake", "whelp", "grunt"]);
    assert!(alive(&g, ids[2]), "the support kept its object");
    assert_eq!(stat(&g, drake, "power"), 4);
}

/// SM53, SM50 (508.10.7, 508.10.8, 500.3): a creature cast from the hand
/// cannot be a support until a turn (two subturns) has passed: a flag set on entry plus its
/// entry turn; one that came in any other way can be one at once; combining leaves the
/// main ready.
#[test]
fn a_creature_cast_from_the_hand_is_no_support_for_a_turn() {
    let (b, _) = placed(&[
        (P1, "front", "drake"),
        (P1, "hand", "whelp"),
        (P2, "front", "dummy"),
    ]);
    let mut g = start(b, 3, P1, "main");
    answers(&mut g, &["cast whelp", "front", "front 2"]);
    assert!(offered(&g, "combine").is_empty());
    answer(&mut g, "end");
    until(&mut g, "main", P1);
    assert_eq!(offered(&g, "combine"), ["combine drake with whelp"]);
    answer(&mut g, "combine drake with whelp");
    let drake = live(&g, P1, "drake");
    assert_eq!(stat(&g, drake, "power"), 9);
    assert_eq!(seen(&g, drake).orientation, "ready");
    assert!(offered(&g, "attack with drake").len() == 1);

    // Brought in by other means this very subturn (no flag): a support at once.
    let mut b = Builder::new(engine(), 2, 7).unwrap();
    b.place(P1, "front", "drake", &Place::default()).unwrap();
    b.place(
        P1,
        "front",
        "whelp",
        &Place {
            entered_turn: Some(3),
            ..Place::default()
        },
    )
    .unwrap();
    b.place(P2, "front", "dummy", &Place::default()).unwrap();
    let g = start(b, 3, P1, "main");
    assert_eq!(offered(&g, "combine"), ["combine drake with whelp"]);
}

/// SM19 (300.2-300.8, 302.5, 704.2): two hidden ordered piles; cards put on
/// top in the order their owner chooses (repeated choices, `position = "top"`); a card
/// returned to the deck reshuffles it; a card revealed from the top stays in its place
/// (no shuffle); anyone may count a pile (`ZoneView.count`) without seeing it.
#[test]
fn the_piles_keep_their_owners_order_and_a_returned_card_reshuffles() {
    let (b, _) = placed(&[
        (P1, "hand", "grunt"),
        (P1, "hand", "ace"),
        (P1, "hand", "wisp"),
        (P1, "graveyard", "prism"),
        (P1, "back", "ponderer"),
        (P1, "back", "recycler"),
        (P1, "back", "peeker"),
        (P2, "front", "dummy"),
    ]);
    let mut g = start(b, 1, P1, "main");
    answer(&mut g, "use ponderer");
    answer_many(&mut g, &["grunt", "ace"]);
    assert_eq!(asked(&g).0, "next_on_top");
    answer(&mut g, "ace");
    let deck = names_in(&g, "deck", P1);
    assert_eq!(deck[deck.len() - 2..], ["ace", "grunt"], "grunt is on top");
    let theirs = g.view(P2);
    let pile = theirs
        .zones
        .iter()
        .find(|z| z.name == "deck" && z.owner == Some(P1))
        .unwrap();
    assert_eq!(pile.count, 5);
    assert!(
        pile.cards.iter().all(|c| c.card.is_none()),
        "counted, not seen"
    );
    let from = g.log().len();
    answer(&mut g, "use peeker");
    assert!(notes(&g).contains(&"peeked grunt@1".to_string()));
    assert_eq!(names_in(&g, "deck", P1), deck, "it stayed in its place");
    answers(&mut g, &["use recycler", "prism"]);
    let shuffled = events(&g, "shuffled", from);
    assert_eq!(shuffled.len(), 1, "only the return shuffled");
    assert_eq!(names_in(&g, "deck", P1).len(), 6);
}

/// SM20, SM85 (301.2-301.4, 504.15, 504.20, 504.20.1, 703.2): the losers
/// of a battle are destroyed together, in one operation (one trigger batch: the watcher's
/// two triggers are ordered by its controller); cards going to a graveyard together are
/// ordered by their owner and the graveyard shows that order to everyone; an attacker that
/// loses against the back line is not destroyed.
#[test]
fn losers_go_together_and_their_owner_orders_the_public_graveyard() {
    let (b, ids) = placed(&[
        (P1, "front", "grunt"),
        (P1, "back", "mourner"),
        (P1, "back", "quaker"),
        (P2, "front", "grunt"),
        (P2, "front", "wisp"),
        (P2, "front", "dummy"),
    ]);
    let mut g = start(b, 1, P1, "main");
    answers(&mut g, &["attack with grunt", "grunt"]);
    assert_eq!(asked(&g).0, "order_triggers", "both losers in one batch");
    let first = asked(&g).2[0].clone();
    answer(&mut g, &first);
    assert!(!alive(&g, ids[0]) && !alive(&g, ids[3]));
    answer(&mut g, "use quaker");
    assert_eq!(
        asked(&g),
        (
            "graveyard_order".into(),
            P2,
            vec!["wisp".into(), "dummy".into()]
        )
    );
    answer(&mut g, "dummy");
    let public = g.view(P1);
    let yard = public
        .zones
        .iter()
        .find(|z| z.name == "graveyard" && z.owner == Some(P2))
        .unwrap();
    let shown: Vec<String> = yard.cards.iter().map(|c| c.card.clone().unwrap()).collect();
    assert_eq!(shown, ["grunt", "dummy", "wisp"], "the top last");

    let (b, ids) = placed(&[(P1, "front", "dummy"), (P2, "back", "ace")]);
    let mut g = start(b, 1, P1, "main");
    answers(&mut g, &["attack with dummy", "ace"]);
    assert!(alive(&g, ids[0]), "504.20.1: it lost, but is not destroyed");
    assert_eq!(seen(&g, ids[0]).orientation, "tired");
}

fn working(g: &Game) -> i64 {
    g.with_state(|st| st.game_values[0])
}

/// SM21, SM22 (102.2, 620.1, 621.1-621.6): extras wait off the game in a
/// face-down zone outside the deck (a deck section of its own), the display face up; a
/// player brings in at most its capacity of one name; an extra that would go to a hand goes
/// to the exile instead (a rule replacement), and never back to the reserve.
#[test]
fn extras_wait_off_game_face_down_and_never_go_to_a_hand() {
    let (b, _) = placed(&[
        (P1, "reserve", "golem"),
        (P1, "gallery", "prism"),
        (P1, "front", "grunt"),
        (P1, "back", "recaller"),
        (P2, "front", "dummy"),
    ]);
    let mut g = start(b, 1, P1, "main");
    let theirs = g.view(P2);
    let zone = |name: &str| {
        theirs
            .zones
            .iter()
            .find(|z| z.name == name && z.owner == Some(P1))
            .unwrap()
            .clone()
    };
    assert_eq!(zone("reserve").count, 1);
    assert_eq!(zone("reserve").cards[0].card, None, "face down, hidden");
    assert_eq!(zone("gallery").cards[0].card.as_deref(), Some("prism"));
    answer(&mut g, "create golem");
    answers(&mut g, &["front", "front 2"]);
    let golem = live(&g, P1, "golem");
    assert_eq!(place_of(&g, golem), ("front".into(), Some(P1)));
    assert!(offered(&g, "create").is_empty(), "capacity 1");
    answers(&mut g, &["use recaller", "golem"]);
    assert_eq!(place_of(&g, live(&g, P1, "golem")).0, "exile");

    // Dealt as a deck section, extras start in the reserve, face down.
    let mut decks = decks();
    decks[0]
        .sections
        .insert("extras".into(), [("golem".to_string(), 1)].into());
    let g = Game::new(
        engine(),
        GameConfig {
            seed: 3,
            decks,
            keep_log: true,
        },
    )
    .expect("a game");
    assert_eq!(names_in(&g, "reserve", P1), ["golem"]);
    let golem = live(&g, P1, "golem");
    assert!(!g.with_state(|st| st.obj(golem).face_up));
}

/// SM22 (701.1, 713.2, Gl: Twinkling): rule replacements redirect moves
/// after the cards' own: a destroyed card goes nowhere but to its graveyard, even past a
/// card's replacement that would send it to the hand (which works on a plain move); a
/// twinkled card leaves its graveyard by no opponent's doing (the replacement replaces the
/// move by nothing), and by its owner's as usual.
#[test]
fn rule_replacements_redirect_moves_after_the_cards_own() {
    let (b, _) = placed(&[
        (P1, "back", "smite"),
        (P1, "back", "burier"),
        (P1, "back", "exhumer"),
        (P1, "back", "exhumer"),
        (P1, "graveyard#twinkled", "zap"),
        (P2, "front", "grunt"),
        (P2, "front", "ace"),
        (P2, "back", "shelter"),
        (P2, "graveyard#twinkled", "wisp"),
    ]);
    let mut g = start(b, 1, P1, "main");
    answers(&mut g, &["use smite", "grunt"]);
    assert_eq!(place_of(&g, live(&g, P2, "grunt")).0, "graveyard");
    answers(&mut g, &["use burier", "ace"]);
    assert_eq!(place_of(&g, live(&g, P2, "ace")).0, "hand", "shelter's own");
    answer(&mut g, "use exhumer");
    assert_eq!(asked(&g).2, ["zap", "wisp", "grunt"]);
    answer(&mut g, "wisp");
    assert_eq!(place_of(&g, live(&g, P2, "wisp")).0, "graveyard", "locked");
    answers(&mut g, &["use exhumer", "zap"]);
    assert_eq!(
        place_of(&g, live(&g, P1, "zap")).0,
        "hand",
        "its owner's doing"
    );
}

// --- 10.5 Procedures and commands; 10.6 windows -----------------------------------------------

/// SM41, SM42 (100.5, 500.1, 500.10, 401.6.3, 609.2): a command's card
/// carries its statuses (flags) and a `pending` lock, and the game a "working" lock (a game
/// value) while the command runs; in its window the other cards may interfere but not the
/// commanded one; a card that changes zone is a new object with no status, the command
/// notices and ends, and the locks are released.
#[test]
fn statuses_and_locks_live_with_the_command_and_end_on_a_zone_change() {
    let (b, ids) = placed(&[
        (P1, "front", "hawk"),
        (P1, "front", "owl"),
        (P2, "front", "ace"),
        (P2, "hand", "recall"),
    ]);
    let (hawk, ace) = (ids[0], ids[2]);
    let mut g = start(b, 1, P1, "main");
    assert_eq!(working(&g), 0);
    answers(&mut g, &["attack with hawk", "ace"]);
    assert_eq!(
        asked(&g),
        (
            "interfere".into(),
            P2,
            vec!["cast recall".into(), "pass".into()]
        )
    );
    assert_eq!(flags(&g, hawk), ["attacking", "pending"]);
    assert_eq!(flags(&g, ace), ["attacked"]);
    assert_eq!(working(&g), 1);
    // P2's recall is a command of its own: in its window P1 may use owl, not hawk.
    answer(&mut g, "cast recall");
    assert_eq!(
        asked(&g),
        (
            "interfere".into(),
            P1,
            vec!["use owl".into(), "pass".into()]
        )
    );
    assert_eq!(working(&g), 2);
    answers(&mut g, &["pass", "hawk"]);
    let gone = live(&g, P1, "hawk");
    assert_eq!(place_of(&g, gone).0, "hand");
    assert!(
        g.with_state(|st| st.obj(gone).flags == 0),
        "a new object: no status"
    );
    answer(&mut g, "pass");
    assert!(notes(&g).contains(&"attack_fails@1".to_string()));
    assert_eq!(flags(&g, ace), Vec::<String>::new());
    assert_eq!(working(&g), 0);
    assert_eq!(asked(&g).0, "main");
}

/// SM43 (504.3-504.5, 605.5-605.6, 610.1.2-610.1.3): the cost is checked
/// before anything is paid: a command that cannot pay stops with no status and nothing
/// spent; once paid, a command that fails refunds nothing.
#[test]
fn a_command_checks_its_cost_before_paying_and_never_refunds() {
    let (mut b, ids) = placed(&[
        (P1, "front", "grunt"),
        (P2, "front", "ace"),
        (P2, "hand", "recall"),
    ]);
    b.set_value(P1, "mana", 0).unwrap();
    let mut g = start(b, 1, P1, "main");
    answer(&mut g, "attack with grunt");
    assert_eq!(notes(&g), ["cannot_pay@1", "attack_end@1"]);
    assert_eq!(asked(&g).0, "main", "no target asked, no window");
    assert_eq!(seen(&g, ids[0]).orientation, "ready");
    assert_eq!(flags(&g, ids[0]), Vec::<String>::new());

    let (mut b, _) = placed(&[
        (P1, "front", "grunt"),
        (P2, "front", "ace"),
        (P2, "hand", "recall"),
    ]);
    b.set_value(P1, "mana", 1).unwrap();
    let mut g = start(b, 1, P1, "main");
    answers(
        &mut g,
        &["attack with grunt", "ace", "cast recall", "grunt"],
    );
    assert!(notes(&g).contains(&"attack_fails@1".to_string()));
    assert_eq!(value(&g, P1, "mana"), 0, "paid, not refunded");
}

/// SM44, SM59 (504.5, 504.7, 504.10-504.12, 6.0 "re-loop memory"): the
/// declaration's own triggers fire at once (an ordinary triggered ability); the on-attack
/// abilities choose their targets before the window and work after it (polled by timing);
/// one whose target left sends the procedure back (a step returning a step name) through
/// another window, and on the way round only it aims again: what was chosen is not chosen
/// again and what worked does not work again (the procedure's record).
#[test]
fn a_loop_back_keeps_what_was_chosen_and_what_worked() {
    let (b, _) = placed(&[
        (P1, "front", "drake"),
        (P1, "back", "hexer"),
        (P1, "back", "drummer"),
        (P1, "back", "bugle"),
        (P2, "front", "grunt"),
        (P2, "front", "wisp"),
        (P2, "front", "dummy"),
        (P2, "hand", "recall"),
    ]);
    let mut g = start(b, 1, P1, "main");
    let asks = trail(
        &mut g,
        &[
            "attack with drake",
            "dummy",
            "grunt",
            "wisp",
            "cast recall",
            "grunt",
        ],
    );
    assert_eq!(
        asks,
        [
            "main@1",
            "attack_target@1",
            "aim hexer@1",
            "aim drummer@1",
            "interfere@2",
            "recall@2"
        ]
    );
    assert_eq!(notes(&g)[0], "bugle@1", "fired at the declaration");
    // Hexer's target left: back to the choice, for hexer alone; then a window again, where
    // nobody has anything to use.
    assert_eq!(
        asked(&g),
        ("aim hexer".into(), P1, vec!["wisp".into(), "dummy".into()])
    );
    answer(&mut g, "dummy");
    let told: Vec<String> = notes(&g)
        .into_iter()
        .filter(|n| !n.contains("_end"))
        .collect();
    assert_eq!(
        told,
        [
            "bugle@1",
            "drum wisp@1",
            "aim_again@1",
            "hex dummy@1",
            "battle@1"
        ],
        "drummer worked once, hexer once"
    );
}

/// SM45, SM66 (505.11, 505.12, Gl: Random): a hand attack that can no
/// longer be one (a creature came in during its window) becomes a normal attack, declared
/// anew without paying again; a hand attack takes a random card: the attacker, the
/// opponent of the hand's owner, chooses the kind, then picks blind among options that name
/// no card (the hand shuffled first), in a request only the attacker sees.
#[test]
fn a_hand_attack_picks_blind_and_falls_back_to_a_normal_attack_unpaid() {
    let (b, _) = placed(&[
        (P1, "front", "ace"),
        (P2, "back", "mourner"),
        (P2, "hand", "grunt"),
        (P2, "hand", "wisp"),
        (P2, "hand", "zap"),
    ]);
    let g = start(b, 1, P1, "main");
    assert_eq!(
        offered(&g, "hand attack"),
        Vec::<String>::new(),
        "the back line has someone"
    );
    let (b, _) = placed(&[
        (P1, "front", "ace"),
        (P2, "hand", "grunt"),
        (P2, "hand", "wisp"),
        (P2, "hand", "zap"),
    ]);
    let mut g = start(b, 1, P1, "main");
    answers(&mut g, &["hand attack with ace", "pass"]);
    assert_eq!(
        asked(&g),
        ("kind".into(), P1, vec!["creature".into(), "charm".into()])
    );
    answer(&mut g, "creature");
    let Some(Request::Choose { options, .. }) = g.request().cloned() else {
        panic!()
    };
    assert_eq!(
        options.iter().map(|o| o.label.as_str()).collect::<Vec<_>>(),
        ["card 1", "card 2"]
    );
    assert!(options.iter().all(|o| o.card.is_none()), "no card named");
    assert!(g.view(P2).request.is_none(), "P2 sees no request");
    answer(&mut g, "card 2");
    assert_eq!(names_in(&g, "hand", P2).len(), 2);
    assert_eq!(names_in(&g, "graveyard", P2).len(), 1);

    let (b, _) = placed(&[
        (P1, "front", "ace"),
        (P2, "hand", "pixie"),
        (P2, "hand", "grunt"),
    ]);
    let mut g = start(b, 1, P1, "main");
    answers(&mut g, &["hand attack with ace", "cast pixie", "front"]);
    assert!(notes(&g).contains(&"cast_end@2".to_string()));
    assert_eq!(notes(&g).last().unwrap(), "now_normal@1");
    assert_eq!(
        asked(&g),
        ("attack_target".into(), P1, vec!["pixie".into()])
    );
    answer(&mut g, "pixie");
    assert_eq!(value(&g, P1, "mana"), 9, "paid once");
    assert_eq!(names_in(&g, "graveyard", P2), ["pixie"]);
}

/// SM46, SM49, SM54 (605.12, 700.1, 710.1, 710.2, 616.4): a skill may order
/// a follow-up command: the skill's step runs the attack procedure nested (`ctx:procedure`),
/// free, with its own window, and the creature stays ready until the skill ends; an effect
/// that acts like a command runs the same procedure with no window at all.
#[test]
fn a_follow_up_command_runs_nested_and_free_and_an_effect_like_one_has_no_window() {
    let (b, ids) = placed(&[
        (P1, "front", "lancer"),
        (P2, "front", "dummy"),
        (P2, "hand", "zap"),
    ]);
    let mut g = start(b, 1, P1, "main");
    let asks = trail(&mut g, &["use lancer", "pass", "dummy", "pass"]);
    assert_eq!(
        asks,
        ["main@1", "interfere@2", "attack_target@1", "interfere@2"]
    );
    let told: Vec<String> = notes(&g).into_iter().filter(|n| n != "battle@1").collect();
    assert_eq!(
        told,
        [
            "attack_end@1",
            "after the follow-up: ready@1",
            "skill_end@1"
        ]
    );
    assert_eq!(value(&g, P1, "mana"), 8, "the skill's 2, the attack free");
    assert_eq!(seen(&g, ids[0]).orientation, "tired", "after the skill");

    let (b, _) = placed(&[
        (P1, "front", "goad"),
        (P2, "front", "dummy"),
        (P2, "hand", "zap"),
    ]);
    let mut g = start(b, 1, P1, "main");
    let asks = trail(&mut g, &["use goad", "pass", "dummy"]);
    assert_eq!(asks, ["main@1", "interfere@2", "attack_target@1"]);
    assert_eq!(asked(&g).0, "main", "the attack had no window");
    assert_eq!(names_in(&g, "graveyard", P2), ["dummy"]);
}

/// SM47 (507.5-507.12): a multiple attack pays once, goes round its steps
/// once per attack (a loop counter in its record), each time with its own window.
#[test]
fn a_multiple_attack_pays_once_and_has_a_window_each_time() {
    let (b, ids) = placed(&[
        (P1, "front", "twinblade"),
        (P2, "front", "grunt"),
        (P2, "front", "wisp"),
        (P2, "hand", "zap"),
    ]);
    let mut g = start(b, 1, P1, "main");
    let asks = trail(
        &mut g,
        &["attack with twinblade", "grunt", "pass", "wisp", "pass"],
    );
    assert_eq!(
        asks,
        [
            "main@1",
            "attack_target@1",
            "interfere@2",
            "attack_target@1",
            "interfere@2"
        ]
    );
    assert_eq!(
        notes(&g),
        ["battle@1", "again@1", "battle@1", "attack_end@1"]
    );
    assert_eq!(value(&g, P1, "mana"), 9);
    assert_eq!(seen(&g, ids[0]).orientation, "tired");
    assert_eq!(names_in(&g, "graveyard", P2), ["grunt", "wisp"]);
}

/// SM48 (619.1-619.13): a skill from the hand is declared by its name
/// alone (the `declared` event names no card, and the opponent's log shows none), paid, then
/// the window; only then is a card of that name bound, chosen privately (a request only its
/// decider sees) and revealed; with none left in the hand the skill ends, its cost spent.
#[test]
fn a_hand_skill_is_declared_by_name_and_bound_to_a_card_after_the_window() {
    let (b, _) = placed(&[
        (P1, "front", "grunt"),
        (P1, "hand", "trick"),
        (P1, "hand", "trick"),
        (P2, "front", "dummy"),
        (P2, "hand", "scatter"),
    ]);
    let mut g = start(b, 1, P1, "main");
    assert_eq!(
        offered(&g, "declare"),
        ["declare trick"],
        "one name, two cards"
    );
    let from = g.log().len();
    answer(&mut g, "declare trick");
    let declared = events(&g, "declared", from);
    assert_eq!(declared.len(), 1);
    assert_eq!(declared[0].card, None);
    let named = declared[0]
        .data
        .iter()
        .any(|(k, v)| k == "name" && *v == riffle_core::values::Val::Str("trick".into()));
    assert!(named, "{:?}", declared[0].data);
    assert_eq!(value(&g, P1, "mana"), 9, "paid before the card is known");
    answers(&mut g, &["pass"]);
    assert_eq!(asked(&g).0, "which");
    assert!(g.view(P2).request.is_none(), "a private choice");
    assert_eq!(asked(&g).1, P1);
    let first = asked(&g).2[0].clone();
    answer(&mut g, &first);
    assert!(notes(&g).contains(&"trick@1".to_string()));

    // The second time, P2 scatters P1's hand in the window: no card to bind.
    answers(&mut g, &["declare trick", "cast scatter"]);
    assert!(notes(&g).contains(&"no_card@1".to_string()));
    assert_eq!(value(&g, P1, "mana"), 8, "spent all the same");
    assert!(names_in(&g, "hand", P1).is_empty());
}

/// SM50 (500.3, 504.18, 605.15, Gl: extra attack even if Inactive): an
/// attack or a skill leaves its creature tired; a line change or a combination leaves it
/// ready; a creature granted "extra attack" may attack once more while tired (a granted
/// keyword and a use count).
#[test]
fn commands_tire_their_creature_except_line_changes_and_combinations() {
    let (b, ids) = placed(&[
        (P1, "front", "grunt"),
        (P1, "front", "frenzy"),
        (P1, "front", "drake"),
        (P1, "front", "whelp"),
        (P2, "front", "dummy"),
        (P2, "front", "dummy"),
        (P2, "front", "dummy"),
    ]);
    let orientation = |g: &Game, i: usize| seen(g, ids[i]).orientation;
    let mut g = start(b, 3, P1, "main");
    answer(&mut g, "move grunt to back");
    assert_eq!(orientation(&g, 0), "ready");
    answer(&mut g, "combine drake with whelp");
    assert_eq!(orientation(&g, 2), "ready");
    answer(&mut g, "use frenzy");
    assert_eq!(orientation(&g, 1), "tired");
    answers(&mut g, &["attack with frenzy", "dummy"]);
    assert_eq!(orientation(&g, 1), "tired");
    assert!(offered(&g, "attack with frenzy").is_empty(), "once");
    answers(&mut g, &["attack with drake", "dummy"]);
    assert_eq!(orientation(&g, 2), "tired");
}

/// SM60 (601.1.3, 601.2.2, 301.5): abilities work in the field, but not
/// while their card is being cast unless they say so (the ruleset's activate hook reads a
/// flag); an optional one asks; one may work from the graveyard (`zones`).
#[test]
fn abilities_wait_while_their_card_is_cast_optional_ones_ask_and_some_work_from_the_graveyard() {
    let (b, _) = placed(&[
        (P1, "front", "grunt"),
        (P1, "hand", "seer"),
        (P1, "hand", "lark"),
        (P1, "hand", "hopeful"),
        (P1, "graveyard", "ghost"),
        (P2, "front", "dummy"),
    ]);
    let mut g = start(b, 1, P1, "main");
    assert_eq!(notes(&g), ["ghost@1"]);
    answers(
        &mut g,
        &["cast seer", "back", "cast lark", "back", "back 2"],
    );
    answers(&mut g, &["cast hopeful", "back", "back 3"]);
    assert_eq!(
        asked(&g),
        ("optional".into(), P1, vec!["yes".into(), "no".into()])
    );
    answer(&mut g, "yes");
    let told: Vec<String> = notes(&g)
        .into_iter()
        .filter(|n| !n.contains("_end"))
        .collect();
    assert_eq!(
        told,
        [
            "ghost@1",
            "seer entered@1",
            "lark cast@1",
            "hopeful entered@1"
        ],
        "seer's ability waited while it was cast"
    );
}

/// SM64 (603.6.1, 100.4, 603.1): what happens at one moment goes by class
/// (other, destroy, zone change, follow-up: `triggers.classes` and each ability's
/// `priority`), and within a class the attack player's first.
#[test]
fn simultaneous_effects_go_by_class_and_the_attack_players_first() {
    let (b, _) = placed(&[
        (P1, "front", "gust"),
        (P1, "front", "tremor"),
        (P1, "front", "chant"),
        (P2, "front", "echo"),
        (P2, "front", "tremor"),
        (P2, "front", "chant"),
    ]);
    let g = start(b, 2, P2, "main");
    assert_eq!(
        notes(&g),
        [
            "other@2",
            "other@1",
            "destroy@2",
            "destroy@1",
            "move@1",
            "follow_up@2"
        ]
    );
}

/// SM72 (201.11.3, 201.11.4): a charm whose host breaks its exception falls
/// to the graveyard (a check), and one whose condition fails stops affecting (a static
/// ability's `condition`).
#[test]
fn a_charm_falls_when_its_exception_breaks_and_stops_when_its_condition_fails() {
    let (b, ids) = placed(&[
        (P1, "front", "ace"),
        (P1, "under:0", "flameblade"),
        (P1, "under:0", "banner"),
        (P1, "back", "douser"),
        (P2, "front", "dummy"),
    ]);
    let ace = ids[0];
    let mut g = start(b, 1, P1, "main");
    assert_eq!(stat(&g, ace, "power"), 8, "5 + 1 + 2");
    answers(&mut g, &["move ace to back", "back 2"]);
    assert_eq!(
        stat(&g, ace, "power"),
        6,
        "the banner works in the front line only"
    );
    assert!(alive(&g, ids[2]), "and stays");
    answers(&mut g, &["use douser", "ace"]);
    assert_eq!(stat(&g, ace, "power"), 5);
    assert_eq!(names_in(&g, "graveyard", P1), ["flameblade"]);
}

/// SM76 (401.9.6, 201.9.2.2, 709.8.1, 709.9.1): counters count subturns down
/// at each cleanup; a charm whose time runs out goes to the graveyard, a poisoned creature is
/// destroyed when its poison runs out; death destroys as soon as it applies.
#[test]
fn poison_and_hourglasses_run_out_at_cleanups_and_death_destroys_at_once() {
    let (b, ids) = placed(&[
        (P1, "front", "warlock"),
        (P2, "front#poison=2", "grunt"),
        (P2, "front", "ace"),
        (P2, "under:2#doom=1", "hourglass"),
        (P2, "front", "wisp"),
    ]);
    let mut g = start(b, 1, P1, "main");
    answers(&mut g, &["use warlock", "death", "wisp"]);
    assert!(!alive(&g, ids[4]), "death: destroyed at once");
    answer(&mut g, "end");
    assert_eq!(names_in(&g, "graveyard", P2), ["wisp", "hourglass"]);
    assert_eq!(seen(&g, ids[1]).counters["poison"], 1);
    until(&mut g, "main", P2);
    answer(&mut g, "end");
    assert_eq!(
        names_in(&g, "graveyard", P2),
        ["wisp", "hourglass", "grunt"]
    );
}

/// SM78 (Gl: Charging): charging n adds a counter at its owner's checkup
/// while it has fewer than n; other effects may give it more.
#[test]
fn charging_adds_a_counter_at_each_checkup_up_to_its_number() {
    let (b, ids) = placed(&[
        (P1, "front", "battery"),
        (P1, "back", "charger"),
        (P2, "front", "dummy"),
    ]);
    let mut g = start(b, 1, P1, "checkup");
    let charge = |g: &Game| seen(g, ids[0]).counters.get("charge").copied().unwrap_or(0);
    let mut seen_charges = Vec::new();
    for turn in 0..3 {
        until(&mut g, "main", P1);
        seen_charges.push(charge(&g));
        if turn == 1 {
            answers(&mut g, &["use charger", "battery"]);
            seen_charges.push(charge(&g));
        }
        answer(&mut g, "end");
    }
    assert_eq!(seen_charges, [1, 2, 3, 3]);
}

/// SM79 (709.3, 709.12, 709.13, 709.14, 401.2.2): a curse has its own
/// procedure with a window before it applies; it is a flag on the creature; a creature that
/// has a curse of a kind is no target for another of that kind; curing several at once ends
/// them together (one trigger batch: the watcher's two triggers are ordered by its
/// controller); a curse arising in a step where nobody may cast opens a dead window.
#[test]
fn curses_wait_for_their_window_come_once_per_kind_and_end_together() {
    let (b, ids) = placed(&[
        (P1, "back", "warlock"),
        (P1, "back", "warlock"),
        (P1, "back", "warlock"),
        (P1, "back", "lifter"),
        (P2, "front", "grunt"),
        (P2, "front", "ace"),
        (P2, "back", "keeper"),
        (P2, "hand", "zap"),
    ]);
    let grunt = ids[4];
    let mut g = start(b, 1, P1, "main");
    answers(&mut g, &["use warlock", "pass", "stone", "grunt"]);
    assert_eq!(asked(&g).0, "interfere", "the curse's own window");
    assert!(flags(&g, grunt).is_empty(), "not yet");
    answer(&mut g, "pass");
    assert_eq!(flags(&g, grunt), ["stone"]);
    answers(&mut g, &["use warlock", "pass", "stone"]);
    assert_eq!(asked(&g).2, ["ace", "keeper"], "grunt has a stone curse");
    answers(
        &mut g,
        &[
            "ace",
            "pass",
            "use warlock",
            "pass",
            "freeze",
            "grunt",
            "pass",
        ],
    );
    assert_eq!(flags(&g, grunt), ["stone", "freeze"]);
    assert_eq!(place_of(&g, grunt).0, "back");
    answers(&mut g, &["use lifter", "grunt", "pass"]);
    assert_eq!(asked(&g).0, "order_triggers", "ended together");
    assert_eq!(asked(&g).1, P2);
    answer(&mut g, "keeper (flag)");
    assert!(flags(&g, grunt).is_empty());
    assert_eq!(place_of(&g, grunt).0, "back", "it stays in its line");

    let (b, ids) = placed(&[
        (P1, "front", "bell"),
        (P2, "front", "grunt"),
        (P2, "hand", "zap"),
    ]);
    let g = start(b, 3, P1, "checkup");
    assert_eq!(flags(&g, ids[1]), ["stone"], "no window in the checkup");
    assert_eq!(asked(&g).0, "draw", "the next question is the draw");
}

/// SM81 (Gl: Wake Up, 611.3, 611.6): keywords are procedures of the rules:
/// wake up offers, entering the main step, one card with it from the hand or the deck, free,
/// and none while one of the same name is in the field; a growth's conditions take one card
/// each (a matching over the chosen cards).
#[test]
fn wake_up_and_growth_are_procedures_of_the_rules() {
    let (b, _) = placed(&[
        (P1, "front", "grunt"),
        (P1, "hand", "sleeper"),
        (P1, "deck", "sleeper"),
        (P2, "front", "dummy"),
    ]);
    let mut g = start(b, 1, P1, "main");
    assert_eq!(
        asked(&g),
        (
            "wake_up".into(),
            P1,
            vec![
                "wake sleeper from hand".into(),
                "wake sleeper from deck".into(),
                "no wake up".into()
            ]
        )
    );
    answers(&mut g, &["wake sleeper from deck", "front", "front 2"]);
    assert_eq!(names_in(&g, "front", P1), ["grunt", "sleeper"]);
    assert_eq!(value(&g, P1, "mana"), 10, "free");
    answer(&mut g, "end");
    until(&mut g, "main", P1);
    assert_eq!(asked(&g).0, "main", "a sleeper is in the field: no wake up");

    let (b, _) = placed(&[
        (P1, "front", "titan"),
        (P1, "front", "titan"),
        (P1, "front", "ace"),
        (P1, "front", "grunt"),
        (P1, "front", "whelp"),
        (P2, "front", "dummy"),
    ]);
    let mut g = start(b, 1, P1, "main");
    answer(&mut g, "use titan");
    answer_many(&mut g, &["ace", "grunt"]);
    assert_eq!(
        notes(&g)[0],
        "no growth@1",
        "one fire card cannot meet both needs"
    );
    answer(&mut g, "use titan");
    answer_many(&mut g, &["ace", "whelp"]);
    assert!(notes(&g).contains(&"grown@1".to_string()));
    assert_eq!(names_in(&g, "exile", P1), ["ace", "whelp"]);
}

/// SM82 (Gl: Vanish, 515.3): vanish takes a creature that became tired to
/// the exile and arms a delayed ability (`ctx:delay`) that brings it back at the next
/// cleanup, into no line, where it is given one at once.
#[test]
fn vanish_leaves_when_tired_and_comes_back_at_the_cleanup() {
    let (b, _) = placed(&[
        (P1, "front", "vanisher"),
        (P1, "front", "grunt"),
        (P2, "front", "dummy"),
    ]);
    let mut g = start(b, 1, P1, "main");
    answers(&mut g, &["attack with vanisher", "dummy"]);
    assert_eq!(place_of(&g, live(&g, P1, "vanisher")).0, "exile");
    answer(&mut g, "end");
    assert_eq!(
        asked(&g),
        (
            "assign_line".into(),
            P1,
            vec!["front".into(), "back".into()]
        )
    );
    answer(&mut g, "back");
    assert_eq!(place_of(&g, live(&g, P1, "vanisher")).0, "back");
}

/// SM17, SM39 (510.4, 401.9.6): a support forgets the effects on it while it
/// is one, and their subturn counts stop: a "1 Turn" effect (a count-down of two cleanups)
/// given before the combination still has both cleanups to run once the composite splits.
#[test]
fn a_supports_count_down_waits_while_it_is_a_support() {
    let (b, ids) = placed(&[
        (P1, "front", "drake"),
        (P1, "front", "whelp"),
        (P1, "back", "blessing"),
        (P1, "back", "douser"),
        (P2, "front", "dummy"),
    ]);
    let whelp = ids[1];
    let mut g = start(b, 3, P1, "main");
    answers(
        &mut g,
        &["use blessing", "whelp", "combine drake with whelp"],
    );
    assert_eq!(stat(&g, whelp, "power"), 2, "paused");
    answer(&mut g, "end");
    until(&mut g, "main", P2);
    answer(&mut g, "end");
    until(&mut g, "main", P1);
    answers(&mut g, &["use douser", "drake", "right"]);
    assert_eq!(
        stat(&g, whelp, "power"),
        4,
        "two cleanups passed, none counted"
    );
    answer(&mut g, "end");
    assert_eq!(stat(&g, whelp, "power"), 4);
    until(&mut g, "main", P2);
    answer(&mut g, "end");
    assert_eq!(stat(&g, whelp, "power"), 2, "now it ran out");
}
