-- The card designer's vocabulary: one constructor per timing keyword of OP section 10
-- (10-1-5, 10-2-2..10-2-17), plus "at the start of your turn" (6-2-2), "at the start of the
-- game" (5-2-1-5-1), "when ..." texts (8-1-3-1-1) and "instead" (8-1-3-4).
-- Each returns a kernel ability record; OP.activate (effects.lua) runs it.
-- Common fields: condition(ctx), cost, operate(ctx, args), optional (a "you may" text,
-- OP 8-1-2), once_per_turn (OP 10-2-13), don = N ([DON!! x N], 10-2-9), your_turn /
-- opponent_turn (10-2-11/12).
-- `cost` is a function(ctx) -> bool, or a cost of verbs.lua (`Cost.don(1)`, `Cost.rest_self()`,
-- `Cost.all(...)`): then the ability also needs the cost to be payable (OP 8-3-1-3), and a
-- triggered ability with a cost is a "you may" (8-3-1-4).

--- A card's ability list.
function card(abilities) return abilities end

local FIELD = { "leader", "character", "stage" }

--- The type each common field must have. A wrong one is an error when the card loads, at
--- the card's line (`riffle validate` reports it), not when a game first reads it.
local FIELD_TYPES = {
  don = "number", once_per_turn = "boolean", your_turn = "boolean", opponent_turn = "boolean",
  optional = "boolean", condition = "function", operate = "function",
}

-- The fields each kind of ability reads (the kernel's and OP.activate's): any other is an
-- error when the card loads, since it would be ignored. SET_BY_CONSTRUCTORS are read too,
-- but the constructors set them.
local SET_BY_CONSTRUCTORS = { "kind", "on", "timing", "event", "on_play", "printed", "resolves_after_leaving",
  "cost_name", "cost_spec", "adds_to", "adds_cost", "adds_condition", "priority" }
local READ_BY_ALL = { "zones", "dormant", "unlosable", "attached", "condition", "don", "your_turn", "opponent_turn" }
local READ_BY_KIND = {
  triggered = { "match", "when", "operate", "cost", "optional", "once_per_turn", "up_to" },
  activated = { "operate", "cost", "optional", "once_per_turn", "up_to" },
  static = { "modify", "affects", "target" },
  replacement = { "replaces", "match", "applies", "replace", "optional", "once_per_turn" },
  -- instead_of_ko, checked before it is made a replacement
  instead_of_ko = { "cost", "operate", "optional", "once_per_turn" },
}

--- `what` names the constructor; its kind says which fields it reads, `extra` those only it
--- reads.
-- What each kind reads, made once (every ability of every card is checked when it loads).
local FIELDS_BY_KIND = {}
for kind, fields in pairs(READ_BY_KIND) do
  FIELDS_BY_KIND[kind] = util.fields(util.concat(READ_BY_ALL, fields), SET_BY_CONSTRUCTORS)
end
local FIELDS_OF_ALL = util.fields(READ_BY_ALL, SET_BY_CONSTRUCTORS)

local function check_fields(a, what, extra)
  local kind = a.kind or what
  if extra then
    util.check_known(a, util.concat(READ_BY_ALL, READ_BY_KIND[kind] or {}, extra), what or a.kind, nil,
      SET_BY_CONSTRUCTORS)
  else
    util.check_fields(a, FIELDS_BY_KIND[kind] or FIELDS_OF_ALL, what or a.kind)
  end
  util.check_types(a, FIELD_TYPES)
  if a.don ~= nil and (a.don < 1 or a.don % 1 ~= 0) then
    error(string.format("`don` should be a whole number of DON!! cards (1 or more), not %s", tostring(a.don)), 0)
  end
  local cost = a.cost
  if cost ~= nil and type(cost) ~= "function" and type(cost) ~= "table" then
    error("`cost` should be a cost of verbs.lua (Cost.don(1)...) or a function, not a " .. type(cost), 0)
  end
end

--- A cost of verbs.lua becomes the ability's `cost` function and a condition (OP 8-3-1-3).
--- Each constructor's timing as card text prints it, for the log ("Nami's [On Play]: ...").
local PRINTED = {
  on_play = "[On Play]", when_attacking = "[When Attacking]",
  on_opponent_attack = "[On Your Opponent's Attack]", on_block = "[On Block]", on_ko = "[On K.O.]",
  end_of_your_turn = "[End of Your Turn]", end_of_opponent_turn = "[End of Your Opponent's Turn]",
  when_attacked = "when-attacked effect", activate_main = "[Activate: Main]", main_event = "[Main]",
  counter_event = "[Counter]", trigger = "[Trigger]", start_of_your_turn = "start-of-turn effect",
  start_of_game = "start-of-game effect", on_event = "effect",
}

local function with_cost(a, what)
  check_fields(a, what)
  a.printed = PRINTED[what]
  if type(a.cost) == "table" then
    local spec = a.cost
    a.cost_name = spec.name
    a.cost_spec = spec -- OP 8-3-1-3: a condition, checked with added costs in OP.can_activate
    a.cost = spec.pay
    if a.kind == "triggered" and a.optional == nil then a.optional = true end -- OP 8-3-1-4
  end
  return a
end

--- [DON!! x N], [Your Turn], [Opponent's Turn] and `condition` as one condition, for the
--- abilities the kernel runs without OP.activate (permanent and replacement effects).
local function all_conditions(a, what, extra)
  check_fields(a, what, extra)
  local don, mine, theirs, cond = a.don, a.your_turn, a.opponent_turn, a.condition
  return function(ctx)
    if don and #ctx.source.attachments < don then return false end    -- OP 8-3-2-3, 10-2-9-1
    if mine and ctx.turn_player ~= ctx.player then return false end   -- OP 8-3-2-4, 10-2-11-1
    if theirs and ctx.turn_player == ctx.player then return false end -- OP 8-3-2-5, 10-2-12-1
    return cond == nil or cond(ctx)
  end
end

-- The keyword timings below test their event with `match` (the kernel tests it before any
-- Lua runs); a card's own "when ..." text uses on_event with a `when` function.

--- [On Play] (OP 10-2-6): when this card is played.
function on_play(a)
  a.kind, a.on, a.zones = "triggered", "moved", { "character", "stage" }
  a.match = { card = "self", to = { "character", "stage" }, reason = "play" } -- tested by the kernel
  a.on_play = true -- for effects that name [On Play] abilities (added_condition)
  return with_cost(a, "on_play")
end

--- [When Attacking] (OP 10-2-5): when this card attacks.
function when_attacking(a)
  a.kind, a.on, a.zones = "triggered", "attack_declared", { "leader", "character" }
  a.match = { card = "self" }
  return with_cost(a, "when_attacking")
end

--- [On Your Opponent's Attack] (OP 10-2-16).
function on_opponent_attack(a)
  a.kind, a.on, a.zones = "triggered", "attack_declared", FIELD
  a.match = { player = "other" }
  return with_cost(a, "on_opponent_attack")
end

--- [On Block] (OP 10-2-15): when this card's [Blocker] is activated.
function on_block(a)
  a.kind, a.on, a.zones = "triggered", "blocked", { "character" }
  a.match = { card = "self" }
  return with_cost(a, "on_block")
end

--- [On K.O.] (OP 10-2-17): conditions on the field, resolves from the trash.
function on_ko(a)
  a.kind, a.on, a.zones = "triggered", "moved", { "character" }
  a.match = { old = "self", reason = "ko" }
  a.resolves_after_leaving = true
  return with_cost(a, "on_ko")
end

--- [End of Your Turn] (OP 10-2-7).
function end_of_your_turn(a)
  a.kind, a.on, a.zones = "triggered", "end_of_turn", FIELD
  a.match = { turn = "self" }
  return with_cost(a, "end_of_your_turn")
end

--- [End of Your Opponent's Turn] (OP 10-2-8).
function end_of_opponent_turn(a)
  a.kind, a.on, a.zones = "triggered", "end_of_turn", FIELD
  a.match = { turn = "other" }
  return with_cost(a, "end_of_opponent_turn")
end

--- "When this is attacked" (OP 7-1-3-1).
function when_attacked(a)
  a.kind, a.on, a.zones = "triggered", "attacked", FIELD
  a.match = { target = "self" }
  return with_cost(a, "when_attacked")
end

--- [Activate: Main] (OP 10-2-2): in your Main Phase, outside battle.
function activate_main(a)
  a.kind, a.timing, a.zones = "activated", "main", a.zones or FIELD
  return with_cost(a, "activate_main")
end

--- An Event's [Main] (OP 10-2-3).
function main_event(a)
  a.kind, a.timing, a.zones = "activated", "main", { "hand", "limbo" } -- limbo: OP 10-2-3-1-1
  a.event = true
  return with_cost(a, "main_event")
end

--- An Event's [Counter] (OP 10-2-4).
function counter_event(a)
  a.kind, a.timing, a.zones = "activated", "counter", { "hand", "limbo" } -- limbo: OP 10-2-4-1-1
  a.event = true
  return with_cost(a, "counter_event")
end

--- [Trigger] (OP 10-1-5): may be activated instead of adding the Life card to hand.
function trigger(a)
  a.kind, a.timing, a.zones = "activated", "trigger", { "life", "limbo" }
  return with_cost(a, "trigger")
end

--- A permanent effect (OP 8-1-3-3) while this card is on the field: `modify` (a list of
--- `plus_power(n)`, `gains(name)`...) applies to `affects` (default: this card) while the
--- conditions hold (8-1-3-3-2).
function permanent(a) return OP.permanent_of(a, "permanent") end
--- permanent{} for another constructor: `what` names it, `extra` lists the fields only it reads.
function OP.permanent_of(a, what, extra)
  a.kind, a.zones = "static", a.zones or FIELD
  a.condition = all_conditions(a, what, extra)
  return a
end

--- "Also treat this card's name as [X] according to the rules" (OP 2-1-3): the card has
--- the name `names` (one, or a list) beside its own in every zone, the deck, hand, trash and
--- Life as the field, as if printed (`F.named` finds it in a search). `a`: other fields of
--- `permanent`, rarely needed.
function also_named(names, a)
  a = a or {}
  if type(names) ~= "string" and type(names) ~= "table" then
    error(string.format("also_named: give a name or a list of names, not a %s", type(names)), 2)
  end
  a.modify = { { char = "names", op = "grant", value = names } }
  a.zones = "everywhere"
  return OP.permanent_of(a, "also_named")
end

--- A replacement effect (OP 8-1-3-4): `applies(ctx, op)`, `replace(ctx, op)`.
function replacement(a)
  a.kind, a.zones = "replacement", a.zones or FIELD
  util.check_known(a, util.concat({ "zones", "dormant", "unlosable", "attached" }, READ_BY_KIND.replacement),
    "replacement", { condition = "a replacement's condition is `applies(ctx, op)`" }, SET_BY_CONSTRUCTORS)
  return a
end

--- "If this Character would be K.O.'d, you may <cost> instead" (OP 8-1-3-4, 10-2-1): the
--- K.O. does not happen; `cost` is what is done instead (a cost of verbs.lua), `operate` an
--- optional extra. A replacement that cannot be performed cannot be used (8-1-3-4-5).
function instead_of_ko(a)
  local spec, extra, once = a.cost, a.operate, a.once_per_turn
  local ok = all_conditions(a, "instead_of_ko")
  a.kind, a.zones, a.replaces = "replacement", a.zones or { "character" }, "move"
  if a.optional == nil then a.optional = true end -- OP 8-1-3-4-1
  a.match = { card = "self", to = "trash", reason = "ko" } -- tested by the kernel first
  a.applies = function(ctx, op)
    if once and ctx:uses(ctx.source, "instead_of_ko") > 0 then return false end -- OP 10-2-13-1
    return ok(ctx) and (spec == nil or spec.can_pay(ctx))
  end
  a.replace = function(ctx, op)
    if once then ctx:use(ctx.source, "instead_of_ko") end
    if spec then spec.pay(ctx) end
    if extra then extra(ctx, op) end
    return nil -- replaced: the K.O. does not happen
  end
  a.cost, a.operate = nil, nil
  return a
end

--- "At the start of your turn" (OP 6-2-2): in your Refresh Phase, after "until the start of
--- your turn" effects end (6-2-1), before attached DON!! return and cards are set active.
function start_of_your_turn(a)
  a.kind, a.on, a.zones = "triggered", "turn_began", a.zones or FIELD
  a.match = { player = "self" }
  return with_cost(a, "start_of_your_turn")
end

--- A Leader's "at the start of the game" (OP 5-2-1-5-1): after first/second is chosen, before
--- the opening hands. OP.activate shuffles a deck the effect changed (5-2-1-5-2).
function start_of_game(a)
  a.kind, a.on, a.zones = "triggered", "game_started", { "leader" }
  return with_cost(a, "start_of_game")
end

--- A "when ..." text without a keyword (OP 8-1-3-1-1): `on` names the event, `when(ctx, ev)`
--- says whether it is this ability's (see `Happened` in verbs.lua; with one of those, the
--- kernel first tests what it can of it, `Happened.MATCH`).
function on_event(a)
  a.kind, a.zones = "triggered", a.zones or FIELD
  assert(a.on and a.when, "on_event needs `on` and `when`")
  if a.match == nil and Happened and Happened.MATCH[a.when] then a.match = Happened.MATCH[a.when] end
  return with_cost(a, "on_event")
end

--- A permanent effect (OP 8-1-3-3) that adds a cost to other abilities: `to(ctx, ab, actx)`
--- picks them (`ab` = {source, def, key}; `actx` is the activating ability's ctx), `cost` is
--- a cost of verbs.lua, paid after their own cost in the order the effects began (OP 8-3-1-2),
--- and needed to activate them (8-3-1-3).
function added_cost(a)
  a.adds_to, a.adds_cost, a.to = a.to, a.cost, nil
  a.cost, a.timing = nil, "added_rules" -- the tag OP.added_rules looks for
  return OP.permanent_of(a, "added_cost")
end

--- A permanent effect that adds a condition to other abilities (OP 8-3-2-2): `to` as in
--- added_cost; `requires(actx)` must hold too, in the activating ability's ctx.
--- Either, declared `dormant = true`, is the lasting part of a one-shot effect instead: it
--- applies once `add_rules(ctx, it, duration)` (verbs.lua) arms it.
function added_condition(a)
  a.adds_to, a.adds_condition, a.to, a.requires = a.to, a.requires, nil, nil
  a.timing = "added_rules"
  return OP.permanent_of(a, "added_condition")
end
