-- RF03-006 Undertow Diver
return card {
  -- If your Character would be returned to your hand, you may place it at the bottom of your
  -- deck instead (OP 8-1-3-4; optional, 8-1-3-4-1).
  replacement { replaces = "move", optional = true,
    applies = function(ctx, op)
      return op.from == "character" and op.zone == "hand" and op.card.controller == ctx.player
    end,
    replace = function(ctx, op)
      op.zone, op.position = "deck", "bottom"
      return op
    end },
}
