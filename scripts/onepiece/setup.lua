-- Pre-game procedure: OP 5-2-1.

OP = OP or {}

function OP.setup(ctx)
  for _, p in ipairs(ctx:turn_order()) do ctx:shuffle("deck", p) end -- 5-2-1-2
  -- 5-2-1-3: Leaders are already face up in the Leader area (the deck's leader section).
  -- 5-2-1-4 / 5-2-1-4-1: a random player decides who goes first (docs/rulings/onepiece.md).
  local decider = ctx:random(ctx.players)
  local first = ctx:choose(decider, {
    { label = "go first", kind = "first" },
    { label = "go second", kind = "second" },
  }, { prompt = "first_or_second" })
  local first_player = first.kind == "first" and decider or OP.opponent(ctx, decider)
  ctx:set_first_player(first_player)
  ctx:set_game_value("first_player", first_player)
  -- 5-2-1-5-1: "at the start of the game" effects, chooser's first.
  ctx:emit("game_started", { player = decider })
  ctx:resolve_triggers()
  local order = { first_player, OP.opponent(ctx, first_player) }
  for _, p in ipairs(order) do OP.draw(ctx, p, 5) end -- 5-2-1-6
  for _, p in ipairs(order) do
    -- 5-2-1-6-1: once, the whole hand back, shuffle, draw 5 again.
    if ctx:yes_no(p, "mulligan") then
      ctx:move(ctx:cards("hand", p), "deck", { reason = "mulligan" })
      ctx:shuffle("deck", p)
      OP.draw(ctx, p, 5)
    end
  end
  -- 5-2-1-7: Life from the deck top, the top card ending at the bottom of the Life area.
  for _, p in ipairs(order) do
    local leader = OP.leader(ctx, p)
    for _ = 1, leader.life do
      local top = ctx:top("deck", p, 1)[1]
      if top then ctx:move(top, "life", { reason = "setup", face = "down" }) end
    end
  end
end
