-- GX02-039 Sable Ithen
return card {
  -- 【Activate･Action】【Once per Turn】 Choose 1 enemy unit. It gets AP-2 during this battle.
  activate_action { once_per_turn = true,
    operate = function(ctx) give_ap(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 }), -2, "battle") end },
}
