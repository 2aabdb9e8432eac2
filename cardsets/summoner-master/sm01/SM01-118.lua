-- SM01-118 Herald's Horn
return card {
  -- PA. Skill (Mp 1): a Seal of yours gets Sp+1 until the end of the Subturn (a Mystic Card is
  -- commanded once per Subturn: SM 500.7).
  skill { name = "Rallying Call", cost = 1,
    target = function(ctx) return seals(ctx) end,
    operate = function(ctx, a) give_sp(ctx, a.target, 1, "subturn") end },
}
