-- RF02-031 Eye of the Squall
return card {
  -- [Main] The base power of up to 1 of your Characters becomes 7000 during this turn.
  main_event { operate = function(ctx) set_base_power(ctx, pick_character(ctx), 7000, "turn") end },
}
