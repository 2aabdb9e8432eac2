-- GX02-010 Harbor Watch Rotation
return card {
  -- 【Action】 Choose 1 friendly unit. It gets HP+2 during this battle and gains 〈Blocker〉 during this turn.
  -- (【Pilot】[Corin Vale]: the card's pilot block, game data.)
  command { action = true,
    target = function(ctx) return GD.friendly_units(ctx) end,
    operate = function(ctx)
      local u = pick_friendly_unit(ctx, F.unit, { min = 1 })
      give_hp(ctx, u, 2, "battle")
      grant(ctx, u, "blocker", "turn")
    end },
}
