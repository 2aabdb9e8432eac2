-- GX02-036 Moonwake Lancer
return card {
  -- 【Attack】 Choose 1 enemy unit with Lv. 2 or less. Return it to its owner's hand.
  on_attack { operate = function(ctx) return_to_hand(ctx, pick_enemy_unit(ctx, F.lv_max(2), { min = 1 })) end },
}
