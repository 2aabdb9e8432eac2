-- SM01-101 Flare Bolt
return card {
  -- Interfere. Destroy an opponent's Seal with At 3 or less.
  spell { prompt = "At<=3", destroys = true,
    target = function(ctx) return those(opponent_seals(ctx), F.at_max(3)) end,
    operate = function(ctx, a) destroy(ctx, a.target) end },
}
