-- RF02-010 Moraine Thistledown, Grove Keeper
return card {
  -- At the start of the game, play up to 1 {Kelpwood Crew} Stage card from your deck.
  start_of_game { operate = function(ctx)
    play_from(ctx, pick_in(ctx, "deck", F.stage * F.type("Kelpwood Crew"))) -- then shuffled: OP 5-2-1-5-2
  end },
  -- [Activate: Main] [Once Per Turn] ①: Set up to 1 of your cost 3 or less {Kelpwood Crew} Characters as active.
  activate_main { once_per_turn = true, cost = Cost.don(1), operate = function(ctx)
    set_active(ctx, pick_character(ctx, F.type("Kelpwood Crew") * F.cost_max(3)))
  end },
}
