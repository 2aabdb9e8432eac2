-- GX01-033 Harvest Ring Station
return card {
  -- 【Activate･Main】【Once per Turn】(1): Deploy 1 [Drone Pod] token.
  activate_main { once_per_turn = true, cost = Cost.pay(1),
    operate = function(ctx) deploy_token(ctx, "GDT-U01") end },
}
