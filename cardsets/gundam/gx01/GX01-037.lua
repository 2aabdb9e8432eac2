-- GX01-037 Concord Paladin
return card {
  -- 【When Paired】 Choose 1 enemy unit. Rest it.
  when_paired { operate = function(ctx) rest(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 })) end },
}
