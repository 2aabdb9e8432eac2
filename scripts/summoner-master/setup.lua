-- Starting a game: SM 102 (the start of the game), with 104.1 (each game of a match starts anew)
-- and the draws of Gl: Draw. Deck construction (101.2, 101.4) is deck.lua.

SM = SM or {}

--- Draws the top card of one of `p`'s Libraries ("seal_library" or "mystic_library") into their
--- hand (Gl: Draw: one card at a time). An empty pile: the player loses (SM 103.3; the `defeat`
--- check ends the game). Returns the card, or nil.
function SM.draw(ctx, p, pile)
  local top = ctx:top(pile, p, 1)[1]
  if top == nil then
    ctx:set_value(p, "drew_from_empty", 1)
    return nil
  end
  return ctx:move(top, "hand", { player = p, reason = "draw" })[1]
end

--- SM 102: the start of the game.
function SM.setup(ctx)
  -- SM 102.1: each player's Libraries in a random state (both were shuffled by their owner and
  -- offered to the opponent: one shuffle of the seeded generator stands for both).
  for p = 1, 2 do
    ctx:shuffle("seal_library", p)
    ctx:shuffle("mystic_library", p)
  end
  -- SM 102.2: Reflection and Extra Cards wait beside the deck: the deck lists' `reflections` and
  -- `extras` sections start there (zones `reflection`, face up, and `extra`, face down).
  -- SM 102.3, 102.4: who starts. In the first game of a match a fair method decides: a player
  -- drawn at random chooses (docs/rulings 102.3); in a later game the previous game's loser does
  -- (after a draw, a player drawn at random).
  local decider
  local m = ctx:match()
  local last = m.previous[#m.previous]
  if last ~= nil and #last.winners == 1 then
    decider = SM.other(last.winners[1])
  else
    decider = ctx:random(2)
  end
  local go = ctx:choose(decider, {
    { label = "go first", kind = "first" },
    { label = "go second", kind = "second" },
  }, { prompt = "first_or_second" })
  local first = go.kind == "first" and decider or SM.other(decider)
  ctx:set_first_player(first)
  ctx:set_game_value("first_player", first)
  -- SM 102.5: 5 Seal Cards and 2 Mystic Cards each, the first player first.
  for _, p in ipairs({ first, SM.other(first) }) do
    for _ = 1, 5 do SM.draw(ctx, p, "seal_library") end
    for _ = 1, 2 do SM.draw(ctx, p, "mystic_library") end
  end
  -- SM 102.6: the first player has 5 Mp, for Seal and Mystic Cards only in their first Subturn
  -- (docs/rulings A.2); the other player has the level's Mp Max.
  ctx:set_value(first, "mp", 5)
  ctx:set_value(first, "first_mp", 1)
  local other = SM.other(first)
  ctx:set_value(other, "mp", ctx:value(other, "mp_max"))
  -- The first player's attack Subturn begins (the kernel starts turn 1 with them).
end
