-- GX01-021 Overdrive
return card {
  -- 【Action】 Choose 1 friendly unit. It gets AP+2 during this battle.
  command { action = true,
    target = function(ctx) return GD.friendly_units(ctx) end,
    operate = function(ctx) give_ap(ctx, pick_friendly_unit(ctx, F.unit, { min = 1 }), 2, "battle") end },
}
