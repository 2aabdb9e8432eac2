-- GX01-022 Reckless Charge
return card {
  -- 【Main】 Choose 1 friendly unit. It gets AP+3 during this turn.
  -- (【Pilot】[Jax Corran]: the card's pilot block, game data.)
  command { main = true,
    target = function(ctx) return GD.friendly_units(ctx) end,
    operate = function(ctx) give_ap(ctx, pick_friendly_unit(ctx, F.unit, { min = 1 }), 3, "turn") end },
}
