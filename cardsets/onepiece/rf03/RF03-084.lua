-- RF03-084 Last Pages
return card {
  -- [Main] Each player draws 1 card: the turn player first (OP 1-3-10).
  main_event { operate = function(ctx) each_player_draws(ctx, 1) end },
}
