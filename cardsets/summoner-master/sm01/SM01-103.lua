-- SM01-103 Gust Step
return card {
  -- Interfere. A Seal of yours gets Sp+2 until the end of the Subturn.
  spell { prompt = "your Seal",
    target = function(ctx) return seals(ctx) end,
    operate = function(ctx, a) give_sp(ctx, a.target, 2, "subturn") end },
}
