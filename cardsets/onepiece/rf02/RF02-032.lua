-- RF02-032 Storm Tithe
return card {
  -- [Counter] DON!! -1: Up to 1 of your Leader or Character cards: +3000 power during this battle.
  counter_event { cost = Cost.don_minus(1), operate = function(ctx)
    give_power(ctx, pick_fighter(ctx), 3000, "battle")
  end },
}
