-- GX02-047 Scatter Barrage
return card {
  -- 【Main】 Deal 1 damage to each enemy unit (all at once: those destroyed go together).
  command { main = true, operate = function(ctx) deal_damage(ctx, GD.enemy_units(ctx), 1) end },
}
