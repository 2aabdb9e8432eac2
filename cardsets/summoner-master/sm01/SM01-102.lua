-- SM01-102 Tidal Ward
return card {
  -- Interfere. A Seal gets Df+3 until the end of the Subturn.
  spell { prompt = "Seal",
    target = function(ctx) return all_seals(ctx) end,
    operate = function(ctx, a) give_df(ctx, a.target, 3, "subturn") end },
}
