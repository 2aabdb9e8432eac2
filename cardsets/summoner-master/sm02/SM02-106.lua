-- SM02-106 Overcharge
return card {
  -- When pasted: put 2 Charged Counters on the Seal (Gl: Charged Counter 2: put by your side).
  on_event { on = "pasted", match = { card = "self" }, when = function() return true end,
    operate = function(ctx) add_charge(ctx, this_seal(ctx), 2) end },
  -- Pasted: the Seal gets Df-1 for each Charged Counter your effects put on it.
  pasted { modify = { { char = "df", op = "add", value = function(ctx, c) return -charges_by(ctx, c, ctx.player) end } } },
}
