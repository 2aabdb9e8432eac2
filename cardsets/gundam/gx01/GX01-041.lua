-- GX01-041 Mirror Veil
return card {
  -- 【Action】 Choose 1 enemy unit. It gets AP-2 during this turn.
  command { action = true,
    target = function(ctx) return GD.enemy_units(ctx) end,
    operate = function(ctx) give_ap(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 }), -2, "turn") end },
}
