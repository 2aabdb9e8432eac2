-- RF02-019 Lookout Pell Marsh
return card {
  -- [On Play] Look at 5: add up to 1 {Tidewarden Fleet} card other than [Lookout Pell Marsh]; the rest to the bottom.
  on_play { operate = function(ctx)
    search_top(ctx, 5, F.type("Tidewarden Fleet") * F.other_than("Lookout Pell Marsh"))
  end },
}
