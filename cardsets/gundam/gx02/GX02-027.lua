-- GX02-027 Vinecoil Ambusher
return card {
  -- 【When Paired・〔Colony〕】 Choose 1 enemy unit. Rest it. (GD 13-2-9-2)
  when_paired { pilot = F.trait("Colony"),
    operate = function(ctx) rest(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 })) end },
}
