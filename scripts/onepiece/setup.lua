-- Pre-game procedure: OP 5-2-1. (Deck construction, 5-1-2, is checked in deck.lua.)

OP = OP or {}

function OP.setup(ctx)
  for _, p in ipairs(ctx:turn_order()) do ctx:shuffle("deck", p) end -- OP 5-2-1-2
  -- OP 5-2-1-3: the Leaders are already face up in the Leader area (the deck's leader section).
  -- OP 5-2-1-4 / 5-2-1-4-1: a random player decides who goes first (docs/rulings: one draw of
  -- the game's seeded RNG).
  local decider = ctx:random(ctx.players)
  local first = ctx:choose(decider, {
    { label = "go first", kind = "first" },
    { label = "go second", kind = "second" },
  }, { prompt = "first_or_second" }) -- OP 5-2-1-5
  local first_player = first.kind == "first" and decider or OP.opponent(ctx, decider)
  -- OP 5-2-1-5-1: Leaders' "at the start of the game" effects, all of the decider's (in the
  -- order they choose) before the other player's: the decider takes the turn player's place
  -- while they resolve. OP 5-2-1-5-2: OP.activate shuffles a deck such an effect changed.
  ctx:set_first_player(decider)
  ctx:emit("game_started", { player = decider })
  ctx:resolve_triggers()
  ctx:set_first_player(first_player)
  ctx:set_game_value("first_player", first_player)
  local order = { first_player, OP.opponent(ctx, first_player) }
  for _, p in ipairs(order) do OP.draw(ctx, p, 5) end -- OP 5-2-1-6
  for _, p in ipairs(order) do
    -- OP 5-2-1-6-1: once each, the first player first: the whole hand back, shuffle, draw 5.
    if ctx:yes_no(p, "mulligan") then
      ctx:move(ctx:cards("hand", p), "deck", { reason = "mulligan" })
      ctx:shuffle("deck", p)
      OP.draw(ctx, p, 5)
    end
  end
  -- OP 5-2-1-7, 2-9-2: Life cards from the deck top, one at a time, so that the deck's top
  -- card ends at the bottom of the Life area; face down, nobody looks at them.
  for _, p in ipairs(order) do
    local leader = OP.leader(ctx, p)
    for _ = 1, leader.life do
      local top = ctx:top("deck", p, 1)[1]
      if top then ctx:move(top, "life", { reason = "setup", face = "down" }) end
    end
  end
  -- OP 5-2-1-8: the first player starts (the kernel begins turn 1 with them).
end
