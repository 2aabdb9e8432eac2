-- SM01-116 Death Whisper
return card {
  -- Put a Death Curse on an opponent's Seal of Level 3 or less.
  spell { prompt = "Lv<=3",
    target = function(ctx) return curse_targets(ctx, "death", those(opponent_seals(ctx), F.level_max(3))) end,
    operate = function(ctx, a) curse(ctx, a.target, "death") end },
}
