-- GX02-044 Accord Sentinel
return card {
  -- 【Destroyed】 Choose 1 enemy unit with Lv. 4 or less. Return it to its owner's hand.
  on_destroyed { operate = function(ctx) return_to_hand(ctx, pick_enemy_unit(ctx, F.lv_max(4), { min = 1 })) end },
}
