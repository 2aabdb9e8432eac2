-- GX02-012 Ashfang Skirmisher
return card {
  -- 【Destroyed】 Choose 1 enemy unit. Deal 1 damage to it.
  on_destroyed { operate = function(ctx) deal_damage(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 }), 1) end },
}
