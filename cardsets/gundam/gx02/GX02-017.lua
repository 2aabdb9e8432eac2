-- GX02-017 Cinderstorm Ravager
return card {
  -- 【Activate･Action】【Once per Turn】①: This unit gets AP+2 during this battle.
  activate_action { once_per_turn = true, cost = Cost.pay(1),
    operate = function(ctx) give_ap(ctx, this_unit(ctx), 2, "battle") end },
}
