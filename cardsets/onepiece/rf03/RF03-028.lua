-- RF03-028 Mutual Ruin
return card {
  -- [Main] Each player places the top card of their deck in their trash: the turn player first
  -- (OP 1-3-10), one card at a time, with rule processing after each (9-1-2).
  main_event { operate = function(ctx)
    for _, p in ipairs(ctx:turn_order()) do
      local top = ctx:top("deck", p, 1)[1]
      if top then OP.trash(ctx, top) end
    end
  end },
}
