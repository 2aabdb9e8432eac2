-- RF02-027 Static Broker Imrie
return card {
  -- [On Play] DON!! -1: Up to 1 of your opponent's Characters: -3000 power during this turn.
  on_play { cost = Cost.don_minus(1), operate = function(ctx)
    give_power(ctx, pick_opponent_character(ctx), -3000, "turn")
  end },
}
