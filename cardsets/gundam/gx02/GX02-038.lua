-- GX02-038 Stillight Seraph
return card {
  -- 【Deploy】 Choose up to 2 enemy units. Rest them.
  on_deploy { operate = function(ctx) rest(ctx, pick_enemy_unit(ctx, F.unit, { max = 2 })) end },
}
