-- RF03-014 Surge Tonic
return card {
  -- [Main] Up to 1 of your Leader or Character cards gains +2000 power during this turn.
  main_event { operate = function(ctx) give_power(ctx, pick_fighter(ctx), 2000, "turn") end },
}
