-- GX02-041 Null Horizon
return card {
  -- 【Main】 Choose 1 enemy unit with Lv. 5 or less. Remove it. (Not destroyed: GD 5-12-2.)
  command { main = true,
    target = function(ctx) return util.filter(GD.enemy_units(ctx), F.lv_max(5)) end,
    operate = function(ctx) remove(ctx, pick_enemy_unit(ctx, F.lv_max(5), { min = 1 })) end },
}
