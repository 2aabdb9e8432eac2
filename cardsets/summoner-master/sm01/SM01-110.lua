-- SM01-110 Second Wind
return card {
  -- Draw 2 cards from your Seal Library.
  spell { operate = function(ctx) draw(ctx, 2, "seal_library") end },
}
