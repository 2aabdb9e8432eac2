-- Activating and resolving effects: rules 8-1 to 8-4, OP 10-2-13 ([Once Per Turn]), 10-2-17
-- ([On K.O.]). The kernel calls OP.activate for every triggered ability; the ruleset calls it
-- for activated ones ([Activate: Main], Events, [Trigger], "at the start of the game").

OP = OP or {}

--- Public zones (OP 3-1-5, 3-2..3-10): the field, the trash and the DON!! deck; a resolving
--- [Trigger] card is in no zone but in view of both players (OP 10-1-5-1: it is revealed).
OP.PUBLIC_ZONES = { leader = true, character = true, stage = true, cost = true, trash = true, don_deck = true, limbo = true }

--- Whether a card is in a public zone; a face-up Life card counts (OP 3-10-2-1).
function OP.in_public_zone(c)
  if c.zone == "life" then return c.face_up end
  return OP.PUBLIC_ZONES[c.zone] == true
end

--- Whether an ability may be activated now (conditions only: OP 8-3-2, 8-4-1-1; a cost of
--- verbs.lua adds "can be paid" to the conditions, 8-3-1-3). A card whose condition fails
--- with an error cannot be activated, and the error names it (ctx:guard): the other cards'
--- actions are still listed.
function OP.can_activate(ctx, ab)
  return ctx:guard(ab.source, OP.conditions_hold, ctx, ab) == true
end

--- OP.can_activate without the guard.
function OP.conditions_hold(ctx, ab)
  local def, src = ab.def, ab.source
  if def.once_per_turn and src and ctx:uses(src, ab.key) > 0 then return false end -- OP 10-2-13-1, 10-2-13-3
  if def.don and src and #src.attachments < def.don then return false end            -- OP 8-3-2-3, 10-2-9-1
  if def.your_turn and ctx.turn_player ~= ctx.player then return false end            -- OP 8-3-2-4, 10-2-11-1
  if def.opponent_turn and ctx.turn_player == ctx.player then return false end        -- OP 8-3-2-5, 10-2-12-1
  if def.condition and not def.condition(ctx) then return false end                   -- OP 8-3-2-1
  local costs = { def.cost_spec }
  for _, x in ipairs(OP.added_rules(ctx, ab)) do
    if x.requires and not x.requires(ctx) then return false end            -- OP 8-3-2-2
    costs[#costs + 1] = x.cost
  end
  -- OP 8-3-1-3: the printed and the added costs must be payable together (each alone may be).
  return #costs == 0 or Cost.payable_together(ctx, costs)
end

--- OP 8-3-1-2, 8-3-2-2: the costs and conditions that other effects (`added_cost` /
--- `added_condition` of cards.lua) add to ability `ab`, in the order those effects resolved:
--- a one-shot effect's (`add_rules` of verbs.lua) when it resolved, a permanent effect's when
--- its card came to the field (docs/rulings). Each is {cost = Cost, requires = function(ctx),
--- source = card}.
function OP.added_rules(ctx, ab)
  local out = {}
  for _, s in ipairs(ctx:abilities({ kind = "static", timing = "added_rules", delayed = true })) do
    local d = s.def
    if d.adds_to then
      local sctx = ctx:with({ source = s.source, player = s.controller or s.source.controller })
      if (d.condition == nil or d.condition(sctx)) and d.adds_to(sctx, ab, ctx) then
        out[#out + 1] = { cost = d.adds_cost, requires = d.adds_condition, source = s.source, at = s.timestamp }
      end
    end
  end
  if #out > 1 then table.sort(out, function(a, b) return a.at < b.at end) end
  return out
end

--- Pays an ability's printed cost, then the costs other effects add (OP 8-3-1-2), in order;
--- stops at the first part that fails (8-3-1-3-1). False when the effect after ":" is not to
--- be processed: a part failed, or a replacement effect replaced part of the payment, so the
--- cost was not paid as written (OP 8-3-1-7).
function OP.pay_costs(ctx, ab)
  local added = OP.added_rules(ctx, ab)
  local paid, replaced = ctx:track_replacements(function(ctx)
    if ab.def.cost and not ab.def.cost(ctx) then return false end
    for _, x in ipairs(added) do
      if x.cost and not x.cost.pay(ctx) then return false end
    end
    return true
  end)
  return paid and not replaced
end

--- Where a triggered ability's source is now, or nil when it may not be activated.
--- OP 8-1-3-1-3: an auto effect whose card moved to another zone after its timing was met
--- is neither activated nor resolved. OP 8-4-5: an auto effect whose timing is its own card's
--- zone move activates only if the card went to a public zone. OP 10-2-17-1/2: [On K.O.]
--- (and any "when this leaves ..." text) triggers as the card was on the field and resolves
--- where it went, even if it has moved on since ([On K.O.] only).
local function trigger_source(ctx, def, src)
  local ev = ctx.event
  if ev and ev.name == "moved" and ev.card and (ev.old == src or ev.card == src) then
    if not OP.in_public_zone(ev.card) then return nil end -- OP 8-4-5
    if ev.old == src then
      if not ev.card.alive and not def.resolves_after_leaving then return nil end -- OP 8-1-3-1-3
      return ev.card
    end
  end
  if src.alive then return src end
  if def.resolves_after_leaving then return ctx:current(src) end -- OP 10-2-17-2
  return nil -- OP 8-1-3-1-3
end

--- Activates and resolves an ability (OP 8-4-1): conditions (8-4-1-1), "you may" (8-1-2),
--- [Once Per Turn] (10-2-13), activation cost (8-4-1-3), the "up to N" counts (4-8-1), then
--- the effect (8-4-1-5). Returns whether it resolved.
function OP.activate(ctx, ab, args)
  local def, src = ab.def, ab.source
  args = args or {}
  -- A delayed one-shot (`dormant`, armed by ctx:delay) is the rest of an effect that already
  -- resolved, not an auto effect of its card: where the card is now does not matter.
  if src and def.kind == "triggered" and not def.dormant then
    local now = trigger_source(ctx, def, src)
    if now == nil then return false end
    if now ~= src then ctx = ctx:with({ source = now, left = src, ko_source = src }) end
  end
  if not OP.can_activate(ctx, ab) then return false end
  if def.optional and not ctx:yes_no(ctx.player, "activate") then return false end -- OP 8-1-2, 8-3-1-4
  -- OP 10-2-13-5: the use counts even if the payment then fails midway (8-3-1-3-1).
  if def.once_per_turn and src then ctx:use(src, ab.key) end
  -- OP 8-3-1-3-1, 8-3-1-7: a cost that failed midway, or was replaced, voids the effect.
  if not OP.pay_costs(ctx, ab) then return false end
  if def.up_to then
    -- OP 4-8-1 (docs/rulings): each "up to N" count is declared when the effect is activated;
    -- the cards are chosen when resolution reaches the instruction (8-4-4, OP.choose_declared).
    local declared = {}
    for i, n in ipairs(def.up_to) do declared[i] = ctx:choose_number(ctx.player, 0, n, "up_to") end
    ctx = ctx:with({ declared = declared })
  end
  -- OP 5-2-1-5-2: a start-of-game effect that changed a deck is followed by its shuffle.
  local decks = def.on == "game_started" and OP.deck_orders(ctx) or nil
  -- For the log: whose ability resolves, and which (its line tells what it did).
  local told = src and def.operate and { card = ctx.source or src, player = ctx.player, key = def.printed or "effect" }
  if told then ctx:emit("resolving", told) end
  if def.operate then def.operate(ctx, args) end
  if told then ctx:emit("resolved", told) end
  if decks then
    for p, before in ipairs(decks) do
      if OP.deck_orders(ctx)[p] ~= before then ctx:shuffle("deck", p) end
    end
  end
  return true
end

--- Each player's deck as a string of object ids, bottom to top (a zone change makes new ids).
function OP.deck_orders(ctx)
  local out = {}
  for p = 1, ctx.players do
    local ids = {}
    for i, c in ipairs(ctx:cards("deck", p)) do ids[i] = c.id end
    out[p] = table.concat(ids, ",")
  end
  return out
end

-- OP 3-7-6-1-1 (and 3-8-5-1, docs/rulings): the trash that makes room for a 6th Character or a
-- 2nd Stage is a rules-level process that no effect applies to, so no replacement effect sees
-- it (moves with reason "rule"). Every replacement built with cards.lua's `replacement` gets
-- this guard; `instead_of_ko` only ever matches K.O.s.
do
  local make = replacement
  function replacement(a)
    a = make(a)
    local applies, replace, once = a.applies, a.replace, a.once_per_turn
    a.applies = function(ctx, op)
      if op.reason == "rule" then return false end
      if once and ctx:uses(ctx.source, OP.ability_key(ctx)) > 0 then return false end -- OP 10-2-13-1
      return applies(ctx, op)
    end
    a.replace = function(ctx, op)
      if once then ctx:use(ctx.source, OP.ability_key(ctx)) end -- OP 10-2-13
      local r = replace(ctx, op)
      -- OP 8-1-3-4-7: what replaces the operation is done by the replacement's owner.
      if type(r) == "table" then r.by = ctx.player end
      return r
    end
    return a
  end
end

--- The limit key ("RF03-065#1") of the ability `ctx` runs (ctx.ability) on ctx.source.
function OP.ability_key(ctx)
  for _, ab in ipairs(ctx:abilities({ card = ctx.source })) do
    if ab.def == ctx.ability then return ab.key end
  end
  return "replacement"
end

--- The [Trigger] a Life card taken by damage may activate now, or nil (OP 4-6-3, 10-1-5-1).
local function life_trigger(ctx, card)
  for _, ab in ipairs(ctx:abilities({ card = card, timing = "trigger" })) do
    if OP.can_activate(ctx:with({ source = card, player = card.owner }), ab) then return ab end
  end
  return nil
end

-- Rules' own continuous effects and replacements.
OP.RULES = {
  -- OP 4-6-3, 10-1-5-1: instead of adding a Life card taken by damage to the hand, its
  -- [Trigger] may be activated. A rule replacement comes after every card's (kernel order), so
  -- it sees the move as card effects left it: a Life card that an effect or replacement sends
  -- elsewhere (or once it is no longer going to the hand) has no [Trigger] (OP 4-6-3-1).
  { kind = "replacement", replaces = "move",
    match = { reason = "damage", from = "life", to = "hand" }, -- tested by the kernel first
    applies = function(ctx, op) return life_trigger(ctx, op.card) ~= nil end,
    replace = function(ctx, op)
      local p = op.card.owner
      ctx = ctx:with({ player = p })
      local trig = life_trigger(ctx, op.card)
      if not ctx:yes_no(p, "trigger") then return op end -- OP 10-1-5-2: to hand, not revealed
      -- OP 10-1-5-1 / 10-1-5-3: reveal and activate it; the card is in no zone meanwhile, then
      -- goes to its owner's trash unless the effect moved it (OP 8-6-2-1: damage waits for it).
      local c = ctx:move(op.card, "limbo", { reason = "trigger", face = "up" })[1]
      OP.activate(ctx:with({ source = c, player = p }), { source = c, def = trig.def, key = trig.key }, {})
      if c.alive then OP.trash(ctx, c, "trigger") end
      return nil
    end },
  -- OP 6-5-5-2: +1000 power per attached DON!! during its owner's turn (data: the kernel
  -- tests and counts it without Lua).
  { kind = "static",
    affects = { zones = { "leader", "character" }, controller = "turn_player", attached = 1 },
    modify = { { char = "power", op = "add", value = { per_attached = 1000 } } } },
}
