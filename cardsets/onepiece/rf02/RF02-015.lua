-- RF02-015 Fernshade Tracker
return card {
  -- [On Play] Set up to 1 of your DON!! cards as active.
  on_play { operate = function(ctx) set_don_active(ctx, up_to(1)) end },
}
