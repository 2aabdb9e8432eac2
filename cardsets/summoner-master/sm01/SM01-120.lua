-- SM01-120 Farewell Dance
return card {
  -- Put a Last Dance Curse for 1 Turn on a Seal: while it has this Curse, it gets At+2 (SM
  -- 709.10.1: the Curse's effect; 709.10.3: the Seal is destroyed when its Turn is over).
  spell { prompt = "Seal",
    target = function(ctx) return curse_targets(ctx, "last_dance") end,
    operate = function(ctx, a) curse(ctx, a.target, "last_dance", { turns = 1, effects = { plus_at(2) } }) end },
}
