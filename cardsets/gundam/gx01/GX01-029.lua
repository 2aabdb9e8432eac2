-- GX01-029 Tamsin Reed
return card {
  -- 【When Paired】 If you have 5 or more resources, draw 1.
  when_paired { operate = function(ctx)
    if level(ctx) >= 5 then draw(ctx, 1) end -- GD 2-9-4: every resource, EX included
  end },
}
