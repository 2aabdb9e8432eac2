-- SM02-101 Shell Ward
local ward = protection { protect = { player = "opponent" } }
return card {
  ward,
  -- Interfere. A Seal of yours gains Protect: the opponent's effects until the end of the Subturn.
  spell { prompt = "your Seal", target = function(ctx) return seals(ctx) end,
    operate = function(ctx, a) grant_protection(ctx, a.target, ward, "subturn") end },
}
