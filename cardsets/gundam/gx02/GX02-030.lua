-- GX02-030 Pell Dunmore
return card {
  -- 【Activate･Main】【Once per Turn】 Rest this unit: Choose 1 friendly unit. Recover 2 HP of it.
  activate_main { once_per_turn = true, cost = Cost.rest_self(),
    operate = function(ctx) recover(ctx, pick_friendly_unit(ctx, F.unit, { min = 1 }), 2) end },
}
