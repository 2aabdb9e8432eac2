-- RF03-039 Second Wind
return card {
  -- [Main] Set up to 2 of your DON!! cards as active.
  main_event { operate = function(ctx) set_don_active(ctx, up_to(2)) end },
}
