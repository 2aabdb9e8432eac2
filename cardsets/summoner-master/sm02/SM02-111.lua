-- SM02-111 Shrine Plunder
return card {
  -- Remove a Seal card in the opponent's Shrine from the game.
  spell { prompt = "Seal in the opponent's Shrine", target = function(ctx) return ctx:cards("seal_shrine", opponent(ctx)) end,
    operate = function(ctx, a) remove(ctx, a.target) end },
}
