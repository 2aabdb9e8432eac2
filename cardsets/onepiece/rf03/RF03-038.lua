-- RF03-038 Alarm Bell Tower
return card {
  -- [On Your Opponent's Attack] [Once Per Turn] Draw 1 card.
  on_opponent_attack { once_per_turn = true, operate = function(ctx) draw(ctx, 1) end },
}
