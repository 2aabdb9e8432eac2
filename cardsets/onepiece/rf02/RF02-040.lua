-- RF02-040 Ledger Reckoning
return card {
  -- [Main] Up to 1 opponent's Character: -3 cost this turn. Then, K.O. up to 1 opponent's cost 0 or less Character.
  -- Both "up to 1" counts are declared on activation (OP 4-8-1): the K.O. count is fixed
  -- before the cost change is seen.
  main_event { up_to = { 1, 1 }, operate = function(ctx)
    give_cost(ctx, pick_opponent_character(ctx), -3, "turn")
    ko(ctx, pick_opponent_character(ctx, F.cost_max(0)))
  end },
}
