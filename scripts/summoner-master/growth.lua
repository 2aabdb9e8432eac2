-- Growth, Progress and Regeneration: SM 611-614 (Growth: its Seal 612, its condition Seals 613,
-- the procedure 614), 617 (Progress), 618 (Regeneration), with the glossary's limits (Gl:
-- Progress, Regeneration: one per Subturn, entering the attack Subturn by normal turn passing;
-- no Progress in a player's first attack Subturn; a successful Progress skips the Draw Step) and
-- Gl: Control (controlled cards are never condition or Progressed cards).
--
-- Card data: `growth` lists a Seal's Growth conditions, one Seal each (611.6: a Seal meets one
-- condition at most), with the conditions of combination.lua (`{name}`, `{race}`...);
-- `progress` lists the cards a card progresses from. The abilities of the boxes are built with
-- `box = "growth"` or `box = "progress"` (cards.lua).

SM = SM or {}

--- The Seals that may be condition Seals of Seal `c` for player `p` (SM 613): in the Arena, owned
--- by `p` and not controlled (Gl: Control), not `c` itself, not attached.
local function condition_pool(ctx, c, p)
  return util.filter(SM.seals(ctx, p), function(s)
    return s ~= c and s.owner == p and s.controller == p and s.host == nil
  end)
end

--- The ways `needs` (a list of conditions) can be met from `pool`, one card each (at most 24).
function SM.condition_sets(pool, needs)
  local out = {}
  local k = #needs
  if k == 0 then return out end
  local pick = {}
  local function go(start)
    if #out >= 24 then return end
    if #pick == k then
      if SM.fits(pick, needs) then out[#out + 1] = util.map(pick, function(x) return x end) end
      return
    end
    for i = start, #pool do
      pick[#pick + 1] = pool[i]
      go(i + 1)
      pick[#pick] = nil
    end
  end
  go(1)
  return out
end

--- The options of a Growth choice for Seal `c` of player `p` (SM 610.1.7, 614.2): one per set of
--- condition Seals that meets its Growth Box, and "no Growth". `run(ctx, option, data)` records
--- the choice.
function SM.growth_choices(ctx, c, p, run)
  local sets = SM.condition_sets(condition_pool(ctx, c, p), SM.printed(c, "growth") or {})
  if #sets == 0 then return {} end
  local out = {}
  for _, set in ipairs(sets) do
    local names = table.concat(util.map(set, function(s) return s.label end), " + ")
    out[#out + 1] = { label = "grow with " .. names, kind = "grow", cards = set, run = run }
  end
  out[#out + 1] = { label = "no Growth", kind = "no", run = function(ctx, o, d)
    d.growth_asked = true
    d.grow = nil
  end }
  return out
end

-- Growth (SM 614) --------------------------------------------------------------------------------------

--- SM 614.2, 614.7: the condition Seals (again, after the Interfere Step, when the declared ones no
--- longer meet the conditions; the player may leave the Growth).
function SM.growth_condition_actions(ctx, p, d)
  if d.conditions ~= nil then return {} end
  local out = SM.growth_choices(ctx, d.card, p, function(ctx, o, d) d.conditions = o.cards end)
  for _, o in ipairs(out) do
    if o.kind == "no" then o.run = function(ctx, o, d) d.left = true end end
  end
  return out
end

--- Whether the record's condition Seals still meet Seal `c`'s Growth Box (SM 613, 614.2).
local function conditions_hold(ctx, d)
  local c = d.card
  if d.conditions == nil then return false end
  local pool = condition_pool(ctx, c, d.player)
  for _, s in ipairs(d.conditions) do
    if not util.contains(pool, s) then return false end
  end
  return SM.fits(d.conditions, SM.printed(c, "growth") or {})
end

--- SM 614.1-614.4: Growth is commanded; the Seal is growing; "when it grows" abilities choose.
function SM.growth_declare(ctx, d)
  local c = d.card
  if d.left or not c.alive or SM.printed(c, "growth") == nil or c:flag_on("grown") then return "stop" end
  if not conditions_hold(ctx, d) then return "stop" end -- SM 614.2
  if not d.declared then
    d.declared = true
    ctx:set_flag(c, "growing", true)
  end
  SM.slot_choose(ctx, d, "growth", { c })
end

--- SM 614.6: their targets are checked (a failed one chooses again).
function SM.growth_check(ctx, d) return SM.slot_validate(ctx, d, "declare") end

--- SM 614.7: the conditions are checked again; other condition Seals may be declared (unpaid),
--- else the Growth ends.
function SM.growth_validate(ctx, d)
  if not d.card.alive then return "stop" end
  if conditions_hold(ctx, d) then return nil end
  d.conditions = nil
  if #SM.condition_sets(condition_pool(ctx, d.card, d.player), SM.printed(d.card, "growth") or {}) == 0 then return "stop" end
  return "conditions"
end

--- SM 614.8-614.12: the condition Seals are Removed; the Seal grows (its Growth Box's abilities
--- are in its Text Box now); "when it grows" abilities work; the Growth Box's "enters the Arena"
--- abilities choose and work now.
function SM.growth_grow(ctx, d)
  local c = d.card
  local gone = util.filter(d.conditions, function(s) return s.alive end)
  ctx:together(function(ctx)
    for _, s in ipairs(gone) do ctx:move(s, "remove_zone", { player = s.owner, reason = "growth" }) end
  end)
  if not c.alive then return "stop" end
  ctx:set_flag(c, "grown", true)
  ctx:emit("grew", { card = c, player = d.player })
  SM.slot_check(ctx, d, nil)
  SM.slot_fire(ctx, d, "enters", { c }, function(ab) return ab.def.box == "growth" end)
end

--- SM 614.13: the end.
function SM.growth_end(ctx, d) SM.clear_flags(ctx, { d.card }, { "growing" }) end

-- Progress (SM 617) -------------------------------------------------------------------------------------

--- The cards of player `p` that may be Progressed into a card `c` of theirs with a Progress Box:
--- the ways its `progress` list can be met from their Arena, not controlled (Gl: Control).
local function progress_sets(ctx, c, p)
  local pool = util.filter(SM.field_cards(ctx, p), function(x)
    -- a Support Seal is no Progressed card; a pasted Mystic Card may be (SM 617.2, A.20)
    return (x.host == nil or SM.is_mystic(x)) and x.owner == p and x.controller == p and x.zone ~= "casting"
  end)
  return SM.condition_sets(pool, SM.printed(c, "progress") or {})
end

--- SM 401.2.6: at the Check up Step the player may Progress one card (Gl: Progress: not in their
--- first attack Subturn; from the hand or a Library).
function SM.progress_actions(ctx, p, d)
  if d.none_found or SM.first_subturn(ctx) or d.progress_asked then return {} end -- (none_found: zones.lua)
  local out = {}
  for _, z in ipairs({ "hand", "seal_library", "mystic_library" }) do
    for _, c in ipairs(ctx:cards(z, p)) do
      if SM.printed(c, "progress") ~= nil then
        for _, set in ipairs(progress_sets(ctx, c, p)) do
          local names = table.concat(util.map(set, function(s) return s.label end), " + ")
          out[#out + 1] = { label = "progress " .. names .. " into " .. c.label, kind = "progress", card = c,
            procedure = "progress", data = { card = c, progressed = set, player = p, kind = "progress" } }
        end
      end
    end
  end
  if #out > 0 then
    out[#out + 1] = { label = "no Progress", kind = "no", pass = true }
  end
  return out
end

--- The step before the Progress window (its options from a Library, looked at: zones.lua).
function SM.progress_search(ctx, d) SM.search_libraries(ctx, d, SM.progress_actions) end

--- SM 617.1.1-617.1.7: Progress is commanded; its cards are checked; the Progressed cards are
--- Removed.
function SM.progress_declare(ctx, d)
  local c = d.card
  if not c.alive or SM.in_field(c) then return "stop" end
  for _, x in ipairs(d.progressed) do
    if not (x.alive and SM.in_field(x) and x.controller == d.player and x.owner == d.player) then return "stop" end
  end
  if not SM.fits(d.progressed, SM.printed(c, "progress") or {}) then return "stop" end
  d.from = c.zone
  ctx:together(function(ctx)
    for _, x in ipairs(d.progressed) do ctx:move(x, "remove_zone", { player = x.owner, reason = "progress" }) end
  end)
end

--- SM 617.1.8, 303.3: the Progressing card's Line (a window of its player).
function SM.progress_line_actions(ctx, p, d)
  if not SM.is_seal(d.card) or d.line_ok then return {} end
  return SM.line_place_options(ctx, d.card, p, "line")
end

--- SM 617.1.8-617.1.11: the card is cast into the Arena without its cost, its abilities not yet
--- working; the Progress succeeds (its Progress Box's abilities are in its Text Box); "when it
--- progresses" abilities work; then its "enters the Arena" abilities choose and work.
function SM.progress_bring(ctx, d)
  local c, p = d.card, d.player
  if not c.alive then return "stop" end
  local n
  if SM.is_seal(c) then
    n = SM.place_in_line(ctx, c, d.line or "at_line", d.place, p, "progress")
    if n ~= nil then ctx:set_value(p, "brought_seal", 1) end
  else
    n = SM.progress_mystic(ctx, c, p) -- SM 617.2.8: a PS or PM card is pasted (paste.lua)
  end
  if n == nil then return "stop" end
  if d.from ~= "hand" then ctx:shuffle(d.from, p) end -- SM 300.7
  d.card = n
  ctx:set_flag(n, "progressed", true)
  ctx:set_value(p, "skip_draw", 1) -- Gl: Progress: no Draw Step this Subturn
  ctx:emit("progressed", { card = n, player = p })
  ctx:resolve_triggers()
  ctx:emit("entered", { card = n, player = p, reason = "progress" })
  SM.slot_fire(ctx, d, "enters", { n })
  -- SM 617.2.11: then "when pasted" abilities.
  if n.alive and SM.is_mystic(n) and n.host ~= nil then ctx:emit("pasted", { card = n, target = n.host, player = p }) end
end

-- Regeneration (SM 618) -------------------------------------------------------------------------------

--- SM 401.2.7: at the Check up Step the player may Regenerate one Seal not in the Growth state
--- that has a Growth Box (Gl: Regeneration).
function SM.regeneration_actions(ctx, p, d)
  if d.regeneration_asked then return {} end
  local out = {}
  for _, c in ipairs(SM.seals(ctx, p)) do
    if SM.printed(c, "growth") ~= nil and not c:flag_on("grown") and c.controller == p then
      for _, set in ipairs(SM.condition_sets(condition_pool(ctx, c, p), SM.printed(c, "growth"))) do
        local names = table.concat(util.map(set, function(s) return s.label end), " + ")
        out[#out + 1] = { label = "regenerate " .. c.label .. " with " .. names, kind = "regenerate", card = c,
          procedure = "regeneration", data = { card = c, conditions = set, player = p, kind = "regeneration" } }
      end
    end
  end
  if #out > 0 then out[#out + 1] = { label = "no Regeneration", kind = "no", pass = true } end
  return out
end

--- SM 618.1-618.12: the condition Seals are Removed and the Seal is in the Growth state (not a
--- Growth: no "Growth succeeds"); "when it regenerates" abilities work after this step.
function SM.regenerate(ctx, d)
  local c = d.card
  if not (c.alive and SM.in_field(c) and not c:flag_on("grown") and conditions_hold(ctx, d)) then return "stop" end
  ctx:together(function(ctx)
    for _, s in ipairs(d.conditions) do ctx:move(s, "remove_zone", { player = s.owner, reason = "regeneration" }) end
  end)
  if not c.alive then return "stop" end
  ctx:set_flag(c, "grown", true)
  ctx:emit("regenerated", { card = c, player = d.player })
end
