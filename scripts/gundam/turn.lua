-- Turn structure: GD 7 (Start 7-2, Draw 7-3, Resource 7-4, Main 7-5, End 7-6) and the defeat
-- of section 11-2 (with 12-2-5, 12-3-9); the action step's order (9, 12-2-8) is game.yaml's.
-- In Team Battle both members of the turn team take each phase (12-3-1): ctx:turn_side().

GD = GD or {}

local RESTED = { orientation = "rested" }

--- The maximum hand size at the Hand Step (GD 4-8-4, 7-6-5).
GD.HAND_LIMIT = 10

--- GD 7-2: the Start Phase.
function GD.start_phase(ctx)
  -- GD 7-2-3: the Active Step: every rested card of the turn player's Battle Area, Resource
  -- Area and Base Section becomes active, all at once (7-2-3-2: one operation).
  local rested = {}
  for _, p in ipairs(ctx:turn_side()) do
    for _, zone in ipairs({ "battle_area", "resource_area", "base_section" }) do
      for _, c in ipairs(ctx:cards(zone, p, RESTED)) do
        if zone ~= "base_section" or c.controller == p then rested[#rested + 1] = c end
      end
    end
  end
  if #rested > 0 then ctx:set_orientation(rested, "active", "active_step") end
  ctx:resolve_triggers() -- GD 7-2-2: the step's effects before the next
  -- GD 7-2-4: the Start Step: "at the start of the turn" effects.
  ctx:emit("start_step", { player = ctx.turn_player })
end

--- GD 7-3: each turn player draws 1 (7-3-1); an empty deck then loses (7-3-1-1: the defeat
--- check runs after the draw, 11-1-2).
function GD.draw_phase(ctx)
  for _, p in ipairs(ctx:turn_side()) do GD.draw_one(ctx, p) end
end

--- GD 7-4: each turn player places the top card of their resource deck in their Resource
--- Area, active (7-4-1); none when the deck is empty or the area holds 15 (4-4-2, 1-3-2).
function GD.resource_phase(ctx)
  for _, p in ipairs(ctx:turn_side()) do GD.place_resource(ctx, p) end
end

--- Places the top card of `p`'s resource deck in their Resource Area (GD 3-6-1). Returns
--- the resource, or nil when none could be placed.
function GD.place_resource(ctx, p)
  if ctx:count("resource_area", p) >= 15 then return nil end -- GD 4-4-2
  local top = ctx:top("resource_deck", p, 1)[1]
  if top == nil then return nil end
  return ctx:move(top, "resource_area", { orientation = "active", reason = "resource", face = "up" })[1]
end

--- GD 7-5: the Main Phase; its actions are listed at each decision (play.lua).
function GD.main_phase(ctx) end

--- GD 7-6-4: the End Step: "at the end of the turn" effects and 〈Repair〉 (13-1-1).
function GD.end_step(ctx)
  ctx:emit("end_step", { player = ctx.turn_player })
end

--- GD 7-6-5: the Hand Step: a turn player with more than 10 cards discards down to 10, the
--- cards of their choice (7-6-5-1); the other players' hands are not checked.
function GD.hand_step(ctx)
  for _, p in ipairs(ctx:turn_side()) do
    local over = ctx:count("hand", p) - GD.HAND_LIMIT
    if over > 0 then
      local out = GD.list(ctx:choose_cards(p, ctx:cards("hand", p), { min = over, max = over, prompt = "hand_limit" }))
      ctx:move(out, "trash", { reason = "discard" })
    end
  end
end

--- GD 7-6-6: the Cleanup Step: "during this turn" effects end (7-6-6-1); what they trigger
--- resolves after the step (the procedure resolves triggers between steps: 7-6-2).
function GD.cleanup_step(ctx)
  GD.expire(ctx, "this_turn")
end

-- Defeat (GD 11-2) ----------------------------------------------------------------------------

--- GD 11-2-1: every player who meets a defeat condition loses at once: battle damage from a
--- unit with an empty Shield Area (11-2-1-1, kept as `hit_unprotected`), or an empty deck
--- (11-2-1-2). With two sides left the game ends (every side losing at once: a draw,
--- docs/rulings 11-2-1). In Battle Royal, under "first to win" the player who dealt that
--- battle damage wins at once (12-2-5-1) while an empty deck only eliminates (12-2-5-1);
--- under "elimination" each loser leaves and the others play on (12-2-5-2). In Team Battle a
--- member meeting a condition makes their team lose (12-3-9).
function GD.defeat(ctx)
  local losing_teams, hitter = {}, nil
  local left = ctx:turn_order()
  for _, p in ipairs(left) do
    local by = ctx:value(p, "hit_unprotected")
    if by > 0 or ctx:count("deck", p) == 0 then losing_teams[ctx:team(p)] = true end
    if by > 0 and hitter == nil then hitter = by end
  end
  if GD.mode(ctx) == "battle-royal" and ctx:option("victory") == "first-to-win" and hitter then
    return ctx:end_game({ hitter }, "battle_damage") -- GD 12-2-5-1
  end
  local standing, seen = {}, {}
  for _, p in ipairs(left) do
    local t = ctx:team(p)
    if not losing_teams[t] and not seen[t] then standing[#standing + 1] = p; seen[t] = true end
  end
  if #standing <= 1 then
    -- Zero or one side left: the game ends (none standing: a draw).
    return ctx:end_game(standing, #standing == 0 and "all_defeated" or "defeat")
  end
  -- Several sides still stand (Battle Royal): the losers leave; the game goes on (12-2-5).
  for _, p in ipairs(left) do
    if losing_teams[ctx:team(p)] then ctx:eliminate(p, "defeat") end
  end
end
