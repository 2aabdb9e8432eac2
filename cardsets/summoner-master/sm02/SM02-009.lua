-- SM02-009 Rune Golem
return card {
  -- Skill (remove 2 Fixed Charge Counters from this Seal): destroy an opponent's Seal of Level 2 or less.
  skill { name = "Runic Verdict", fixed_charge = 2, destroys = true,
    target = function(ctx) return those(opponent_seals(ctx), F.level_max(2)) end,
    operate = function(ctx, a) destroy(ctx, a.target) end },
}
