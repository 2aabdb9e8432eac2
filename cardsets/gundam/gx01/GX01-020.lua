-- GX01-020 Scorch Barrage
return card {
  -- 【Main】 Choose 1 enemy unit. Deal 2 damage to it.
  command { main = true,
    target = function(ctx) return GD.enemy_units(ctx) end,
    operate = function(ctx) deal_damage(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 }), 2) end },
  -- 【Burst】 Choose 1 enemy unit. Deal 1 damage to it.
  burst { operate = function(ctx) deal_damage(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 }), 1) end },
}
