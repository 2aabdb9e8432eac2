-- The costs of Skills: SM 605.5-605.6 (checked, then paid; 606.5-606.6, 607.5-607.6, 608.6-608.7,
-- 619.6-619.7 alike), with Gl: Cost, Fixed Mp, Charging, Charged Counter, Fixed Charging, Fixed
-- Charge Counter and Sacrifice. Twinkling's cost is twinkling.lua's.
--
-- A Skill's cost (cards.lua `skill`): `cost` (Mp, which effects may change through its card's
-- `skill_mp`) or `fixed_mp` (Gl: Fixed Mp: no effect changes it), `charge` (Charged Counters of
-- this card), `fixed_charge` (its Fixed Charge Counters), `sacrifice` (a filter: one card of yours
-- in the Arena, not this one, is Sacrificed). Everything is checked before anything is paid (Gl:
-- Cost: a cost that cannot be paid in full is not paid at all).
--
-- Charged Counters remember which side's effect put them on the card (Gl: Charged Counter 2): the
-- counter `charge` those of its owner's side (its Charging included), `foe_charge` those of the
-- other side. Its controller pays choosing how many of each (prompt `charged_counters`).

SM = SM or {}

--- A Skill's Mp now for card `c` (SM 605.5; Gl: Fixed Mp: "(Fixed Mp 2)" costs 2 whatever effect
--- would change it): its printed Mp changed by its card's `skill_mp` (effects on the card), 0 at
--- least.
function SM.skill_mp(c, def)
  if def.fixed_mp ~= nil then return def.fixed_mp end
  local n = def.cost or 0
  if c ~= nil and c.alive and SM.in_field(c) then n = n + c.skill_mp end
  return math.max(0, n)
end

--- The Charged Counters on card `c` as player `p` pays them (Gl: Charged Counter 2): all of them,
--- those of `p`'s side, those of the other side.
function SM.charged(c, p)
  local own, foe = c:counter_value("charge"), c:counter_value("foe_charge")
  if p ~= c.owner then own, foe = foe, own end
  return own + foe, own, foe
end

--- The counter a Charged Counter put on `c` by player `p`'s side is kept in.
local function charge_counter(c, p) return p == c.owner and "charge" or "foe_charge" end

--- The cards of yours a Skill's `sacrifice` may take (Gl: Sacrifice: a card of the Arena you
--- control, not one you control from its owner, Gl: Control), not the Skill's own card.
local function sacrificeable(ctx, ab, c, p)
  local f = ab.def.sacrifice
  return util.filter(SM.field_cards(ctx, p), function(x)
    return x ~= c and x.host == nil and x.controller == p and not SM.controlled(x) and f(x)
      and not x:flag_on("being_cast") and not x:flag_on("entering")
  end)
end

--- Whether player `p` can pay Skill `ab`'s cost for card `c` now (SM 605.5).
function SM.skill_cost_payable(ctx, ab, c, p)
  local def = ab.def
  if def.charge and (c == nil or SM.charged(c, p) < def.charge) then return false end -- Gl: Charged Counter 2
  if def.fixed_charge and (c == nil or c:counter_value("fixed_charge") < def.fixed_charge) then return false end
  if def.sacrifice and #sacrificeable(ctx, ab, c, p) == 0 then return false end
  return SM.can_pay(ctx, p, SM.skill_mp(c, def), "skill")
end

--- Removes `n` Charged Counters from `c` for player `p` (Gl: Charged Counter 2): with counters of
--- both sides, `p` chooses how many of the other side's are paid (the rest from their own).
local function pay_charge(ctx, c, p, n)
  local _, own, foe = SM.charged(c, p)
  local lo, hi = math.max(0, n - own), math.min(n, foe)
  local theirs = lo
  if hi > lo then theirs = ctx:choose_number(p, lo, hi, "charged_counters") end
  local mine = n - theirs
  local other = p == c.owner and "foe_charge" or "charge"
  if mine > 0 then ctx:add_counter(c, charge_counter(c, p), -mine, "cost") end
  if theirs > 0 then ctx:add_counter(c, other, -theirs, "cost") end
end

--- SM 605.6: pays Skill `ab`'s cost for record `d` (its card `d.card`, or for a hand Skill `ab`'s):
--- false, and nothing paid, when it cannot be paid in full.
function SM.pay_skill(ctx, d, ab)
  local def, p = ab.def, d.player
  local c = d.card or ab.source
  if not SM.skill_cost_payable(ctx, ab, c, p) then return false end
  if def.twinkling and not SM.twinkle_payable(ctx, d) then return false end
  if not SM.pay(ctx, p, SM.skill_mp(c, def), "skill") then return false end
  if def.charge then pay_charge(ctx, c, p, def.charge) end
  if def.fixed_charge then ctx:add_counter(c, "fixed_charge", -def.fixed_charge, "cost") end
  if def.sacrifice then
    local x = ctx:choose_cards(p, sacrificeable(ctx, ab, c, p), { min = 1, max = 1, prompt = "sacrifice" })
    SM.destroy_cards(ctx, { x }, { reason = "sacrifice", player = p })
  end
  if def.twinkling then SM.twinkle(ctx, d) end
  return true
end

--- Gl: Fixed Charging N (its owner's Check up Step, as Charging: docs/rulings A.33): a Fixed
--- Charge Counter while the card has fewer than N.
function SM.fixed_charging(ctx, c, p)
  local n = c:keyword("fixed_charging")
  if n and c.owner == p and c.host == nil and c:counter_value("fixed_charge") < n then
    ctx:add_counter(c, "fixed_charge", 1, "fixed_charging")
  end
end

-- Verbs ----------------------------------------------------------------------------------------------

--- Puts `n` Charged Counters on a card (Gl: Charged Counter: remembered as put by your side).
function add_charge(ctx, card, n)
  for _, c in ipairs(SM.affected(ctx, card)) do
    if c.alive and SM.in_field(c) then ctx:add_counter(c, charge_counter(c, ctx.player), n or 1, "effect") end
  end
end

--- The Charged Counters on a card that player `p`'s side put there (Gl: Charged Counter 2).
function charges_by(ctx, card, p)
  return card:counter_value(charge_counter(card, p))
end

--- Removes up to `n` (nil: all) Charged Counters, and the Fixed Charge Counters, from a card (the
--- Fixed ones stay: only their own card may take them, Gl: Fixed Charge Counter 3).
function remove_counters(ctx, card, n)
  for _, c in ipairs(SM.affected(ctx, card)) do
    for _, k in ipairs({ "charge", "foe_charge", "fixed_charge" }) do
      local have = c:counter_value(k)
      if have > 0 then ctx:add_counter(c, k, -math.min(have, n or have), "effect") end
    end
  end
end

-- Rules ---------------------------------------------------------------------------------------------

-- Gl: Fixed Charge Counter 3: no card but its own changes its Fixed Charge Counters (the rules'
-- Fixed Charging and paying its own costs do).
SM.RULES[#SM.RULES + 1] = {
  kind = "replacement", replaces = "counter",
  match = { source = "card" }, -- op.source ~= nil (the kernel's test first)
  applies = function(ctx, op)
    return op.counter == "fixed_charge" and op.source ~= nil and op.source ~= op.card
  end,
  replace = function(ctx, op) return nil end,
}
