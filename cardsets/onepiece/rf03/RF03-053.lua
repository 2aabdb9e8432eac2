-- RF03-053 Hush of the Lowtide Bell
return card {
  -- [Main] Negate the effects of up to 1 of your opponent's Characters during this turn (OP 8-2).
  main_event { operate = function(ctx) negate(ctx, pick_opponent_character(ctx), "turn") end },
}
