-- SM01-106 Sever the Tether
return card {
  -- Destroy a Support Seal.
  spell { prompt = "Support Seal", destroys = true,
    target = function(ctx)
      local out = {}
      for _, c in ipairs(all_seals(ctx)) do
        for _, s in ipairs(SM.supports(c)) do out[#out + 1] = s end
      end
      return out
    end,
    operate = function(ctx, a) destroy(ctx, a.target) end },
}
