-- RF03-002 Tidecaller Wren
return card {
  -- [On Play] Trash the top card of your deck, then draw 1 card.
  on_play { operate = function(ctx)
    local top = ctx:top("deck", ctx.player, 1)[1]
    if top then OP.trash(ctx, top) end
    draw(ctx, 1)
  end },
}
