-- RF02-018 Admiral Coraline Brack
return card {
  -- [Activate: Main] [Once Per Turn] ②: Up to 1 opponent's Character: -2000 power until the start of your next turn.
  activate_main { once_per_turn = true, cost = Cost.don(2), operate = function(ctx)
    give_power(ctx, pick_opponent_character(ctx), -2000, "your_next_turn")
  end },
}
