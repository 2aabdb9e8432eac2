-- Limits on how many cards of a name an ability works for: Gl: (Zone X [up] Work Y). The limits
-- on how often an ability works or a Skill is used, Gl: (X/Y) and (ที่ชื่อ [S] X / Y), are counted by
-- the kernel's tallies (abilities.lua SM.limit_left, SM.limit_use: docs/kernel.md, "Tally").
--
-- (Zone X up Work Y) is printed after a card's Ability (card data `work: {zone, x, y}`; it limits
-- the card's Abilities, not its Skills): when X or more cards named as this one ([S]) are in the
-- zone, only Y of them have the Ability working: the first Y to enter, which do not change even if
-- they lose the ability or become a Support Seal; when one of those leaves and X or more remain,
-- the player chooses the card that works instead. Counted per player, in their part of the zone
-- (docs/rulings B.21): the Arena, the hand, the Shrine or the Library (both of the player's), or the
-- Remove Zone (`zone: arena | hand | shrine | library | remove_zone`). Each card of such
-- a group carries the counter `work`: 0 (not seen yet), 2 (one of the Y), 1 (not one of the Y, X
-- or more of them there: its Abilities do not work), 3 (not one of the Y, fewer than X there: they
-- work). A rule check (`zone_work`) keeps it, so that an Ability reads one counter.

SM = SM or {}

--- The zones a (Zone X Work Y) may name, in the order they are looked at, and player `p`'s cards
--- there.
local ZONE_ORDER = { "arena", "hand", "shrine", "remove_zone", "library" }
--- Each zone's bit in the game value `zone_work` (1 + the zones the game's cards name).
local ZONE_BIT = { arena = 1, hand = 2, shrine = 4, remove_zone = 8, library = 16 }
--- The Arena's bit, and those of the zones outside it (board.lua tests them apart).
SM.WORK_ARENA, SM.WORK_OUTSIDE = 1, 30
local ZONES = {
  arena = function(ctx, p)
    return util.filter(SM.field_cards(ctx, p), function(c) return SM.top(c).controller == p end)
  end,
  hand = function(ctx, p) return ctx:cards("hand", p) end,
  shrine = function(ctx, p) return util.concat(ctx:cards("seal_shrine", p), ctx:cards("mystic_shrine", p)) end,
  remove_zone = function(ctx, p) return ctx:cards("remove_zone", p) end,
  library = function(ctx, p) return util.concat(ctx:cards("seal_library", p), ctx:cards("mystic_library", p)) end,
}
--- Where a card printing a (Zone X Work Y) for a zone is looked for: a card of the Arena comes in
--- as one of these (a card attached later was one before).
local SOURCES = {
  arena = function(ctx, p)
    return util.concat(SM.seals(ctx, p), ctx:cards("arena", p), ctx:cards("casting", p))
  end,
  hand = ZONES.hand, shrine = ZONES.shrine, remove_zone = ZONES.remove_zone, library = ZONES.library,
}

--- The cards of player `p` in `zone` named `name`, oldest entry first.
local function members(ctx, p, zone, name)
  local out = util.filter(ZONES[zone](ctx, p), function(c) return c.name == name end)
  table.sort(out, function(a, b) return a.timestamp < b.timestamp end)
  return out
end

--- Whether card `c` is in the zone its (Zone X Work Y) names.
local function in_zone(c, w)
  if w.zone == "arena" then return SM.in_field(c) end
  if w.zone == "shrine" then return c.zone == "seal_shrine" or c.zone == "mystic_shrine" end
  if w.zone == "library" then return c.zone == "seal_library" or c.zone == "mystic_library" end
  return c.zone == w.zone
end

--- Whether card `c`'s Abilities work as far as its (Zone X Work Y) goes: it has none, or it is one
--- of the Y, or fewer than X cards of its name are there (its counter `work` is not 1).
function SM.works_here(ctx, c) return c:counter_value("work") ~= 1 end

--- The (Zone X Work Y) groups in play: one per player, zone and name of a card there with one.
--- Only the zones some card of the game names are looked at (every check runs this).
local function groups(ctx)
  local out, seen = {}, {}
  local named = ctx:game_value("zone_work") - 1
  for p = 1, 2 do
    for _, zone in ipairs(ZONE_ORDER) do
      for _, c in ipairs(bit32.band(named, ZONE_BIT[zone]) ~= 0 and SOURCES[zone](ctx, p) or {}) do
        local w = c:printed("work")
        if w ~= nil and w.zone == zone and in_zone(c, w) and not seen[p .. w.zone .. c.name] then
          seen[p .. w.zone .. c.name] = true
          out[#out + 1] = { player = p, zone = w.zone, name = c.name, x = w.x, y = w.y }
        end
      end
    end
  end
  return out
end

--- The cards of group `g` and how many are working, waiting (1 or 3) and new; whether a waiting
--- one's counter says the wrong side of X.
local function count(ctx, g)
  local list = members(ctx, g.player, g.zone, g.name)
  local working, waiting, new, wrong = 0, 0, 0, false
  local full = #list >= g.x
  for _, c in ipairs(list) do
    local v = c:counter_value("work")
    if v == 2 then
      working = working + 1
    elseif v == 1 or v == 3 then
      waiting = waiting + 1
      if (v == 1) ~= full then wrong = true end
    else
      new = new + 1
    end
  end
  return list, working, waiting, new, wrong
end

--- The zones the game's cards name in a (Zone X Work Y), as `ZONE_BIT`s: looked at once, at the
--- first check (the game value `zone_work`: 0 not looked yet, else 1 + these bits; a Wisdom
--- naming sets it back to 0), so that a game pays only for the zones its cards name.
local function zones_named(ctx)
  local bits = 0
  local function note(c)
    local w = c:printed("work")
    if w ~= nil then bits = bit32.bor(bits, ZONE_BIT[w.zone] or 0) end
  end
  for p = 1, 2 do
    for _, z in ipairs(util.concat(SM.FIELD, SM.OUTSIDE, { "extra" })) do
      for _, c in ipairs(ctx:cards(z, p)) do
        note(c)
        for _, a in ipairs(c.attachments) do note(a) end
      end
    end
  end
  return bits
end

--- The (Zone X Work Y) test (a part of the `board` and `outside` checks, board.lua); `where`:
--- "arena" (the Arena alone) or "outside" (only the zones outside it), nil: every zone.
--- (What `groups` and `count` find, each zone's cards listed once for its groups, and no more
--- once a group has something to do.)
function SM.work_due(ctx, where)
  local known = ctx:game_value("zone_work")
  if known == 0 then return true end
  if known == 1 then return false end
  local named, seen = known - 1, {}
  for p = 1, 2 do
    for _, zone in ipairs(ZONE_ORDER) do
      if bit32.band(named, ZONE_BIT[zone]) ~= 0 and (where == nil or (where == "arena") == (zone == "arena")) then
        local sources = SOURCES[zone](ctx, p)
        local cards = zone ~= "arena" and sources or nil -- ZONES[zone] is SOURCES[zone] but for the Arena
        for _, c in ipairs(sources) do
          local w = c:printed("work")
          if w ~= nil and w.zone == zone and in_zone(c, w) and not seen[p .. w.zone .. c.name] then
            seen[p .. w.zone .. c.name] = true
            cards = cards or ZONES.arena(ctx, p)
            -- `count` of this group: its members' counters (in any order).
            local name, n, working, waiting, new = c.name, 0, 0, 0, 0
            local ones = 0
            for _, m in ipairs(cards) do
              if m.name == name then
                n = n + 1
                local v = m:counter_value("work")
                if v == 2 then
                  working = working + 1
                elseif v == 1 or v == 3 then
                  waiting = waiting + 1
                  if v == 1 then ones = ones + 1 end
                else
                  new = new + 1
                end
              end
            end
            -- wrong: a waiting card whose counter says the wrong side of X
            local full = n >= w.x
            local wrong = (full and ones < waiting) or (not full and ones > 0)
            if new > 0 or wrong or (working < w.y and waiting > 0) then return true end
          end
        end
      end
    end
  end
  return false
end

--- Gl: (Zone X Work Y) 2, 3: the first Y cards to enter work; when one of them left and X or more
--- remain, the player chooses which card works instead (prompt `work`); with fewer left, the
--- oldest does (every card works then anyway). New cards are marked in the order they entered.
function SM.fix_work(ctx)
  if ctx:game_value("zone_work") == 0 then
    ctx:set_game_value("zone_work", 1 + zones_named(ctx))
    if ctx:game_value("zone_work") == 1 then return end
  end
  for _, g in ipairs(groups(ctx)) do
    local list, working, waiting = count(ctx, g)
    local free = g.y - working
    local function waits(c) local v = c:counter_value("work") return v == 1 or v == 3 end
    if free > 0 and waiting > 0 then
      local cands = util.filter(list, waits)
      local n = math.min(free, #cands)
      local chosen = {}
      if #list >= g.x and n < #cands then
        chosen = SM.list(ctx:choose_cards(g.player, cands, { min = n, max = n, prompt = "work" }))
      else
        for i = 1, n do chosen[i] = cands[i] end
      end
      for _, c in ipairs(chosen) do ctx:add_counter(c, "work", 2 - c:counter_value("work"), "work") end
      free = free - #chosen
    end
    for _, c in ipairs(list) do
      if c.alive and c:counter_value("work") == 0 then
        if free > 0 then
          ctx:add_counter(c, "work", 2, "work")
          free = free - 1
        else
          ctx:add_counter(c, "work", 1, "work")
        end
      end
    end
    -- The cards not among the Y: their Abilities do not work while X or more are there (1), they do
    -- with fewer (3).
    local want = #list >= g.x and 1 or 3
    for _, c in ipairs(list) do
      local v = c.alive and c:counter_value("work") or 2
      if (v == 1 or v == 3) and v ~= want then ctx:add_counter(c, "work", want - v, "work") end
    end
  end
end
