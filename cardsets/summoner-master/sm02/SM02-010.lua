-- SM02-010 Aegis Warden
return card {
  -- Interfere Skill (Mp 1): the target of an opponent's attack, Mystic Card or Skill that targets
  -- another Seal of yours becomes this Seal (Gl: Change Target: its conditions are not checked).
  skill { name = "Shield Oath", interfere = true, cost = 1,
    target = function(ctx)
      return util.filter(opponent_targets(ctx, F.seal), function(c) return c ~= this_seal(ctx) end)
    end,
    operate = function(ctx, a) change_target(ctx, a.target, this_seal(ctx)) end },
}
