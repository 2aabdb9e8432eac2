-- GX02-028 Mossguard Frame
return card {
  -- 【Activate･Action】【Once per Turn】 Rest this unit: Choose 1 other friendly unit. Recover 3 HP of it.
  activate_action { once_per_turn = true, cost = Cost.rest_self(),
    operate = function(ctx)
      local me = this_unit(ctx)
      recover(ctx, pick_friendly_unit(ctx, filter("other", function(c) return c ~= me end), { min = 1 }), 3)
    end },
}
