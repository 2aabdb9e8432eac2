-- GX02-016 Furnace Tyrant
return card {
  -- 【Deploy】 Choose 1 enemy unit with HP 4 or less. Destroy it.
  on_deploy { operate = function(ctx) destroy(ctx, pick_enemy_unit(ctx, F.hp_max(4), { min = 1 })) end },
}
