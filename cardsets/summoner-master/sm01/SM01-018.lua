-- SM01-018 Twin-Fang Lynx
return card {
  -- Two-phase Skill (Mp 1): first an opponent's Seal gets At-1, then a Seal of yours At+1, each
  -- until the end of the Subturn (SM 608: each phase with its target and Interfere Step).
  skill { name = "Twin Fangs", cost = 1,
    target = function(ctx) return opponent_seals(ctx) end,
    operate = function(ctx, a) give_at(ctx, a.target, -1, "subturn") end,
    phase2 = {
      target = function(ctx) return seals(ctx) end,
      operate = function(ctx, a) give_at(ctx, a.target, 1, "subturn") end } },
}
