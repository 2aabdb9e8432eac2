-- RF03-026 Blockade Buoy
return card {
  -- [Opponent's Turn] Your opponent cannot use cards (OP 4-7-2: cannot pay the cost to play or
  -- activate cards from hand; playing by an effect is not using).
  permanent { opponent_turn = true, target = "players",
    affects = function(ctx, p) return p ~= ctx.player end,
    modify = { { char = "player", op = "grant", value = "cannot_use_cards" } } },
}
