-- RF02-034 Magistrate Orrin Kell
return card {
  -- [Activate: Main] [Once Per Turn] ①: Up to 1 of your opponent's Characters: -2 cost during this turn.
  activate_main { once_per_turn = true, cost = Cost.don(1), operate = function(ctx)
    give_cost(ctx, pick_opponent_character(ctx), -2, "turn")
  end },
}
