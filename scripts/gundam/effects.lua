-- Activating and resolving effects: GD 10 (kinds 10-1-4, triggered 10-1-6, activated 10-1-7,
-- Commands 10-1-8, conditions 10-2, the activation procedure 10-3), 【Once per Turn】
-- (13-2-13), and the rules' own effects: a Pilot's AP and HP (3-3-8-1), a paired Command's
-- pilot name (3-4-6-1), 〈Repair〉 (13-1-1) and 〈Breach〉 (13-1-2).

GD = GD or {}

--- Whether an ability may be activated now (GD 10-2, 10-1-7-4): its 【Once per Turn】 is
--- unused on this card (13-2-13-1/2), its condition holds, its cost can be paid, and a target
--- it requires can be chosen (10-1-8-1-1, 10-2-2). A card whose condition fails with an
--- error cannot be activated, and the error names it (ctx:guard): the other cards' actions
--- are still listed.
function GD.can_activate(ctx, ab)
  local def = ab.def
  -- Nothing to check, nothing that could fail: no guard needed.
  if not (def.once_per_turn or def.condition or def.cost_spec or def.target) then return true end
  return ctx:guard(ab.source, GD.conditions_hold, ctx, ab) == true
end

--- GD.can_activate without the guard.
function GD.conditions_hold(ctx, ab)
  local def, src = ab.def, ab.source
  if def.once_per_turn and src and ctx:uses(src, ab.key) > 0 then return false end -- GD 13-2-13-1
  if def.condition and not def.condition(ctx) then return false end                  -- GD 10-2-1
  if def.cost_spec and not def.cost_spec.can_pay(ctx) then return false end          -- GD 10-1-7-4
  if def.target and #def.target(ctx) == 0 then return false end                      -- GD 10-1-8-1-1
  return true
end

--- hooks.activate: activates and resolves an ability (GD 10-3-1): its conditions (10-3-1-1),
--- "you may" (10-1-3), 【Once per Turn】 (13-2-13), its cost (10-1-7-2), then its effect.
--- A triggered effect resolves even if its card has left the area where it triggered
--- (10-1-6-4; ctx.source is then the card as it was, its last-known values: 13-2-8-2-1).
--- Returns whether it resolved.
function GD.activate(ctx, ab, args)
  local def, src = ab.def, ab.source
  args = args or {}
  if def.burst then return GD.resolve_burst(ctx, ab) end                -- GD 13-2-5 (rules.lua)
  if not GD.can_activate(ctx, ab) then return false end                 -- GD 10-2-1, 10-2-3
  if def.optional and not ctx:yes_no(ctx.player, "activate") then return false end -- GD 10-1-3
  if def.once_per_turn and src then ctx:use(src, ab.key) end            -- GD 13-2-13
  if def.cost_spec and not def.cost_spec.pay(ctx) then return false end -- GD 10-1-7-2
  -- For the log, and for effects that watch others resolve: whose effect, and which.
  local told = def.keyword and src and { card = src, player = ctx.player, key = def.keyword }
  if told then ctx:emit("resolving", told) end
  if def.operate then def.operate(ctx, args) end
  if told then ctx:emit("resolved", told) end
  return true
end

-- Costs (GD 10-1-7): {name, can_pay(ctx), pay(ctx) -> bool}. The constructors of cards.lua
-- take one as an ability's `cost`: it becomes a condition (it must be payable, 10-1-7-4) and
-- is paid before the effect (10-1-7-2). ------------------------------------------------------

Cost = {}

--- 「①」..: pay N, resting N active resources (GD 10-1-7-3, 2-10-1).
function Cost.pay(n)
  return {
    name = "(" .. n .. ")",
    resources = n,
    can_pay = function(ctx) return GD.active_resource_count(ctx, ctx.player) >= n end,
    pay = function(ctx) return GD.pay(ctx, ctx.player, n) end,
  }
end

--- "Rest this unit" (for a paired Pilot's text: its Unit; GD 3-3-9-2). It cannot be paid
--- while the unit is rested (1-3-2-1).
function Cost.rest_self()
  return {
    name = "rest this unit",
    can_pay = function(ctx) return GD.this_unit(ctx).orientation == "active" end,
    pay = function(ctx) return ctx:set_orientation(GD.this_unit(ctx), "rested", "cost") end,
  }
end

--- "Discard N cards" (passing filter `f`, if given) from your hand (GD 5-11).
function Cost.discard(n, f)
  local function fits(ctx)
    return util.filter(ctx:cards("hand", ctx.player), function(c) return c ~= ctx.source and (f == nil or f(c)) end)
  end
  return {
    name = "discard " .. n,
    can_pay = function(ctx) return #fits(ctx) >= n end,
    pay = function(ctx)
      local cands = fits(ctx)
      if #cands < n then return false end
      local chosen = GD.list(ctx:choose_cards(ctx.player, cands, { min = n, max = n, prompt = "pick: discard" }))
      ctx:move(chosen, "trash", { reason = "discard" })
      return true
    end,
  }
end

--- Several conditions, all to be met (GD 10-1-7-4), paid in the order written (1-3-7).
function Cost.all(...)
  local parts = { ... }
  local names = util.map(parts, function(c) return c.name end)
  return {
    name = table.concat(names, ", "),
    can_pay = function(ctx)
      for _, c in ipairs(parts) do
        if not c.can_pay(ctx) then return false end
      end
      -- Two ① costs draw on the same resources.
      local need = 0
      for _, c in ipairs(parts) do need = need + (c.resources or 0) end
      return need == 0 or GD.active_resource_count(ctx, ctx.player) >= need
    end,
    pay = function(ctx)
      for _, c in ipairs(parts) do
        if not c.pay(ctx) then return false end
      end
      return true
    end,
  }
end

-- The rules' own effects (hooks.rule_abilities) ------------------------------------------------

--- A keyword effect of card `c` (13-1): `act()` between `resolving` and `resolved`, so the log
--- tells it on the card's line ("Zaku's 〈Breach〉: ...").
function GD.keyword_effect(ctx, c, keyword, act)
  local told = { card = c, player = c.controller, key = keyword }
  ctx:emit("resolving", told)
  act()
  ctx:emit("resolved", told)
end

--- The `end_step` rule effect of 〈Repair〉 (GD 13-1-1-1): each unit of a turn player with
--- Repair N and damage recovers N (5-6; none recovers an undamaged unit: 5-6-3).
local function repair(ctx)
  for _, p in ipairs(ctx:turn_side()) do
    for _, u in ipairs(GD.units(ctx, p)) do
      if u.repair > 0 and GD.damaged(u) then
        GD.keyword_effect(ctx, u, "〈Repair〉", function() GD.recover(ctx, u, u.repair) end)
      end
    end
  end
end

--- Whether some unit `repair` would recover: `repair`'s test, asked at every End Step (the
--- trigger's `when`), so with no helper calls and no iterator.
local function repairs_due(ctx)
  local side = ctx:turn_side()
  for i = 1, #side do
    local units = ctx:cards("battle_area", side[i])
    for j = 1, #units do
      local u = units[j]
      if u.repair > 0 and u:counter_value("damage") > 0 then return true end
    end
  end
  return false
end

GD.RULES = {
  -- GD 3-3-8-1: a paired Pilot's AP and HP are added to its Unit (the Pilot's traits and
  -- color are not: 3-3-7, 2-4-3). Data: the kernel counts it without Lua.
  { kind = "static", affects = { zones = { "battle_area" }, attached = 1 },
    modify = { { char = "ap", op = "add", value = { of_attached = "ap" } },
               { char = "hp", op = "add", value = { of_attached = "hp" } } } },
  -- GD 3-4-6-1, 3-4-6-3: a Command paired as a Pilot also bears its pilot name. (The
  -- category first: a card that is no Command does not read its place, so a move of it
  -- keeps its names.)
  { kind = "static",
    affects = function(ctx, c) return c.category == "command" and c.host ~= nil end,
    modify = { { char = "names", op = "grant", value = function(ctx, c) return c.pilot_names end } } },
  -- GD 13-1-1: 〈Repair〉, in the End Step of the turn player's turn (7-6-4-1).
  { kind = "triggered", on = "end_step", when = function(ctx, ev) return repairs_due(ctx) end,
    operate = repair },
  -- GD 13-1-2: 〈Breach N〉: in your turn, when this unit destroys an enemy unit with battle
  -- damage, N damage to the first card of that player's Shield Area (its Base, else its top
  -- shield; nothing when it has neither: 13-1-2-4); it works when both units were destroyed
  -- (13-1-2-3: the attacker's last-known Breach).
  { kind = "triggered", on = "destroyed_in_battle",
    when = function(ctx, ev) return ev.card.breach > 0 and ctx:is_turn_of(ev.card.controller) end,
    operate = function(ctx)
      local ev = ctx.event
      GD.keyword_effect(ctx, ev.card, "〈Breach〉", function()
        GD.damage_shield_area(ctx:with({ source = ev.card, player = ev.card.controller }), ev.defender, ev.card.breach, "effect")
      end)
    end },
  -- GD 3-2-6-2: a Unit whose paired Pilot meets its link condition is a Link Unit: its
  -- `status` holds `linked` (the name of the event that says so), so the kernel's attack
  -- selector (game.yaml `unless_it_has`) lets it attack the turn it was deployed (3-2-6-3)
  -- with no Lua per unit: the status is read only for a unit deployed this turn, and only a
  -- paired one (data) runs Lua.
  { kind = "static", affects = { zones = { "battle_area" }, attached = 1 },
    modify = { { char = "status", op = "grant", value = function(ctx, c) return GD.is_link(c) and "linked" or nil end } } },
}
