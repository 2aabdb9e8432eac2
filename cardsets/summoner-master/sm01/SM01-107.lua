-- SM01-107 Stone Gaze
return card {
  -- Interfere. Put a Stone Curse for 1 Turn on a Seal.
  spell { prompt = "Seal",
    target = function(ctx) return curse_targets(ctx, "stone") end,
    operate = function(ctx, a) curse(ctx, a.target, "stone", { turns = 1 }) end },
}
