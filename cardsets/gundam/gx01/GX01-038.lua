-- GX01-038 Halo Sovereign
return card {
  -- 【When Linked】 Choose 1 enemy unit with Lv. 4 or less. Return it to its owner's hand.
  when_linked { operate = function(ctx)
    return_to_hand(ctx, pick_enemy_unit(ctx, F.unit * F.lv_max(4), { min = 1 }))
  end },
}
