-- RF02-021 Tidecaller Wynn
return card {
  -- [On Your Opponent's Attack] [Once Per Turn] Trash 1 from hand: up to 1 Leader or Character: +2000 this battle.
  on_opponent_attack { once_per_turn = true, cost = Cost.trash_from_hand(1), operate = function(ctx)
    give_power(ctx, pick_fighter(ctx), 2000, "battle")
  end },
}
