-- Attack and battle: GD 8 (Attack Step 8-2, Block Step 8-3, Action Step 8-4, Damage Step
-- 8-5, Battle End 8-6), with 〈Blocker〉 (13-1-4), 〈First Strike〉 (13-1-5), 〈High-Maneuver〉
-- (13-1-6), 〈Suppression〉 (not in the rules v1.1.0: docs/rulings) and damage to the Shield
-- Area (3-5-3, 5-5).

GD = GD or {}

local ACTIVE = { orientation = "active" }

--- The battle is the kernel-run procedure `battle` (game.yaml `procedures`). Its record:
--- `attacker`; `target`, the unit the attack is on now (nil while it is on a player);
--- `attacked`, the unit the attack was declared on; `defender`, the player attacked or the
--- controller of the unit attacked; `blocker` once a 〈Blocker〉 was used; `against`, the
--- card whose leaving ends the battle besides the attacker: the target, or the attacker
--- itself while the attack is on a player. ctx.player in its steps is the attacking player.
--- Any script reads it with GD.current_battle(ctx).
--- GD 8-2-4, 8-3-5, 8-4-2: at the end of the attack, block and action steps, a battle whose
--- attacker or target (a unit) has changed area goes straight to its end: the kernel tests
--- `attacker` and `against` (game.yaml, `stop_unless: {alive: ...}`), no Lua.

--- Starts a battle from any script.
function GD.battle(ctx, attacker, target, defender)
  return ctx:procedure("battle", { attacker = attacker, target = target, attacked = target,
    defender = defender or (target and target.controller) })
end

--- GD 8-2: the Attack Step.
function GD.attack_step(ctx, b)
  local a, t = b.attacker, b.target
  -- GD 8-2-1: rest the attacking unit and declare the target.
  ctx:set_orientation(a, "rested", "attack")
  ctx:set_flag(a, "attacking", true)
  if t then ctx:set_flag(t, "attacked", true) end
  b.against = t or a -- GD 8-2-4: what the kernel tests before each later step
  ctx:set_game_value("in_battle", 1)
  -- GD 8-2-2: 【Attack】 effects; 8-2-3: "during this battle" effects apply from here.
  ctx:emit("attack_declared", { card = a, target = t, player = ctx.player, defender = b.defender,
    attacked = t or GD.player_label(ctx, b.defender) })
end

--- GD 8-3: the Block Step, a window of the defending side: one 〈Blocker〉 per attack (8-3-2),
--- an active unit with it (13-1-4-1) other than the unit attacked (8-3-3), optional (8-3-4);
--- none against a unit with 〈High-Maneuver〉 (13-1-6-1); prohibitions beat it (1-3-3).
--- With nothing to offer, nothing is asked.
function GD.block_actions(ctx, p, b)
  if b.blocker then return {} end
  local blockers = {}
  for _, u in ipairs(ctx:cards("battle_area", p, ACTIVE)) do
    if u ~= b.attacked and u:has("keywords", "blocker") and not u:has("keywords", "cannot_block") then
      blockers[#blockers + 1] = u
    end
  end
  -- 〈High-Maneuver〉 asked only when some unit could block (most often none can).
  if #blockers == 0 or b.attacker:has("keywords", "high_maneuver") then return {} end
  local options = {}
  for i, u in ipairs(blockers) do
    options[i] = { label = "block with " .. u.label, kind = "block", card = u, run = GD.block }
  end
  options[#options + 1] = { label = "no block", kind = "pass", pass = true }
  return options
end

--- GD 13-1-4-1: rest the Blocker; the attack is now on it (8-3-1).
function GD.block(ctx, o, b)
  local u = o.card
  if not ctx:set_orientation(u, "rested", "block") then return end
  if b.target then ctx:set_flag(b.target, "attacked", false) end
  ctx:set_flag(u, "attacked", true)
  b.target, b.blocker, b.against = u, u, u
  ctx:emit("blocked", { card = u, target = b.attacker, player = ctx.player })
end

-- Damage (GD 5-5) ------------------------------------------------------------------------------

--- Deals `n` damage to card `c` (GD 5-5-1): damage counters on it. `kind` is "battle" (5-5-3)
--- or "effect" (5-5-4). 0 damage does nothing (5-5-5). Rule processing then destroys it if its
--- damage reaches its HP (5-5-2, 11-3; a shield at any damage: 11-3-1-1). Returns whether
--- damage was dealt.
function GD.deal_damage(ctx, c, n, kind)
  if c == nil or not c.alive or n <= 0 then return false end
  if c:flag_on("spared") then ctx:set_flag(c, "spared", false) end
  return ctx:add_counter(c, "damage", n, kind or "effect") ~= false
end

--- Damage to `p`'s Shield Area (GD 3-5-3, 13-1-2-2): to the Base if there is one, else to the
--- top shield only (5-5-6: none spills onto others). Returns the card hit, or nil.
function GD.damage_shield_area(ctx, p, n, kind)
  local front = GD.shield_area_front(ctx, p)
  if front and GD.deal_damage(ctx, front, n, kind) then return front end
  -- GD 5-5-4, 1-2-2-1: effect damage meeting an empty Shield Area hits nothing and defeats
  -- nobody; the log says so (damage 0 does nothing at all, 5-5-5).
  if front == nil and kind == "effect" and n > 0 then
    ctx:emit("damage_to_empty_shield_area", { card = ctx.source, player = ctx.player, defender = p, amount = n,
      hit = GD.player_label(ctx, p) })
  end
  return nil
end

--- Deals `n` damage to each card of `cards` at once (GD 5-5-1): one operation, so rule
--- processing then destroys them together (11-3), one batch of triggers (10-1-6-3). Returns
--- how many took damage.
function GD.deal_damage_all(ctx, cards, n, kind)
  local list = util.filter(cards, function(c) return c.alive end)
  if #list <= 1 or n <= 0 then
    return (list[1] and GD.deal_damage(ctx, list[1], n, kind)) and 1 or 0
  end
  for _, c in ipairs(list) do
    if c:flag_on("spared") then ctx:set_flag(c, "spared", false) end
  end
  local k = 0
  for _, r in ipairs(ctx:add_counter(list, "damage", n, kind or "effect")) do
    if r ~= false then k = k + 1 end
  end
  return k
end

--- What an attack on player `p` hits (GD 8-5-2-1): the first card of their Shield Area (the
--- Base, else the top shield: 3-5-3, 13-1-2-2), or with 〈Suppression〉 the first 2 cards (the
--- Base and the top shield, or the top 2 shields: docs/rulings); fewer when there are fewer
--- (FAQ Q167), none when it is empty.
function GD.attack_hits(ctx, a, p)
  local n = a:has("keywords", "suppression") and 2 or 1
  local out = {}
  local base = GD.base(ctx, p)
  if base then out[1] = base end
  if #out < n then
    for _, s in ipairs(ctx:top("shields", p, n - #out)) do out[#out + 1] = s end
  end
  return out
end

--- GD 8-5: the Damage Step.
function GD.damage_step(ctx, b)
  local a, t = b.attacker, b.target -- GD 8-5-1: the current target
  local ap = a.ap
  if t == nil then
    -- GD 8-5-2: the attack is on a player: their Shield Area. 〈Suppression〉 is read now (the
    -- unit has it when the damage is dealt, not when the attack was declared: FAQ Q375).
    local q = b.defender
    local hit = GD.attack_hits(ctx, a, q)
    if #hit == 0 then
      ctx:emit("battle_damage", { card = a, player = ctx.player, amount = ap, hit = GD.player_label(ctx, q) })
      -- GD 8-5-2-2: no Base and no shield: the battle damage reaches the player, who loses
      -- (11-2-1-1); 0 damage does nothing (5-5-5, docs/rulings).
      if ap > 0 then ctx:set_value(q, "hit_unprotected", a.controller) end
      return
    end
    local function deal()
      for _, c in ipairs(hit) do
        ctx:emit("battle_damage", { card = a, target = c, player = ctx.player, amount = ap, hit = c })
      end
      -- GD 8-5-2-3, 8-5-2-4 (base first: 3-5-3); with 〈Suppression〉 both cards at once, so
      -- both shields are destroyed together and revealed together (FAQ Q165, Q195).
      GD.deal_damage_all(ctx, hit, ap, "battle")
    end
    if #hit > 1 then GD.keyword_effect(ctx, a, "〈Suppression〉", deal) else deal() end
    return
  end
  -- GD 8-5-3: unit against unit, each dealing its own AP.
  local function hits(from, to, n)
    ctx:emit("battle_damage", { card = from, target = to, player = from.controller, amount = n, hit = to })
  end
  hits(a, t, ap)
  local tap = t.ap
  if a:has("keywords", "first_strike") then
    -- GD 8-5-3-2-2, 13-1-5-2: the attacker first; rule processing runs between (11-1-2), so a
    -- target it destroys deals nothing back.
    GD.deal_damage(ctx, t, ap, "battle")
    GD.note_destroyed_in_battle(ctx, a, t)
    if t.alive and a.alive then
      hits(t, a, t.ap)
      GD.deal_damage(ctx, a, t.ap, "battle")
    end
  else
    -- GD 8-5-3-2: at the same time (8-5-3-2-3: both destroyed together, one trigger batch).
    hits(t, a, tap)
    ctx:together(function(ctx)
      GD.deal_damage(ctx, t, ap, "battle")
      GD.deal_damage(ctx, a, tap, "battle")
    end)
    GD.note_destroyed_in_battle(ctx, a, t)
  end
end

--- GD 13-1-2-1: when the attacking unit has destroyed the unit it attacked with battle damage,
--- the `destroyed_in_battle` event (〈Breach〉 answers it: effects.lua).
function GD.note_destroyed_in_battle(ctx, a, t)
  if t.alive then return end
  local now = ctx:current(t) -- nil for a token, which ceased to exist in the trash (5-17-2-5)
  if now == nil or now.zone == "trash" then
    ctx:emit("destroyed_in_battle", { card = a, target = now, player = ctx.player, defender = t.owner })
  end
end

--- GD 8-6: Battle End: "during this battle" effects end (8-6-1); the game returns to the Main
--- Phase after its effects (8-6-2).
function GD.battle_end(ctx, b)
  for _, c in ipairs({ b.attacker, b.target }) do
    if c and c.alive then
      -- Only the flags that are on: clearing one that is off does nothing (no event).
      if c:flag_on("attacking") then ctx:set_flag(c, "attacking", false) end
      if c:flag_on("attacked") then ctx:set_flag(c, "attacked", false) end
    end
  end
  ctx:set_game_value("in_battle", 0)
  ctx:emit("battle_ended", { card = b.attacker, target = b.target, player = ctx.player })
  GD.expire(ctx, "this_battle")
end
