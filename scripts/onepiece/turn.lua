-- Turn structure: OP 6 (Refresh 6-2, Draw 6-3, DON!! 6-4, Main 6-5, End 6-6) and rule
-- processing (OP 9).

OP = OP or {}

local RESTED = { orientation = "rested" }

-- Resolves the triggered abilities waiting, if any: with none the kernel would return at
-- once, so a read of the count spares the round trip (most End Phases trigger nothing).
local function resolve_pending(ctx)
  if ctx:pending() > 0 then ctx:resolve_triggers() end
end

--- Whether this is `p`'s first turn (OP 6-3-1, 6-4-1, 6-5-6-1 first-turn rules).
function OP.first_turn_of(ctx, p)
  if p == ctx:game_value("first_player") then return ctx.turn == 1 end
  return ctx.turn == 2
end

function OP.refresh_phase(ctx)
  local tp = ctx.turn_player
  ctx:expire("start_of_turn", tp) -- OP 6-2-1: "until the start of your next turn" effects end
  resolve_pending(ctx) -- OP 6-2-2: "at the start of the turn" effects (the kernel's turn_began)
  -- OP 6-2-3: DON!! attached to the turn player's Leader and Characters return to the cost
  -- area, rested.
  for _, c in ipairs(OP.fighters(ctx, tp)) do
    for _, d in ipairs(c.attachments) do
      ctx:move(d, "cost", { orientation = "rested", reason = "refresh" })
    end
  end
  -- OP 6-2-4: the turn player's rested cards become active (1-3-2-1: active ones are untouched,
  -- so they are not asked to).
  for _, zone in ipairs({ "leader", "character", "stage", "cost" }) do
    for _, c in ipairs(ctx:cards(zone, tp, RESTED)) do ctx:set_orientation(c, "active", "refresh") end
  end
end

function OP.draw_phase(ctx)
  local tp = ctx.turn_player
  if tp == ctx:game_value("first_player") and ctx.turn == 1 then return end -- OP 6-3-1
  OP.draw(ctx, tp, 1)
end

function OP.don_phase(ctx)
  local tp = ctx.turn_player
  local n = (tp == ctx:game_value("first_player") and ctx.turn == 1) and 1 or 2 -- OP 6-4-1
  for _ = 1, n do
    local top = ctx:top("don_deck", tp, 1)[1]
    if top == nil then return end -- OP 6-4-2, 6-4-3: as many as the DON!! deck has
    ctx:move(top, "cost", { orientation = "active", reason = "don_phase" }) -- OP 3-9-3
  end
end

function OP.main_phase(ctx)
  ctx:emit("main_started", { player = ctx.turn_player }) -- OP 6-5-1
end

--- A delayed one-shot effect "at the end of this turn, ..." (OP 6-6-1-2): declare it in the
--- card's ability list as `OP.at_end_of_turn{ operate = ... }` and arm it with `ctx:delay(it)`
--- while resolving; it is performed once, in step (I) of this End Phase if its player is the
--- turn player, in step (II) otherwise.
function OP.at_end_of_turn(a)
  a.kind, a.on, a.dormant = "triggered", "turn_end_actions", true
  a.when = function(ctx, ev) return ev.player == ctx.player end
  return a
end

--- Arms an OP.at_end_of_turn effect for this turn's End Phase; if it has not been performed
--- by the end of this turn (armed too late), it lapses with the "during this turn" effects
--- (OP 6-6-1-3).
function OP.delay_to_end_of_turn(ctx, def)
  return ctx:delay(def, { ["until"] = "this_turn" })
end

function OP.end_phase(ctx)
  local tp = ctx.turn_player
  -- OP 6-6-1-1: [End of Your Turn] and [End of Your Opponent's Turn] effects, once each
  -- (6-6-1-1-1): one batch, the turn player's [End of Your Turn] first (6-6-1-1-2), each player
  -- ordering their own (6-6-1-1-3/4).
  ctx:emit("end_of_turn", { player = tp })
  resolve_pending(ctx)
  -- OP 6-6-1-2 (I): the turn player's "at the end of this turn" processing (delayed effects
  -- armed with ctx:delay on the `turn_end_actions` event, see OP.at_end_of_turn), then their
  -- "until the end of the turn" effects end.
  ctx:emit("turn_end_actions", { player = tp })
  resolve_pending(ctx)
  ctx:expire("end_of_turn", tp)
  -- OP 6-6-1-2 (II): the same for the other player (and effects with no owner, and "until the
  -- end of your opponent's next turn", docs/rulings 6-6-1-2).
  ctx:emit("turn_end_actions", { player = OP.opponent(ctx, tp) })
  resolve_pending(ctx)
  ctx:expire("end_of_turn")
  -- OP 6-6-1-3: "during this turn" effects end, the turn player's first.
  ctx:expire("this_turn", tp)
  ctx:expire("this_turn")
  -- OP 6-6-1-4: the turn ends; the kernel starts the other player's turn.
end

-- OP 9-2-1: a player whose Leader took damage at 0 Life (9-2-1-1), or whose deck is empty
-- (9-2-1-2), loses. game.yaml's `defeat` check says when (the kernel tests it after every
-- operation, 9-1-2, from turn 1, 5-2-1); this is what happens then.
function OP.defeat(ctx)
  local losers, winners = {}, {}
  for p = 1, ctx.players do
    if ctx:count("deck", p) == 0 or ctx:value(p, "damaged_at_zero") > 0 then
      losers[#losers + 1] = p
    else
      winners[#winners + 1] = p
    end
  end
  -- OP 9-2-1, 1-2-1: every player meeting a condition loses; both at once is a draw
  -- (docs/rulings OP 1-2-1).
  ctx:end_game(winners, #winners == 0 and "both_defeated" or "defeat")
end
