-- GX02-009 Emergency Welds
return card {
  -- 【Main】/【Action】 Choose 1 friendly unit. It gains 〈Repair 2〉 during this turn.
  command { main = true, action = true,
    target = function(ctx) return GD.friendly_units(ctx) end,
    operate = function(ctx) grant_value(ctx, pick_friendly_unit(ctx, F.unit, { min = 1 }), "repair", 2, "turn") end },
  -- 【Burst】 Choose 1 friendly unit. Recover 3 HP of it.
  burst { operate = function(ctx) recover(ctx, pick_friendly_unit(ctx, F.unit, { min = 1 }), 3) end },
}
