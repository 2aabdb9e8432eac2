-- GX01-017 Inferno Colossus
return card {
  -- 【Deploy】 Choose 1 enemy unit. Deal 2 damage to it.
  on_deploy { operate = function(ctx) deal_damage(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 }), 2) end },
}
