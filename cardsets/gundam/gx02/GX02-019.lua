-- GX02-019 Orrin Slate
return card {
  -- 【Attack】 Choose 1 enemy unit. Deal 1 damage to it. (Lower text: its Unit's attack, GD 3-3-9-2.)
  on_attack { operate = function(ctx) deal_damage(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 }), 1) end },
}
