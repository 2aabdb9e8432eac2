-- GX01-031 Field Repairs
return card {
  -- 【Main】 Choose up to 2 friendly units. Recover 2 HP of each.
  command { main = true,
    operate = function(ctx) recover(ctx, pick_friendly_unit(ctx, F.unit, { max = 2 }), 2) end },
}
