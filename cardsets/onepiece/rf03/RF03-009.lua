-- RF03-009 Scuttle Order
return card {
  -- [Main] Place up to 1 Character in the owner's trash (not a K.O., OP 10-2-1-3).
  main_event { operate = function(ctx)
    local c = pick_any_character(ctx)
    if c then OP.trash(ctx, c, "effect") end
  end },
}
