-- GX02-057 Mutual Depletion
return card {
  -- 【Main】 Each player draws 1: one draw for both (GD 11-2-1: both decks empty, both lose).
  command { main = true, operate = function(ctx) each_player_draws(ctx, 1) end },
}
