-- RF03-029 Deepwater Collector
return card {
  -- If your opponent's Character would be K.O.'d, you may place it at the bottom of the owner's
  -- deck instead (OP 8-1-3-4): then it is not K.O.'d ([On K.O.] does not trigger, 10-2-1-3).
  replacement { replaces = "move", optional = true,
    applies = function(ctx, op)
      return op.reason == "ko" and op.zone == "trash" and op.card.controller ~= ctx.player
    end,
    replace = function(ctx, op)
      op.zone, op.position, op.reason = "deck", "bottom", "effect"
      return op
    end },
}
