-- GX02-043 Lumen Observatory
return card {
  -- 【Activate･Main】【Once per Turn】①: Choose 1 friendly unit. It gains 〈High-Maneuver〉 during this turn.
  activate_main { once_per_turn = true, cost = Cost.pay(1),
    operate = function(ctx) grant(ctx, pick_friendly_unit(ctx, F.unit, { min = 1 }), "high_maneuver", "turn") end },
}
