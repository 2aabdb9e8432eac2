-- SM01-019 Hail Djinn
return card {
  -- Multiple Skill, 2 times (Mp 2): an opponent's Seal gets Df-1 until the end of the Subturn
  -- (SM 607: paid once; each time its own target and Interfere Step).
  skill { name = "Hailstones", mode = "multiple", count = 2, cost = 2,
    target = function(ctx) return opponent_seals(ctx) end,
    operate = function(ctx, a) give_df(ctx, a.target, -1, "subturn") end },
}
