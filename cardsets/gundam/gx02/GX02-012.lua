-- GX02-012 Ashfang Skirmisher
return card {
  -- 【Destroyed】 You may pay ①. If you do, choose 1 enemy unit. Deal 2 damage to it.
  on_destroyed { cost = Cost.pay(1),
    operate = function(ctx) deal_damage(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 }), 2) end },
}
