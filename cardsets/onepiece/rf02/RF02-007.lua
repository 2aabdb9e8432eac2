-- RF02-007 Flashpoint Volley
return card {
  -- [Counter] Up to 1 of your Leader or Character cards: +3000 power during this battle.
  counter_event { operate = function(ctx) give_power(ctx, pick_fighter(ctx), 3000, "battle") end },
  -- [Trigger] Up to 1 of your Leader or Character cards: +1000 power during this turn.
  trigger { operate = function(ctx) give_power(ctx, pick_fighter(ctx), 1000, "turn") end },
}
