-- GX01-032 Ambush Nets
return card {
  -- 【Action】 Choose 1 enemy unit with AP 3 or less. Rest it.
  command { action = true,
    target = function(ctx) return util.filter(GD.enemy_units(ctx), F.ap_max(3)) end,
    operate = function(ctx) rest(ctx, pick_enemy_unit(ctx, F.unit * F.ap_max(3), { min = 1 })) end },
  -- 【Burst】 Choose 1 enemy unit. Rest it.
  burst { operate = function(ctx) rest(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 })) end },
}
