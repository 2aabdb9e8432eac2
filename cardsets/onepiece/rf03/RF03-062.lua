-- RF03-062 Breakwater Ward
return card {
  -- If your opponent's Character would be returned to the owner's hand, you may K.O. it instead
  -- (a K.O. by this card's owner's effect, OP 8-1-3-4-7).
  replacement { replaces = "move", optional = true,
    applies = function(ctx, op)
      return op.from == "character" and op.zone == "hand" and op.card.controller ~= ctx.player
    end,
    replace = function(ctx, op)
      op.zone, op.player, op.reason = "trash", op.card.owner, "ko"
      return op
    end },
}
