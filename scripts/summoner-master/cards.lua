-- The card designer's vocabulary: one constructor per kind of ability of SM 601 (Trigger and
-- Continuous Abilities), the Skills of SM 604-608 and 619, the Mystic Card's effect (601.2.4,
-- 610.2.12), and the abbreviations of the glossary (เข้ามา:, Pasted, Alone, Dancing). Each
-- returns a kernel ability record; SM.activate (abilities.lua) works it.
--
-- Which Phase an ability works at is the rules' business: a constructor names the event or the
-- slot (game.yaml `timings`) the procedures ask at that Phase (abilities.lua explains both).
--
-- Common fields: operate(ctx, args) (args.target: the chosen target; args.subject: the card the
-- Phase is about; args.data: the procedure's record; args.event: the event), target(ctx, args)
-- -> the cards it may choose (a slot ability chooses it before the Interfere Step), prompt (the
-- filter's name shown in the choice), condition(ctx, args), optional (a "may", 601.2.2), limit
-- ({X, "subturn" | "turn" | "game"}, with `shared = true` for ([S] X/Y)), unlosable (Gl:
-- (สูญเสียไม่ได้)), box ("growth" or
-- "progress": the ability is in that box, 200.14.3, 200.18.3), whose ("self", "mine", "theirs",
-- "any": whose card the Phase must be about; "self" by default), when(ctx, subject, data),
-- destroys (its target is destroyed or sent to the Shrine: SM 701.1, 713.1), creates (the name
-- of the Extra Card it creates: SM 621.4).

--- A card's ability list.
function card(abilities) return abilities end

--- Where a card's abilities work by default: in the Arena, not while it is being cast or
--- entering (SM 303.5, 601.1.3).
local WORK = { "at_line", "df_line", "no_line", "arena" }
--- The Arena with the casting place: for the abilities of a card being cast or entering.
local WORK_CASTING = { "at_line", "df_line", "no_line", "arena", "casting" }
--- The Shrines (SM 301.5: abilities that work there say so).
local SHRINES = { "seal_shrine", "mystic_shrine" }
--- Every zone outside the Arena (for "when this card leaves the Arena").
local OUTSIDE = { "seal_library", "mystic_library", "hand", "seal_shrine", "mystic_shrine", "remove_zone" }

local FIELD_TYPES = {
  operate = "function", target = "function", condition = "function", when = "function",
  optional = "boolean", prompt = "string", box = "string", whose = "string", interfere = "boolean",
  mode = "string", count = "number", line = "string", hand = "boolean", while_cast = "boolean", charge = "number",
  name = "string", key = "string", step = "string", side = "string",
  unlosable = "boolean", fixed_mp = "number", fixed_charge = "number", sacrifice = "table",
  twinkling = "boolean", destroys = "boolean", creates = "string",
}

--- Checks the common fields when the card loads (riffle validate reports a wrong one at the
--- card's line).
-- The fields the constructors, the kernel and abilities.lua read besides FIELD_TYPES': any
-- other is an error when the card loads, since it would be ignored. SET_BY_CONSTRUCTORS are
-- read too, but the constructors set them.
local READ = { "cost", "limit", "zones", "modify", "affects", "replaces", "applies", "replace", "dormant",
  "attached", "form", "phase2" }
local SET_BY_CONSTRUCTORS = { "kind", "on", "match", "timing", "slot", "priority" }
local KNOWN = {}
for k in pairs(FIELD_TYPES) do KNOWN[#KNOWN + 1] = k end
for _, k in ipairs(READ) do KNOWN[#KNOWN + 1] = k end
-- Fields written beside the one they belong in.
local MOVED = {
  shared = "it belongs inside `limit`: limit = {X, \"turn\", shared = true} (Gl: ([S] X/Y))",
  per = "a limit's period is its second entry: limit = {X, \"turn\"}",
}

local KNOWN_FIELDS = util.fields(KNOWN, SET_BY_CONSTRUCTORS) -- made once: every ability of every card is checked

local function checked(a, extra)
  if extra then
    util.check_known(a, util.concat(KNOWN, extra), "this ability", MOVED, SET_BY_CONSTRUCTORS)
  else
    util.check_fields(a, KNOWN_FIELDS, "this ability", MOVED)
  end
  util.check_types(a, FIELD_TYPES)
  if a.box ~= nil and a.box ~= "growth" and a.box ~= "progress" then
    error("`box` should be \"growth\" or \"progress\"", 0)
  end
  if a.whose ~= nil and not util.contains({ "self", "mine", "theirs", "any" }, a.whose) then
    error("`whose` should be \"self\", \"mine\", \"theirs\" or \"any\"", 0)
  end
  if a.limit ~= nil then
    local l = a.limit
    if type(l) ~= "table" or type(l[1]) ~= "number" or not util.contains({ "subturn", "turn", "game" }, l[2] or "") then
      error("`limit` should be {X, \"subturn\" | \"turn\" | \"game\"} (Gl: (X/Y))", 0)
    end
    l.per = l[2]
  end
  -- SM 701.1, 713.1: a target to destroy (or send to the Shrine) is not one being destroyed nor
  -- a battle's loser.
  if a.destroys and a.target then
    local target = a.target
    a.target = function(ctx, args) return those(SM.list(target(ctx, args)), F.destroyable) end
  end
  -- SM 621.4: once the Extra's Capacity is used up, a Skill that creates it is not offered and
  -- an Ability that does does not work.
  if a.creates then
    local cond, name = a.condition, a.creates
    a.condition = function(ctx, args)
      return SM.may_create_named(ctx, ctx.player, name) and (cond == nil or cond(ctx, args))
    end
  end
  -- Gl: (สูญเสียไม่ได้), Hyper Drive: a text its card lost does not work (protection.lua); Gl:
  -- (Zone X up Work Y), the card's `work`: an Ability beyond the first Y does not (limits.lua).
  local cond = a.condition
  local is_skill = SM.timing_of(a) == "skill" -- (read once: the constructors set `timing` before)
  a.condition = function(ctx, args)
    local src = ctx.source
    if src ~= nil then
      if SM.text_lost(src, a) then return false end
      if not is_skill and not SM.works_here(ctx, src) then return false end
    end
    return cond == nil or cond(ctx, args)
  end
  return a
end

-- Trigger Abilities that choose and work at one Phase (SM 601.2) ----------------------------------

local function triggered(a, on, match, zones)
  a.kind, a.on = "triggered", on
  a.zones = a.zones or zones or WORK
  a.match = a.match or match
  return checked(a)
end

--- "When a player commands / declares ..." (SM 504.5, 512.5, 605.6 ...: FIRE-NOW): `key` names
--- the command (attack, hand_attack, all_attack, multiple_attack, combination, break, line,
--- skill, hand_skill); whose = "self" (this card commanded, the default), "mine" or "theirs".
function on_declare(a)
  local key, whose = a.key, a.whose or "self"
  a.whose = nil
  local match = whose == "self" and { card = "self" } or nil
  local when = a.when
  a.when = function(ctx, ev)
    if key ~= nil and ev.key ~= key then return false end
    if whose == "mine" and ev.player ~= ctx.player then return false end
    if whose == "theirs" and ev.player == ctx.player then return false end
    return when == nil or when(ctx, ev)
  end
  return triggered(a, "declared", match)
end

--- "When this card is cast" (SM 610.1.4-610.1.5, 610.2.6-610.2.7): it works while being cast.
function when_cast(a)
  a.while_cast = true
  return triggered(a, "cast", { card = "self" }, { "casting" })
end

--- "When this card's cast succeeds" (SM 610.1.13.3, 610.2.12.2).
function on_cast_success(a) return triggered(a, "cast_success", { card = "self" }) end

--- "When this Seal's attack succeeds" (SM 504.16, 505.13, 506.13); `attacked = true`: "when this
--- Seal is attacked successfully" (it was the Attacked Seal).
function on_attack_success(a)
  local m = a.attacked and { target = "self" } or { card = "self" }
  a.attacked = nil
  return triggered(a, "attack_success", m)
end

--- "When the battle ends" (SM 504.16), for the Attacking Seal or (`attacked = true`) the Attacked;
--- `won = true`: only when the other Seal lost the battle and this one did not (504.15).
function on_battle_end(a)
  local attacked, won, when = a.attacked, a.won, a.when
  local m = attacked and { target = "self" } or { card = "self" }
  a.attacked, a.won = nil, nil
  if won then
    local wins = attacked and "attacker" or "attacked"
    a.when = function(ctx, ev) return ev.result == wins and (when == nil or when(ctx, ev)) end
  end
  return triggered(a, "battle_ended", m)
end

--- "When this card is destroyed" (SM 701.2-701.5): it works while the card is still in the
--- Arena, before it goes to the Shrine.
function when_destroyed(a) return triggered(a, "destroyed", { card = "self" }) end

--- "When this card is discarded" (SM 702.2-702.5), from the hand.
function when_discarded(a) return triggered(a, "discarded", { card = "self" }, { "hand" }) end

--- "When this Seal is cursed" (SM 709.14.1).
function when_cursed(a) return triggered(a, "cursed", { card = "self" }) end

--- "When entering <step>" (SM 401.x): `step` is check_up, draw, discard, main, mp_clean_up,
--- fill_up or end_of_subturn; `side` "attack" (its controller's attack Subturn, the default) or
--- "defense"; step = "subturn" for "when entering the attack / defense Subturn" (401.2.3,
--- 401.2.4), "end" for "at the end of the (attack / defense) Subturn" (401.9.2, 401.9.3).
function on_step(a)
  local step, side = a.step, a.side or "attack"
  a.step, a.side = nil, nil
  local match = { turn = side == "attack" and "self" or "other" }
  if step == "subturn" then return triggered(a, "subturn_began", match) end
  if step == "end" then return triggered(a, "subturn_ended", match) end
  local when = a.when
  a.when = function(ctx, ev) return ev.key == step and (when == nil or when(ctx, ev)) end
  return triggered(a, "step_began", match)
end

--- Any other "when ...": `on` an event of the reference (docs/reference/summoner-master.md),
--- `when(ctx, ev)` says whether it is this ability's; `match` may test what the kernel can.
function on_event(a)
  assert(a.on and a.when, "on_event needs `on` and `when`")
  return triggered(a, a.on, a.match)
end

-- Slot abilities: chosen, then worked after an Interfere Step ------------------------------------

local function slot(a, timing, zones)
  a.kind, a.timing = "activated", timing
  a.zones = a.zones or zones or WORK
  a.slot = true
  return checked(a)
end

--- "When this card enters the Arena" (เข้ามา:, SM 610.1.9, 610.1.13.3; 708.1.8.2; 617.1.10):
--- chosen while it is being cast, working when the cast succeeds.
function when_enters(a) return slot(a, "enters", WORK_CASTING) end

--- A Mystic Card's effect when its cast succeeds (SM 601.2.4: a 0-Turn Mystic's text; 610.2.8,
--- 610.2.12.2): its target is chosen before the cast's Interfere Step. Without a target that
--- can be chosen the card cannot be cast (610.2.3); with none left after the Interfere Step it
--- goes to the Shrine (610.2.10).
function spell(a)
  -- It is listed from the hand (a cast's options) to its success: a PA, PS or x-Turn card is in the
  -- Arena by then (610.2.12.1), the others still where they are cast.
  return slot(a, "effect", { "hand", "extra", "casting", "arena", "at_line", "df_line", "no_line" })
end

--- "When this Seal attacks" (SM 504.7, 505.8, 506.7).
function when_attacks(a) return slot(a, "attacks") end
--- "When this Seal is attacked" (SM 504.8, 506.8).
function when_attacked(a) return slot(a, "attacked") end
--- "When this Seal deals (fights)" (SM 504.9, 504.14).
function when_dealing(a) return slot(a, "dealing") end
--- "When this Seal combines" (SM 512.6, 512.11).
function when_combines(a) return slot(a, "combines") end
--- "When this Seal separates" (SM 514.4, 514.9).
function when_separates(a) return slot(a, "separates") end
--- "When this Seal changes Line / is assigned a Line" (SM 516.4, 516.9).
function when_line_change(a) return slot(a, "line_change") end
--- "When a card uses a Skill" (SM 605.8); whose = "self" for this card's own Skills.
function when_uses_skill(a) return slot(a, "uses_skill") end
--- "When this Seal grows" (SM 614.4, 614.11).
function when_grows(a) return slot(a, "growth") end
--- "When this card goes to the Shrine" (SM 703.3, 703.7; 601.1.5: after the Shrine's Levels are
--- counted): it works from the Shrine.
function when_falls(a) return slot(a, "falls", SHRINES) end
--- "When this card returns to the Library" (SM 704.3, 704.7).
function when_to_library(a) return slot(a, "to_library", { "seal_library", "mystic_library" }) end
--- "When this card goes to the hand" (SM 705.3, 705.7).
function when_to_hand(a) return slot(a, "to_hand", { "hand" }) end
--- "When this card is Removed" (SM 706.3, 706.7).
function when_removed(a) return slot(a, "removed", { "remove_zone" }) end
--- "When this card leaves the Arena" (SM 703.3, 704.3, 705.3, 706.3): it works where it went.
function when_leaves(a) return slot(a, "leaves", OUTSIDE) end

--- Dancing (Gl: Dancing, Dancing At Line, Dancing Df Line): commanded to change Line into `line`
--- ("at_line" or "df_line"), on success its effect works, once per Subturn, and the Seal cannot
--- be a Support until the end of the Subturn.
function dancing(a)
  local line, when, operate = a.line, a.when, a.operate
  if line ~= "at_line" and line ~= "df_line" then error("dancing needs `line = \"at_line\"` or \"df_line\"", 0) end
  a.line = nil
  a.when = function(ctx, subj, d)
    return d.kind == "line" and d.line == line and (when == nil or when(ctx, subj, d))
  end
  a.limit = a.limit or { 1, "subturn" }
  a.operate = function(ctx, args)
    if ctx.source.alive then ctx:use(ctx.source, "danced") end
    if operate then operate(ctx, args) end
  end
  return slot(a, "line_change")
end

-- Continuous Abilities (SM 601.3) -----------------------------------------------------------------

--- A Continuous Ability (SM 601.3.2: an unmarked ability works while its card is in the Arena):
--- `modify` (a list of plus_at(n), plus_df(n), plus_sp(n), gains(k)...) applies to `affects`
--- ("bearer": this Seal, or for a pasted Mystic Card the card it is pasted on; or a function
--- (ctx, card)) while `condition(ctx)` holds (601.3.3: "as long as", "while").
function continuous(a)
  a.kind, a.zones = "static", a.zones or WORK
  a.affects = a.affects or "bearer"
  if type(a.affects) == "function" then
    -- Gl: Protect, Cancel, Except: a card protected from this card, or cancelling it, is not
    -- affected (201.11.4: a Mystic Card's exception). Reading keywords and protections where the
    -- ability changes them reads the printed ones only.
    local affects, own = a.affects, false
    for _, m in ipairs(a.modify or {}) do
      if m.char == "keywords" or m.char == "protections" or m.char == "cancels" then own = true end
    end
    a.affects = function(ctx, c) return affects(ctx, c) and SM.static_affects(ctx, c, own) end
  end
  if a.box ~= nil then
    -- SM 200.14.3, 200.18.3: a box's Continuous Ability exists once the box does.
    local cond, box = a.condition, a.box
    a.condition = function(ctx) return SM.box_open(ctx.source, { box = box }) and (cond == nil or cond(ctx)) end
  end
  return checked(a)
end

--- A prohibition's ability (prohibitions.lua): a static ability tagged `prohibits` where the
--- card's abilities work, checked as every other (a lost text does not forbid); `fields` are
--- the prohibition's own.
function SM.prohibition_ability(a, fields)
  a.kind, a.timing, a.zones = "static", "prohibits", a.zones or WORK
  return checked(a, fields)
end

--- Pasted [condition]: [effect on the card it is pasted on] (Gl: Pasted): a PS or PM Mystic
--- Card's effect on its host, while pasted.
function pasted(a)
  local cond = a.condition
  a.condition = function(ctx) return ctx.source.host ~= nil and (cond == nil or cond(ctx)) end
  return continuous(a)
end

--- Alone: [effect] (Gl: Alone): as long as its controller has no other Seal (for a Mystic Card:
--- no other Mystic Card) in the Arena.
function alone(a)
  local cond = a.condition
  a.condition = function(ctx)
    local me = ctx.source
    local others
    if SM.is_seal(me) then others = SM.seals(ctx, me.controller) else others = SM.mystics(ctx, me.controller) end
    -- SM 609.5, 707.2: a card being cast or entering is in the Arena already.
    for _, c in ipairs(ctx:cards("casting", me.controller)) do
      if c.category == me.category then others[#others + 1] = c end
    end
    for _, c in ipairs(others) do
      if c ~= me then return false end
    end
    return cond == nil or cond(ctx)
  end
  return continuous(a)
end

--- For continuous{}: At+N (negative: -N), Df+N, Sp+N (SM 602.4.1: a Changing Power Effect).
function plus_at(n) return { char = "at", op = "add", value = n } end
function plus_df(n) return { char = "df", op = "add", value = n } end
function plus_sp(n) return { char = "sp", op = "add", value = n } end
--- For continuous{}: the card's cast Mp (its attack Mp) N more, negative: less (SM 200.10.2;
--- below 0 it reads 0). With `affects`: "your opponent's Seals cost Mp 1 more to cast".
function plus_cast_mp(n) return { char = "cast_mp", op = "add", value = n } end
function plus_attack_mp(n) return { char = "attack_mp", op = "add", value = n } end
--- For continuous{}: "must have At N" (SM 602.3.2: setting a value, by timestamp).
function set_at(n) return { char = "at", op = "set", value = n } end
--- For continuous{}: gains a keyword or a prohibition (cannot_attack...).
function gains(k) return { char = "keywords", op = "grant", value = k } end
--- For continuous{}: the card's Skills cost Mp N more (negative: less; Gl: Fixed Mp ones do not).
function plus_skill_mp(n) return { char = "skill_mp", op = "add", value = n } end

-- Skills (SM 604-608, 619) -------------------------------------------------------------------------

--- An ability's timing for the rules: its `timing`, or the first of its timings (a Skill with
--- Interfere has two: "skill" and "interfere_skill").
function SM.timing_of(def)
  local t = def.timing
  if type(t) == "table" then return t[1] end
  return t
end

local SKILL_MODES = { normal = true, all = true, multiple = true, two_phase = true }

--- A Skill its controller commands (SM 600.3, 604): `cost` (Mp, or nil), `charge` (Charged
--- Counters removed from this card, Gl: Charged Counter 2), `target(ctx)` (605.4:
--- with no target to choose it cannot be commanded; 605.7: chosen after paying), `operate(ctx,
--- args)` (args.target), `mode` "normal" (605, the default), "all" (606: args.player is the
--- opponent), "multiple" with `count` (607) or "two_phase" with `phase2 = {target, operate}`
--- (608); `interfere = true` (also in an Interfere Step, 615.5); `line` ("at_line" or "df_line")
--- or `form` (a special move's name) it needs (604.6.1); `hand = true` for a Skill of a card in
--- the hand (619); `limit`; `condition(ctx)`.
function skill(a)
  -- SM 615.5: a Skill with Interfere has a second timing, which the Interfere Steps list alone.
  a.kind, a.timing = "activated", a.interfere and { "skill", "interfere_skill" } or "skill"
  a.mode = a.mode or (a.phase2 and "two_phase") or "normal"
  if not SKILL_MODES[a.mode] then error("`mode` should be normal, all, multiple or two_phase", 0) end
  if a.mode == "multiple" and type(a.count) ~= "number" then error("a multiple Skill needs `count`", 0) end
  if a.cost ~= nil and type(a.cost) ~= "number" then error("`cost` should be the Skill's Mp (a number)", 0) end
  if a.cost ~= nil and a.fixed_mp ~= nil then error("a Skill has `cost` or `fixed_mp` (Gl: Fixed Mp), not both", 0) end
  if a.twinkling and not a.hand then error("a Twinkling Skill is a Skill of the hand: `hand = true` (Gl: Twinkling)", 0) end
  -- Gl: Twinkling: its card leaves the hand as its cost; the Skill works from where it went.
  if a.twinkling then a.zones = a.zones or { "hand", "seal_shrine", "mystic_shrine", "remove_zone" } end
  a.zones = a.zones or (a.hand and { "hand" }) or WORK
  return checked(a)
end

-- Replacement -------------------------------------------------------------------------------------

--- "Instead of A, B": `replaces` an operation kind (move...), tested by `match` and
--- `applies(ctx, op)`; `replace(ctx, op)` returns what happens instead (nil: nothing).
function replacement(a)
  a.kind, a.zones = "replacement", a.zones or WORK
  local applies = a.applies
  -- Gl: (สูญเสียไม่ได้), Hyper Drive: a lost text does not replace.
  a.applies = function(ctx, op)
    if ctx.source ~= nil and SM.text_lost(ctx.source, a) then return false end
    return applies == nil or applies(ctx, op)
  end
  return checked(a)
end

-- Protect and Cancel an effect gives (Gl: Protect, Cancel) ----------------------------------------

--- Protect or Cancel that an effect gives a card (protection.lua): a dormant ability the card's
--- script declares, given by `grant_protection(ctx, cards, it, duration)`: `protect` and/or
--- `cancel`, each a thing or a list of things ({card = "mystic"}, {curse = "any"}...).
function protection(a)
  if a.protect == nil and a.cancel == nil then error("protection needs `protect` or `cancel` (a thing or a list)", 0) end
  a.kind, a.dormant, a.affects, a.modify = "static", true, "self", {}
  return a
end
