-- SM03-102 Pilfered Charm
return card {
  -- Steal a Mystic Card pasted on an opponent's Seal.
  spell { prompt = "Mystic Card pasted on an opponent's Seal",
    target = function(ctx)
      local out = {}
      for _, s in ipairs(opponent_seals(ctx)) do out = util.concat(out, SM.pasted_on(s)) end
      return out
    end,
    operate = function(ctx, a) steal(ctx, a.target) end },
}
