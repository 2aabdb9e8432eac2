-- SM01-111 Purifying Light
return card {
  -- Interfere. Cure the Curses of a Seal.
  spell { prompt = "cursed Seal",
    target = function(ctx) return those(all_seals(ctx), F.cursed) end,
    operate = function(ctx, a) cure(ctx, a.target) end },
}
