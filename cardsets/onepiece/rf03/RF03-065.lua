-- RF03-065 Undertow Vault
return card {
  -- [Your Turn] [Once Per Turn] If your opponent's Life card would be added to their hand by
  -- damage, you may place it at the bottom of the owner's deck instead (no [Trigger], OP 4-6-3-1).
  replacement { replaces = "move", optional = true, once_per_turn = true,
    applies = function(ctx, op)
      return ctx.turn_player == ctx.player and op.reason == "damage" and op.from == "life"
        and op.zone == "hand" and op.card.owner ~= ctx.player
    end,
    replace = function(ctx, op)
      op.zone, op.player, op.position = "deck", op.card.owner, "bottom"
      return op
    end },
}
