-- SM02-105 Mana Leech
return card {
  -- Remove every Charged Counter from a Seal (its Fixed Charge Counters stay: Gl: Fixed Charge Counter 3).
  spell { prompt = "Seal", target = function(ctx) return all_seals(ctx) end,
    operate = function(ctx, a) remove_counters(ctx, a.target) end },
}
