-- GX02-031 Canopy Snare
return card {
  -- 【Action】 Choose 1 enemy unit. It cannot attack during this turn.
  command { action = true,
    target = function(ctx) return GD.enemy_units(ctx) end,
    operate = function(ctx) grant(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 }), "cannot_attack", "turn") end },
  -- 【Burst】 Choose 1 enemy unit. Rest it.
  burst { operate = function(ctx) rest(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 })) end },
}
