-- RF03-013 Driftwood Oracle
return card {
  -- When this Character leaves the field, draw 1 card. It triggers on its own zone change, so
  -- it activates only if it went to a public zone (OP 8-4-5): the trash, not the hand or deck.
  on_event { on = "moved", zones = { "character" },
    when = function(ctx, ev) return ev.old == ctx.source and ev.from == "character" end,
    operate = function(ctx) draw(ctx, 1) end },
}
