-- RF02-040 Ledger Reckoning
return card {
  -- [Main] Up to 1 opponent's Character: -3 cost this turn. Then, K.O. up to 1 opponent's cost 0 or less Character.
  main_event { operate = function(ctx)
    give_cost(ctx, pick_opponent_character(ctx), -3, "turn")
    ko(ctx, pick_opponent_character(ctx, F.cost_max(0)))
  end },
}
