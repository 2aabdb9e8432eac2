-- RF02-037 Warden Hollow-Eye
return card {
  -- [On Play] K.O. up to 1 of your opponent's Characters with a cost of 2 or less.
  on_play { operate = function(ctx) ko(ctx, pick_opponent_character(ctx, F.cost_max(2))) end },
}
