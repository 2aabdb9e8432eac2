-- GX02-014 Pyre Lancer
return card {
  -- 【When Paired・〔Dominion〕】 Choose 1 enemy unit. Deal 2 damage to it. (GD 13-2-9-2)
  when_paired { pilot = F.trait("Dominion"),
    operate = function(ctx) deal_damage(ctx, pick_enemy_unit(ctx, F.unit, { min = 1 }), 2) end },
}
