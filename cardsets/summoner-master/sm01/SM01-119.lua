-- SM01-119 War Drums
return card {
  -- An Active Seal of yours in the At Line attacks (SM 710: an effect acting as an attack).
  spell { prompt = "your Seal",
    target = function(ctx) return those(seals(ctx), F.at_line * F.active) end,
    operate = function(ctx, a) effect_attack(ctx, a.target) end },
}
