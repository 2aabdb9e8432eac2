-- Playing cards and the Main Phase: GD 7-5 (play 7-5-2, 【Activate･Main】 7-5-3, attack 7-5-4,
-- end 7-5-5), deploying (3-2, 3-5, 5-8), pairing (3-3, 3-4-6, 5-9), Commands (3-4, 10-1-8),
-- 〈Support〉 (13-1-3) and the overflow rules (11-4, 11-5).

GD = GD or {}

--- Whether player `p` meets card `c`'s Lv. (GD 2-9-1, 7-5-2-2 b): their resources, active or
--- rested, EX Resources included, number at least its Lv.
function GD.level_met(ctx, c)
  return GD.level(ctx, ctx.player) >= c.lv
end

--- The Command ability of card `c` usable at `timing` ("main" or "action"), or nil: the
--- first with that timing (cards.lua `command` gives `command_main` to an ability with
--- `main = true`, `command_action` to one with `action = true`).
function GD.command_ability(ctx, c, timing)
  return ctx:abilities({ card = c, timing = timing == "main" and "command_main" or "command_action" })[1]
end

--- Whether Command `c`, whose ability for the timing is `ab` (nil: none), may be played now
--- but for its Lv.: a target it requires can be chosen (GD 10-1-8-1-1: checked before
--- anything is paid).
local function may_play(ctx, c, ab)
  if ab == nil then return false end
  local def = ab.def
  -- Nothing to check (GD.can_activate): no context for it.
  if not (def.once_per_turn or def.condition or def.cost_spec or def.target) then return true end
  return GD.can_activate(ctx:with({ source = c, player = ctx.player }), ab)
end

--- Whether Command `c` may be played at `timing` now: it has that timing (GD 13-2-3, 13-2-4),
--- its player meets its Lv. (2-9-1), and a target it requires can be chosen (10-1-8-1-1).
--- Its cost is the kernel's check (the action's `cost`).
function GD.command_playable(ctx, c, timing)
  return GD.level_met(ctx, c) and may_play(ctx, c, GD.command_ability(ctx, c, timing))
end

--- The `play_command` and `action_command` actions' conditions: GD.command_playable but for
--- the Lv. (2-9-1), which the kernel tests first (the actions' `requires`: the number of the
--- player's resources, active or rested, at least the card's Lv.). `ab` is the Command's
--- ability for the timing, which the kernel found for the actions' `with_ability`: what
--- GD.command_ability gives.
function GD.main_command_playable(ctx, c, ab) return may_play(ctx, c, ab) end
function GD.action_command_playable(ctx, c, ab) return may_play(ctx, c, ab) end

--- Plays Command `c` from the hand at `timing` (GD 7-5-2-2, 10-3-2): reveal it, check its
--- Lv., pay its cost; it resolves in no area (3-4-3: limbo), then goes to its owner's trash
--- unless its effect moved it (3-4-4). Returns whether it was played.
function GD.play_command(ctx, c, timing)
  local p = ctx.player
  local ab = GD.command_ability(ctx, c, timing)
  if not GD.level_met(ctx, c) or not may_play(ctx, c, ab) then return false end
  ctx:reveal(c) -- GD 7-5-2-2 a
  if not GD.pay(ctx, p, c.cost) then ctx:conceal(c) return false end -- GD 7-5-2-2 c
  local l = ctx:move(c, "limbo", { reason = "play", face = "up" })[1]
  GD.activate(ctx:with({ source = l, player = p }), { source = l, def = ab.def, key = ab.key }, {})
  local done = l
  if l.alive then done = ctx:move(l, "trash", { player = l.owner, reason = "resolved" })[1] or l end
  ctx:emit("command_played", { card = done, player = p })
  return true
end

--- The `play_command` and `action_command` actions: in a window (an action step) the
--- Command's 【Action】, otherwise its 【Main】.
function GD.command_action(ctx, o, data)
  GD.play_command(ctx, o.card, data ~= nil and "action" or "main")
end

-- Deploying (GD 5-8) ---------------------------------------------------------------------------

--- Deploys Unit card (or unit token) `c` into player `p`'s Battle Area, active (GD 5-4-2): with
--- 6 units there already, `p` first puts one of them into its owner's trash (11-4-2): not
--- destroyed (11-4-2-1), so its pilot goes along (3-3-6) and nothing "destroyed" triggers.
--- Returns the deployed unit, or nil.
function GD.deploy(ctx, c, p, opts)
  p = p or c.controller
  if ctx:count("battle_area", p) >= 6 then
    local out = ctx:choose_cards(p, ctx:cards("battle_area", p), { prompt = "make_room" })
    ctx:move(out, "trash", { player = out.owner, reason = "rule" })
  end
  local u = ctx:move(c, "battle_area", { player = p, orientation = (opts or {}).rested and "rested" or "active",
    reason = "deploy", face = "up" })[1]
  if u then ctx:emit("deployed", { card = u, player = p }) end
  return u
end

--- Deploys Base card `c` into the Base Section of player `p` (GD 3-5-1): a Base already there
--- goes to the trash first, not destroyed (11-5-2, 11-5-2-1; the EX Base, a token, then
--- ceases to exist: 5-17-2-5). Returns the Base, or nil.
function GD.deploy_base(ctx, c, p)
  p = p or c.controller
  local old = GD.base(ctx, p)
  if old then ctx:move(old, "trash", { player = old.owner, reason = "rule" }) end
  local b = ctx:move(c, "base_section", { player = p, orientation = "active", reason = "deploy", face = "up" })[1]
  if b then ctx:emit("deployed", { card = b, player = p }) end
  return b
end

--- Plays a Unit or Base card from the hand (GD 7-5-2-2): reveal, Lv., pay, deploy.
function GD.play_from_hand(ctx, c)
  local p = ctx.player
  if not GD.level_met(ctx, c) then return nil end
  ctx:reveal(c)
  if not GD.pay(ctx, p, c.cost) then ctx:conceal(c) return nil end
  if c.category == "base" then return GD.deploy_base(ctx, c, p) end
  return GD.deploy(ctx, c, p)
end

function GD.deploy_action(ctx, o) GD.play_from_hand(ctx, o.card) end

-- Pairing (GD 3-3, 5-9) --------------------------------------------------------------------------

--- Pairs Pilot card `c` (or a Command with 【Pilot】) with Unit `u` (GD 3-3-1): under it, face
--- up. 【When Paired】 (13-2-9) answers the `paired` event; if the pilot meets the unit's link
--- condition, the `linked` event follows (【When Linked】, 13-2-11). Returns the pilot.
function GD.pair(ctx, c, u)
  if u == nil or not u.alive or u.zone ~= "battle_area" or #u.attachments > 0 then return nil end -- GD 3-3-4
  local pilot = ctx:attach(c, u, { reason = "pair" })
  if pilot == nil then return nil end
  local p = u.controller
  ctx:emit("paired", { card = u, target = pilot, player = p })
  if GD.meets_link(u, pilot) then ctx:emit("linked", { card = u, target = pilot, player = p }) end
  return pilot
end

--- Plays a Pilot card from the hand onto Unit `u` (GD 7-5-2-2, 3-4-6-2): reveal, Lv., pay, pair.
function GD.play_pilot(ctx, c, u)
  local p = ctx.player
  if not GD.level_met(ctx, c) or #u.attachments > 0 then return nil end
  ctx:reveal(c)
  if not GD.pay(ctx, p, c.cost) then ctx:conceal(c) return nil end
  return GD.pair(ctx, c, u)
end

-- Attacks (GD 7-5-4, 8-2-1) ----------------------------------------------------------------------

--- The `pair` action's condition: `c` can be paired (a Pilot, or a Command with 【Pilot】: GD
--- 3-4-6-1). Its Lv. (2-9-1, the action's `requires`) and cost are the kernel's checks.
function GD.pairable(ctx, c)
  local cat = c.category -- GD.can_pilot, one read of the category
  return cat == "pilot" or (cat == "command" and #c.pilot_names > 0)
end

--- The `pair` action: play the Pilot onto the chosen unit.
function GD.pair_action(ctx, o) GD.play_pilot(ctx, o.card, o.target) end

--- The `attack` action's target condition (GD 1-3-3): `t` is a Unit, or a player's seat.
function GD.may_attack_option(ctx, a, t)
  if type(t) == "number" then return GD.may_attack_target(ctx, a, nil, t) end
  return GD.may_attack_target(ctx, a, t, t.controller)
end

--- GD 13-1-3-1: 〈Support〉: rest the supporting unit (the cost), then the other unit gets
--- AP+N during this turn.
function GD.support(ctx, o)
  local s, u = o.card, o.target
  local n = s.support
  if not ctx:set_orientation(s, "rested", "support") then return end
  if u.alive then ctx:modify(u, { char = "ap", op = "add", value = n }, { ["until"] = "this_turn", player = ctx.player }) end
end

--- The `activate_main` and `activate_action` actions: activate the chosen ability.
function GD.may_activate(ctx, ab) return GD.can_activate(ctx:with({ source = ab.source }), ab) end
function GD.activate_action(ctx, o) GD.activate(ctx:with({ source = o.card }), o.ability, {}) end
