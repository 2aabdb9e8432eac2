-- GX02-033 Verdant Silo
return card {
  -- 【Deploy】 If you have 5 or fewer resources, place 1 EX Resource.
  on_deploy { operate = function(ctx)
    if level(ctx) <= 5 then place_ex_resource(ctx) end
  end },
  -- 【Activate･Action】【Once per Turn】 Rest this Base: Choose 1 friendly unit. It gets HP+2 during this battle.
  activate_action { once_per_turn = true, cost = Cost.rest_self(),
    operate = function(ctx) give_hp(ctx, pick_friendly_unit(ctx, F.unit, { min = 1 }), 2, "battle") end },
}
