-- RF03-040 Salvage Net Hauler
return card {
  -- If your other Character would be placed in your trash from the field, you may place it at
  -- the bottom of your deck instead (OP 8-1-3-4; never for the rules trash of a 6th Character,
  -- OP 3-7-6-1-1).
  replacement { replaces = "move", optional = true,
    applies = function(ctx, op)
      return op.from == "character" and op.zone == "trash" and op.card ~= ctx.source
        and op.card.controller == ctx.player
    end,
    replace = function(ctx, op)
      op.zone, op.position = "deck", "bottom"
      return op
    end },
}
