-- SM90-102 Twin Draught
return card {
  -- Each player draws 1 card: one draw for both (SM 103.3: both from an empty pile, both lose).
  spell { operate = function(ctx) each_player_draws(ctx, 1) end },
}
