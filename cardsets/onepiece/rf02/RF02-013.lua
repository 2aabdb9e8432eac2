-- RF02-013 Thornveil Ranger
return card {
  -- [Activate: Main] [Once Per Turn] Rest this Character: Rest up to 1 of your opponent's cost 3 or less Characters.
  activate_main { once_per_turn = true, cost = Cost.rest_self(), operate = function(ctx)
    rest(ctx, pick_opponent_character(ctx, F.cost_max(3)))
  end },
}
