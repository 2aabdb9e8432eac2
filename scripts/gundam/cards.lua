-- The card designer's vocabulary: one constructor per timing keyword of GD 13-2 and per kind
-- of effect of 10-1-4 (constant, triggered, activated, Command, replacement), plus "at the
-- start / end of your turn" (7-2-4, 7-6-4) and "when ..." texts (10-1-6-1).
-- Each returns a kernel ability record; GD.activate (effects.lua) runs it.
--
-- "This unit" in a Pilot's text is the Unit it is paired with (GD 3-3-9-2): the constructors
-- match the ability's *bearer* (the card its card is attached to, or the card itself), so the
-- same 【Attack】 works on a Unit and on a Pilot's lower text.
--
-- Common fields: condition(ctx), cost (a cost of effects.lua: Cost.pay(1), Cost.rest_self(),
-- Cost.discard(1), Cost.all(...)), operate(ctx, args), optional (a "you may" text, 10-1-3),
-- once_per_turn (【Once per Turn】, 13-2-13), target(ctx) (the cards a Command must be able to
-- choose before it is played: 10-1-8-1-1).

--- A card's ability list.
function card(abilities) return abilities end

-- Where the text of a Unit or Base works (GD 2-11-2, 10-1-2); a Pilot's lower text works
-- there too, under its Unit (3-3-9-2).
local FIELD = { "battle_area", "base_section" }

local FIELD_TYPES = {
  once_per_turn = "boolean", optional = "boolean", condition = "function", operate = "function",
  target = "function", main = "boolean", action = "boolean",
}

-- The fields each kind of ability reads (the kernel's and GD.activate's): any other is an
-- error when the card loads, since it would be ignored. SET_BY_CONSTRUCTORS are read too, but
-- the constructors set them.
local SET_BY_CONSTRUCTORS = { "kind", "keyword", "on", "timing", "burst", "priority" }
local READ_BY_ALL = { "zones", "dormant", "unlosable", "attached" }
local READ_BY_KIND = {
  triggered = { "match", "when", "operate", "condition", "cost", "optional", "once_per_turn", "target" },
  activated = { "operate", "condition", "cost", "optional", "once_per_turn", "target", "main", "action" },
  static = { "modify", "affects", "condition", "target" },
  replacement = { "replaces", "match", "applies", "replace", "optional", "once_per_turn" },
}

--- Checks the common fields when the card loads (`riffle validate` reports a wrong one at the
--- card's line, not when a game first reads it), and turns a cost into the ability's
--- condition and payment. `what` names the constructor, `extra` the fields only it reads.
-- What each kind reads, made once (every ability of every card is checked when it loads).
local FIELDS_BY_KIND = {}
for kind, fields in pairs(READ_BY_KIND) do
  FIELDS_BY_KIND[kind] = util.fields(util.concat(READ_BY_ALL, fields), SET_BY_CONSTRUCTORS)
end
local FIELDS_OF_ALL = util.fields(READ_BY_ALL, SET_BY_CONSTRUCTORS)

local function checked(a, what, extra)
  if extra then
    util.check_known(a, util.concat(READ_BY_ALL, READ_BY_KIND[a.kind] or {}, extra), what or a.kind, nil,
      SET_BY_CONSTRUCTORS)
  else
    util.check_fields(a, FIELDS_BY_KIND[a.kind] or FIELDS_OF_ALL, what or a.kind)
  end
  util.check_types(a, FIELD_TYPES)
  local cost = a.cost
  if cost ~= nil then
    if type(cost) ~= "table" or type(cost.pay) ~= "function" or type(cost.can_pay) ~= "function" then
      error("`cost` should be a cost of effects.lua (Cost.pay(1), Cost.rest_self(), Cost.discard(1), Cost.all(...))", 0)
    end
    a.cost_spec, a.cost = cost, nil
    if a.kind == "triggered" and a.optional == nil then a.optional = true end -- GD 10-1-7-2: "you may pay"
  end
  return a
end

--- A triggered ability: `on` an event, tested by `match` (kernel) and `when(ctx, ev)` (Lua).
local function triggered(a, on, match, zones, what, extra)
  a.kind, a.on = "triggered", on
  a.zones = a.zones or zones or FIELD
  a.match = match
  return checked(a, what, extra)
end

-- Triggered (GD 10-1-6) ------------------------------------------------------------------------

--- 【Deploy】 (GD 13-2-6): when this Unit or Base is deployed.
function on_deploy(a) a.keyword = "【Deploy】" return triggered(a, "deployed", { card = "self" }, nil, "on_deploy") end

--- 【Attack】 (GD 13-2-7, 8-2-2): when this unit's attack is declared.
function on_attack(a) a.keyword = "【Attack】" return triggered(a, "attack_declared", { card = "bearer" }, { "battle_area" }, "on_attack") end

--- 【Destroyed】 (GD 13-2-8): when this Unit or Base is destroyed (not removed, nor trashed by
--- the rules: 5-10-4); it resolves from the trash with what the card was on the field
--- (13-2-8-2-1: ctx.source reads its last-known values).
function on_destroyed(a)
  a.keyword = "【Destroyed】"
  return triggered(a, "moved", { old = "self", reason = "destroyed", to = "trash" }, nil, "on_destroyed")
end

--- 【When Paired】 (GD 13-2-9): when a Pilot is paired with this unit; `pilot = filter` for
--- 【When Paired・(condition)】 (13-2-9-2). Written on a Pilot, it is that Pilot's pairing.
function when_paired(a)
  local f = a.pilot
  if f ~= nil then
    a.when = function(ctx, ev) return f(ev.target) end
  end
  a.keyword = "【When Paired】"
  return triggered(a, "paired", { card = "bearer" }, { "battle_area" }, "when_paired", { "pilot" })
end

--- 【When Linked】 (GD 13-2-11): when a Pilot meeting this unit's link condition is paired.
function when_linked(a) a.keyword = "【When Linked】" return triggered(a, "linked", { card = "bearer" }, { "battle_area" }, "when_linked") end

--- "When this unit blocks" (GD 8-3, 7-1-3).
function when_blocking(a) a.keyword = "when blocking" return triggered(a, "blocked", { card = "bearer" }, { "battle_area" }, "when_blocking") end

--- "At the start of your turn" (GD 7-2-4-1).
function start_of_your_turn(a) a.keyword = "at the start of your turn" return triggered(a, "start_step", { turn = "self" }, nil, "start_of_your_turn") end

--- "At the end of your turn" (GD 7-6-4-1).
function end_of_your_turn(a) a.keyword = "at the end of your turn" return triggered(a, "end_step", { turn = "self" }, nil, "end_of_your_turn") end

--- A "when ..." text without a keyword (GD 10-1-6-1): `on` names the event (game.yaml
--- `events`, or the kernel's: `moved`, `counter`, `turned`...), `when(ctx, ev)` says whether it
--- is this ability's; `match` may test what the kernel can first.
function on_event(a)
  assert(a.on and a.when, "on_event needs `on` and `when`")
  a.keyword = a.keyword or "effect"
  return triggered(a, a.on, a.match, nil, "on_event")
end

-- Activated (GD 10-1-7) ------------------------------------------------------------------------

--- 【Activate･Main】 (GD 13-2-1): in your main phase, not during a battle.
function activate_main(a)
  a.kind, a.timing, a.zones = "activated", "main", a.zones or FIELD
  a.keyword = "【Activate･Main】"
  return checked(a, "activate_main")
end

--- 【Activate･Action】 (GD 13-2-2): in an action step.
function activate_action(a)
  a.kind, a.timing, a.zones = "activated", "action", a.zones or FIELD
  a.keyword = "【Activate･Action】"
  return checked(a, "activate_action")
end

--- A Command's effect (GD 10-1-8, 3-4): `main = true` (【Main】, 13-2-3), `action = true`
--- (【Action】, 13-2-4), or both. Played from the hand; it resolves in no area (3-4-3). Its
--- timings: `command`, and `command_main`, `command_action` as it says, so a listing asks
--- for the Commands of its timing only.
function command(a)
  if not a.main and not a.action then error("a command needs `main = true`, `action = true` or both", 0) end
  local timings = { "command" }
  if a.main then timings[#timings + 1] = "command_main" end
  if a.action then timings[#timings + 1] = "command_action" end
  a.kind, a.timing, a.zones = "activated", timings, { "hand", "limbo" }
  return checked(a, "command")
end

--- 【Burst】 (GD 13-2-5): when this card, as a shield, is destroyed and turned face up, its
--- owner may resolve this without paying a cost, before the card goes to the trash
--- (13-2-5-1/3). It triggers on the `shield_destroyed` event while the card waits in no area
--- (4-1-2), and resolves before any other waiting effect (10-1-6-8: priority class `burst`).
--- It is found while the card is still a shield (5-10-3: GD.destroy_shield checks for it).
function burst(a)
  a.kind, a.on, a.zones = "triggered", "shield_destroyed", { "shields", "limbo" }
  a.match, a.priority, a.burst = { card = "self" }, "burst", true
  return checked(a, "burst")
end

-- Constant (GD 10-1-5) ---------------------------------------------------------------------------

-- constant{} for another constructor, `what` naming it.
local function constant_of(a, what)
  a.kind, a.zones = "static", a.zones or FIELD
  a.affects = a.affects or "bearer"
  return checked(a, what)
end

--- A constant effect while this card is on the field (GD 10-1-5-1): `modify` (a list of
--- `plus_ap(n)`, `gains(k)`...) applies to `affects` ("bearer": this unit, the default; or
--- a function (ctx, card)) while `condition` holds (10-1-5-3).
function constant(a) return constant_of(a, "constant") end

--- 【During Pair】 (GD 13-2-10): a constant effect while a Pilot (passing `pilot`, if given:
--- 【During Pair・(condition)】) is paired with this unit.
function during_pair(a)
  local f, cond = a.pilot, a.condition
  a.condition = function(ctx)
    local p = GD.this_unit(ctx).attachments[1]
    return p ~= nil and (f == nil or f(p)) and (cond == nil or cond(ctx))
  end
  a.pilot = nil
  return constant_of(a, "during_pair")
end

--- 【During Link】 (GD 13-2-12): a constant effect while this unit is a Link Unit.
function during_link(a)
  local cond = a.condition
  a.condition = function(ctx) return GD.is_link(GD.this_unit(ctx)) and (cond == nil or cond(ctx)) end
  return constant_of(a, "during_link")
end

--- For constant{}: "AP+N" / "HP+N" (negative: −N).
function plus_ap(n) return { char = "ap", op = "add", value = n } end
function plus_hp(n) return { char = "hp", op = "add", value = n } end
--- For constant{}: "costs N more" (negative: "N less"); with `affects`, the cards it changes
--- (in the hand: "your opponent's Commands cost 1 more"). A cost reads 0 at least (GD 2-10).
function plus_cost(n) return { char = "cost", op = "add", value = n } end
--- For constant{}: "gains 〈keyword〉" (blocker, first_strike, high_maneuver, suppression) or a prohibition.
function gains(k) return { char = "keywords", op = "grant", value = k } end
--- For constant{}: "gains 〈Repair N〉 / 〈Breach N〉 / 〈Support N〉" (they add up: 13-1-1-2).
function gains_value(k, n) return { char = k, op = "add", value = n } end

-- Replacement (GD 10-1-9) --------------------------------------------------------------------------

--- "Instead of A, do B" (GD 10-1-9-1): `replaces` an operation kind (move, counter...), tested
--- by `match` and `applies(ctx, op)`; `replace(ctx, op)` returns what happens instead (nil:
--- nothing). Concession is never replaced (1-2-5: it is not an operation).
--- With `once_per_turn = true` it replaces at most once per turn for its card (13-2-13).
function replacement(a)
  a.kind, a.zones = "replacement", a.zones or FIELD
  util.check_fields(a, FIELDS_BY_KIND.replacement, "replacement",
    { condition = "a replacement's condition is `applies(ctx, op)`" })
  if a.once_per_turn then
    local applies, replace = a.applies, a.replace
    a.applies = function(ctx, op)
      if ctx:uses(ctx.source, "replacement") > 0 then return false end
      return applies == nil or applies(ctx, op)
    end
    a.replace = function(ctx, op)
      ctx:use(ctx.source, "replacement")
      return replace(ctx, op)
    end
  end
  return checked(a, "replacement")
end
