-- SM01-012 Dawn Paladin
return card {
  -- Interfere Skill (Mp 1): cure the Curses of a Seal.
  skill { name = "Dawn's Mercy", interfere = true, cost = 1,
    target = function(ctx) return those(all_seals(ctx), F.cursed) end,
    operate = function(ctx, a) cure(ctx, a.target) end },
}
