-- RF02-033 The Stormglass Exchange
return card {
  -- [Activate: Main] Rest this Stage: If you have no more DON!! on your field than your opponent, add 1 DON!! rested.
  activate_main { cost = Cost.rest_self(), operate = function(ctx)
    if field_don_count(ctx) <= field_don_count(ctx, opponent(ctx)) then add_don(ctx, up_to(1), "rested") end
  end },
}
