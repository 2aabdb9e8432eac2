-- RF03-032 Tollkeeper Brisk
return card {
  -- When a card is added to your hand from your Life area, draw 1 card. During damage
  -- processing it waits until all the damage is dealt (OP 8-6-2).
  on_event { on = "moved", zones = { "character" },
    when = function(ctx, ev) return ev.from == "life" and ev.to == "hand" and ev.to_player == ctx.player end,
    operate = function(ctx) draw(ctx, 1) end },
}
