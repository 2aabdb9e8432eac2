-- RF03-057 Muffled Broadside
return card {
  -- [Counter] Negate the effects of up to 1 of your opponent's Characters during this turn (OP 8-2).
  counter_event { operate = function(ctx) negate(ctx, pick_opponent_character(ctx), "turn") end },
}
