-- RF03-002 Tidecaller Wren
return card {
  -- [On Play] Trash the top card of your deck, then draw 1 card.
  on_play { operate = function(ctx)
    trash_deck_top(ctx, 1)
    draw(ctx, 1)
  end },
}
