-- SM01-108 Frost Bind
return card {
  -- Put a Freeze Curse for 1 Turn on an opponent's Seal.
  spell { prompt = "opponent's Seal",
    target = function(ctx) return curse_targets(ctx, "freeze", opponent_seals(ctx)) end,
    operate = function(ctx, a) curse(ctx, a.target, "freeze", { turns = 1 }) end },
}
