-- RF03-047 Last Bell
return card {
  -- [Main] If your opponent has 0 Life cards, you win the game (OP 1-2-5: at once).
  main_event { operate = function(ctx)
    if ctx:count("life", opponent(ctx)) == 0 then ctx:end_game({ ctx.player }, "effect") end
  end },
}
