-- RF02-002 Flint Corvane
return card {
  -- [On Play] Up to 1 of your opponent's Characters: -2000 power during this turn.
  on_play { operate = function(ctx)
    give_power(ctx, pick_opponent_character(ctx), -2000, "turn")
  end },
}
