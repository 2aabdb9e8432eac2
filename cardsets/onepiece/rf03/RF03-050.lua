-- RF03-050 Stubborn Anchor
return card {
  -- If you would lose the game because your Leader took damage with 0 Life cards (OP 9-2-1-1),
  -- you may place this Stage in your trash instead: the loss does not happen and the damage
  -- no longer counts. A concession cannot be replaced (OP 1-2-4): it is not an operation.
  replacement { replaces = "end_game", optional = true,
    applies = function(ctx, op)
      return util.contains(op.losers, ctx.player) and ctx:value(ctx.player, "damaged_at_zero") > 0
        and ctx:count("deck", ctx.player) > 0
    end,
    replace = function(ctx, op)
      OP.trash(ctx, ctx.source, "effect")
      ctx:set_value(ctx.player, "damaged_at_zero", 0)
      return nil
    end },
}
