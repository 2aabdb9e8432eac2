-- SM01-114 Shrine Offering
return card {
  -- A Seal card in your Shrine returns to your Seal Library.
  spell { prompt = "Seal in your Shrine",
    target = function(ctx) return ctx:cards("seal_shrine", ctx.player) end,
    operate = function(ctx, a) return_to_library(ctx, a.target) end },
}
