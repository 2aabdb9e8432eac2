-- GX01-039 Ilya Noor
return card {
  -- 【Attack】 Draw 1. Then discard 1.
  on_attack { operate = function(ctx)
    draw(ctx, 1)
    discard(ctx, 1)
  end },
}
