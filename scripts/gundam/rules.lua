-- Rule processing: GD 11 (destruction 11-3, with a shield's 【Burst】: 5-10-3, 13-2-5) and the
-- verbs the rules and card text share for it: destroy (5-10), recover (5-6).

GD = GD or {}

--- The 【Burst】 ability of card `c` (GD 13-2-5), or nil.
function GD.burst_ability(ctx, c)
  for _, ab in ipairs(ctx:abilities({ card = c, kind = "triggered" })) do
    if ab.def.burst then return ab end
  end
  return nil
end

--- Destroys shield `s` (GD 5-10-3): it is turned face up and checked for 【Burst】. Without
--- one it goes to its owner's trash. With one it waits in no area (4-1-2) and the
--- `shield_destroyed` event triggers its 【Burst】, which resolves before any other waiting
--- effect (10-1-6-8: the `burst` class of game.yaml) and outside rule processing, so rule
--- processing runs after each of its operations (11-1-2); GD.activate then puts the card in
--- the trash unless its effect moved it (13-2-5-3). Returns whether it left the shields.
function GD.destroy_shield(ctx, s)
  local p = s.owner
  if GD.burst_ability(ctx, s) == nil then
    return ctx:move(s, "trash", { player = p, reason = "destroyed", face = "up" })[1] ~= nil
  end
  local l = ctx:move(s, "limbo", { player = p, reason = "destroyed", face = "up" })[1]
  if l == nil then return false end
  ctx:emit("shield_destroyed", { card = l, player = p })
  return true
end

--- Resolves the 【Burst】 `ab` of a destroyed shield waiting in no area (GD 13-2-5): its
--- owner may use it without paying its cost (13-2-5-1/2); then the card goes to its owner's
--- trash unless the effect moved it (13-2-5-3). Returns whether it was used.
function GD.resolve_burst(ctx, ab)
  local c, def = ab.source, ab.def
  local used = false
  if c.alive and c.zone == "limbo" then
    local may = ctx:guard(c, function() return def.condition == nil or def.condition(ctx) end) == true
    if may and ctx:yes_no(c.owner, "burst") then                          -- GD 13-2-5-2
      used = true
      ctx:emit("burst", { card = c, player = c.owner })
      if def.operate then def.operate(ctx, {}) end
    end
  end
  if c.alive and c.zone == "limbo" then ctx:move(c, "trash", { player = c.owner, reason = "destroyed" }) end
  return used
end

--- Destroys Units and Bases (GD 5-10-1): to their owners' trash, together (one batch of
--- triggers: 8-5-3-2-3); a card whose move a replacement effect changed stays `spared`, and
--- rule processing leaves it alone until it takes damage again.
local function destroy_field_cards(ctx, cards)
  if #cards == 0 then return end
  local _, replaced = ctx:track_replacements(function(ctx)
    return ctx:move(cards, "trash", { reason = "destroyed" })
  end)
  if replaced then
    for _, c in ipairs(cards) do
      if c.alive and (c.zone == "battle_area" or c.zone == "base_section") then ctx:set_flag(c, "spared", true) end
    end
  end
end

--- Each Unit or Base whose damage reaches its HP (GD 5-5-2), and each damaged shield
--- (11-3-1-1), in turn order. A team's Base Section and shields (Team Battle: 12-3-5, 12-3-7)
--- are looked at once, with its first player in turn order.
--- (Asked after every operation: numeric loops, cheaper than `ipairs` even on its fast path.)
local function doomed(ctx)
  local field, shields, looked = {}, {}, {}
  local order = ctx:turn_order()
  for i = 1, #order do
    local p = order[i]
    local team = ctx:team(p)
    local first = not looked[team]
    looked[team] = true
    local units = ctx:cards("battle_area", p)
    for j = 1, #units do
      local c = units[j]
      if c:counter_value("damage") >= c.hp and not c:flag_on("spared") then field[#field + 1] = c end
    end
    if first then
      local bases = ctx:cards("base_section", p)
      for j = 1, #bases do
        local c = bases[j]
        if c:counter_value("damage") >= c.hp and not c:flag_on("spared") then field[#field + 1] = c end
      end
      local shown = ctx:cards("shields", p)
      for j = 1, #shown do
        local s = shown[j]
        if s:counter_value("damage") > 0 and not s:flag_on("spared") then shields[#shields + 1] = s end
      end
    end
  end
  return field, shields
end

--- The `destruction` check (GD 11-3): every Unit and Base whose damage reaches its HP is
--- destroyed, then every damaged shield, from the top. They are destroyed together: one
--- batch of triggers (10-1-6-3), so two shields a 〈Suppression〉 attack destroyed are both
--- revealed before either 【Burst】 resolves, and their owner orders the two (FAQ Q165,
--- Q166, Q195).
function GD.destruction(ctx)
  local field, shields = doomed(ctx)
  -- Units and Bases alone go in one move, already one batch: no group needed.
  if #shields == 0 then return destroy_field_cards(ctx, field) end
  ctx:together(function(ctx)
    destroy_field_cards(ctx, field)
    for i = #shields, 1, -1 do
      local s = shields[i]
      if s.alive then
        local _, replaced = ctx:track_replacements(function(ctx) return GD.destroy_shield(ctx, s) end)
        if replaced and s.alive then ctx:set_flag(s, "spared", true) end
      end
    end
  end)
end

--- "Destroy" by an effect (GD 5-10-1): a Unit or Base to its owner's trash, a shield through
--- its 【Burst】 (5-10-3). A card that effects cannot destroy stays (1-3-3). Returns how many
--- were destroyed.
function GD.destroy(ctx, cards)
  local n, field = 0, {}
  for _, c in ipairs(GD.list(cards)) do
    if c.alive and not c:has("keywords", "cannot_be_destroyed_by_effects") then
      if c.zone == "shields" then
        if GD.destroy_shield(ctx, c) then n = n + 1 end
      elseif c.zone == "battle_area" or c.zone == "base_section" then
        field[#field + 1] = c
      end
    end
  end
  if #field > 0 then
    local moved = ctx:move(field, "trash", { reason = "destroyed" })
    for i = 1, #field do
      if moved[i] then n = n + 1 end
    end
  end
  return n
end

--- Recovers `n` HP of `c` (GD 5-6): removes up to `n` damage counters; a card without damage
--- cannot be recovered (5-6-3). Returns whether it recovered.
function GD.recover(ctx, c, n)
  if c == nil or not GD.damaged(c) or n <= 0 then return false end
  local take = math.min(n, c:counter_value("damage"))
  return ctx:add_counter(c, "damage", -take, "recover") ~= false
end
