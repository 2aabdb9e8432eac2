-- GX02-056 Reactor Restart
return card {
  -- 【Main】 Choose 1 of your rested Resources. Set it as active. Then, if you have 3 or more rested Resources, draw 1.
  command { main = true, operate = function(ctx)
    set_active(ctx, pick_resource(ctx, F.rested, { min = 1 }))
    if resource_count(ctx, F.rested) >= 3 then draw(ctx, 1) end
  end },
}
