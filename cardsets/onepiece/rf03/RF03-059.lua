-- RF03-059 Twin Squall Order
return card {
  -- [Main] Up to 1 of your Leader or Character cards gains [Double Attack] during this turn.
  main_event { operate = function(ctx) grant(ctx, pick_fighter(ctx), "double_attack", "turn") end },
}
