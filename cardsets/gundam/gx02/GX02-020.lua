-- GX02-020 Overheat Gambit
return card {
  -- 【Action】 Choose 1 friendly unit. During this battle, it gets AP+1 and gains 〈First Strike〉.
  command { action = true,
    target = function(ctx) return GD.friendly_units(ctx) end,
    operate = function(ctx)
      local u = pick_friendly_unit(ctx, F.unit, { min = 1 })
      give_ap(ctx, u, 1, "battle")
      grant(ctx, u, "first_strike", "battle")
    end },
}
