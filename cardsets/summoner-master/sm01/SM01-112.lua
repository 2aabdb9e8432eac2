-- SM01-112 Veil of Dusk
return card {
  -- Put a Dimension Curse for 1 Turn on a Seal.
  spell { prompt = "Seal",
    target = function(ctx) return curse_targets(ctx, "dimension") end,
    operate = function(ctx, a) curse(ctx, a.target, "dimension", { turns = 1 }) end },
}
