-- RF03-030 Bilge Sorter
return card {
  -- [On Play] Draw 1 card, then trash up to 1 card from your hand. The "up to 1" count is
  -- declared when the effect activates (OP 4-8-1); the card is chosen after the draw (8-4-4).
  on_play { up_to = { 1 }, operate = function(ctx)
    draw(ctx, 1)
    local hand = ctx:cards("hand", ctx.player)
    local chosen = OP.choose_declared(ctx, 1, hand,
      1) -- mutant: equivalent, the default count of an undeclared "up to": `up_to` always declares it (OP 4-8-1)
    for _, c in ipairs(chosen) do OP.trash(ctx, c) end
  end },
}
