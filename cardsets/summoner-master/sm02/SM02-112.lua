-- SM02-112 Final Waltz
return card {
  -- Interfere. Put a Last Dance Curse for 1 Turn on a Seal: while it has this Curse, it gets At+2
  -- (SM 709.10.1; on a Seal being cast the Curse waits for the cast's success: docs/rulings B.31).
  spell { prompt = "Seal",
    target = function(ctx) return curse_targets(ctx, "last_dance") end,
    operate = function(ctx, a) curse(ctx, a.target, "last_dance", { turns = 1, effects = { plus_at(2) } }) end },
}
