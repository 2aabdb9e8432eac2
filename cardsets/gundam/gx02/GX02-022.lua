-- GX02-022 Execution Order
return card {
  -- 【Main】/【Action】 Choose 1 enemy unit with HP 2 or less. Destroy it.
  -- (【Pilot】[Rook Tessaly]: the card's pilot block, game data.)
  command { main = true, action = true,
    target = function(ctx) return util.filter(GD.enemy_units(ctx), F.hp_max(2)) end,
    operate = function(ctx) destroy(ctx, pick_enemy_unit(ctx, F.hp_max(2), { min = 1 })) end },
}
