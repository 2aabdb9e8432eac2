-- Turn structure: OP 6 (Refresh 6-2, Draw 6-3, DON!! 6-4, Main 6-5, End 6-6) and rule
-- processing (OP 9).

OP = OP or {}

--- Whether this is `p`'s first turn (OP 6-6 first-turn rules).
function OP.first_turn_of(ctx, p)
  if p == ctx:game_value("first_player") then return ctx.turn == 1 end
  return ctx.turn == 2
end

function OP.refresh_phase(ctx)
  local tp = ctx.turn_player
  ctx:expire("start_of_turn", tp) -- 6-2-1
  ctx:resolve_triggers() -- 6-2-2: "at the start of the turn" effects
  -- 6-2-3: attached DON!! return to the cost area rested.
  for _, c in ipairs(OP.fighters(ctx, tp)) do
    for _, d in ipairs(c.attachments) do
      ctx:move(d, "cost", { orientation = "rested", reason = "refresh" })
    end
  end
  -- 6-2-4: set all rested cards active.
  for _, zone in ipairs({ "leader", "character", "stage", "cost" }) do
    for _, c in ipairs(ctx:cards(zone, tp)) do ctx:set_orientation(c, "active", "refresh") end
  end
end

function OP.draw_phase(ctx)
  local tp = ctx.turn_player
  if tp == ctx:game_value("first_player") and ctx.turn == 1 then return end -- 6-3-1
  OP.draw(ctx, tp, 1)
end

function OP.don_phase(ctx)
  local tp = ctx.turn_player
  local n = (tp == ctx:game_value("first_player") and ctx.turn == 1) and 1 or 2 -- 6-4-1
  for _ = 1, n do
    local top = ctx:top("don_deck", tp, 1)[1]
    if top == nil then return end -- 6-4-2: as many as there are
    ctx:move(top, "cost", { orientation = "active", reason = "don_phase" })
  end
end

function OP.main_phase(ctx)
  ctx:emit("main_started", { player = ctx.turn_player }) -- 6-5-1
end

function OP.end_phase(ctx)
  local tp = ctx.turn_player
  ctx:emit("end_of_turn", { player = tp }) -- 6-6-1-1: [End of Your Turn] then opponent's
  ctx:resolve_triggers()
  -- 6-6-1-2: "until end of turn" effects end, the turn player's then the other's.
  ctx:expire("end_of_turn", tp)
  ctx:expire("end_of_turn")
  ctx:expire("this_turn", tp) -- 6-6-1-3
  ctx:expire("this_turn")
end

-- OP 9-2-1: a player whose Leader took damage at 0 Life, or whose deck is empty, loses.
function OP.defeat_due(ctx)
  if ctx.turn == 0 then return false end
  for p = 1, ctx.players do
    if ctx:in_game(p) and (ctx:count("deck", p) == 0 or ctx:value(p, "damaged_at_zero") > 0) then
      return true
    end
  end
  return false
end

function OP.defeat(ctx)
  local losers, winners = {}, {}
  for p = 1, ctx.players do
    if ctx:count("deck", p) == 0 or ctx:value(p, "damaged_at_zero") > 0 then
      losers[#losers + 1] = p
    else
      winners[#winners + 1] = p
    end
  end
  -- 9-2-1: every player meeting a condition loses; both at once is a draw (docs/rulings).
  ctx:end_game(winners, #winners == 0 and "both_defeated" or "defeat")
end
