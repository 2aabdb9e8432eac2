-- SM02-012 Ashen Cultist
return card {
  -- Skill (Sacrifice a Seal of yours): destroy an opponent's Seal of Level 3 or less (Gl: Sacrifice).
  skill { name = "Ember Offering", sacrifice = F.seal, destroys = true,
    target = function(ctx) return those(opponent_seals(ctx), F.level_max(3)) end,
    operate = function(ctx, a) destroy(ctx, a.target) end },
}
