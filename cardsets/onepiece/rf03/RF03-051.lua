-- RF03-051 Inflation Decree
return card {
  -- [Main] Give up to 1 Character +2 cost during this turn (added to the raw cost, OP 1-3-6-2-1).
  main_event { operate = function(ctx) give_cost(ctx, pick_any_character(ctx), 2, "turn") end },
}
