-- RF03-007 Riptide Diver
return card {
  -- If your Character would be placed in your deck, you may return it to your hand instead
  -- (OP 8-1-3-4; optional, 8-1-3-4-1).
  replacement { replaces = "move", optional = true,
    applies = function(ctx, op)
      return op.from == "character" and op.zone == "deck" and op.card.controller == ctx.player
    end,
    replace = function(ctx, op)
      op.zone, op.position = "hand", "top"
      return op
    end },
}
