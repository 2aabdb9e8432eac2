-- RF03-015 Undertow Hex
return card {
  -- [Main] Give up to 1 Character -5000 power during this turn (power may go below 0, OP 1-3-6-1).
  main_event { operate = function(ctx) give_power(ctx, pick_any_character(ctx), -5000, "turn") end },
}
