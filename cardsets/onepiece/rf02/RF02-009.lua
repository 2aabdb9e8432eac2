-- RF02-009 The Ember Forge
return card {
  -- [Activate: Main] Rest this Stage: If your Leader is {Cinder Flag Pirates}, give 1 rested DON!! to your Leader or a Character.
  activate_main { cost = Cost.rest_self(), operate = function(ctx)
    if F.type("Cinder Flag Pirates")(OP.leader(ctx)) then give_don(ctx, pick_fighter(ctx, nil, { min = 1 }), up_to(1)) end
  end },
}
