-- RF03-060 Stand-In Deckhand
return card {
  -- If your other Character would be rested to pay a cost, you may rest this Character instead
  -- (a replaced cost: the effect after ":" is not processed, OP 8-3-1-7).
  replacement { replaces = "orientation", optional = true,
    applies = function(ctx, op)
      return op.reason == "cost" and op.value == "rested" and op.card ~= ctx.source and op.card.zone == "character"
        and op.card.controller == ctx.player and ctx.source.orientation == "active" -- OP 8-1-3-4-5
    end,
    replace = function(ctx, op)
      op.card = ctx.source
      return op
    end },
}
