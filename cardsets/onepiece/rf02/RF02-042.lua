-- RF02-042 Solenne Brightwater, Dawn Oracle
return card {
  -- [Activate: Main] [Once Per Turn] Take 1 Life card: Up to 1 of your {Sunspire Islanders} Characters: +2000 this turn.
  activate_main { once_per_turn = true, cost = Cost.take_life(1), operate = function(ctx)
    give_power(ctx, pick_character(ctx, F.type("Sunspire Islanders")), 2000, "turn")
  end },
}
