-- RF02-001 Sable Ashgrove, Tide Breaker
return card {
  -- [DON!! x1] [When Attacking] [Once Per Turn] Up to 1 of your Characters: +1000 power this turn.
  when_attacking { don = 1, once_per_turn = true, operate = function(ctx)
    give_power(ctx, pick_character(ctx), 1000, "turn")
  end },
}
