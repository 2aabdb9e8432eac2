-- SM03-013 Dawnbell Sprite
return card {
  -- Wake Up: when a Seal of yours is destroyed.
  wake_up_when { on = "destroyed",
    when = function(ctx, ev) return ev.card.owner == ctx.player and ev.card.category == "seal" end },
}
