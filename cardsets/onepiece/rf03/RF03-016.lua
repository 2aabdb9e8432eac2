-- RF03-016 Crossed Orders
return card {
  -- [Main] At the same time, set all Characters with 5000 power or more as active and rest all
  -- Characters with 3000 power or more: a card told both is rested (OP 1-3-8).
  main_event { operate = function(ctx)
    local all = util.concat(OP.characters(ctx, ctx.player), OP.characters(ctx, opponent(ctx)))
    OP.set_states(ctx,
      util.filter(all, function(c) return c.power >= 3000 end),
      util.filter(all, function(c) return c.power >= 5000 end)) -- mutant: equivalent, a Character of 5000 power also has 3000 or more, so it is rested either way (OP 1-3-8)
  end },
}
