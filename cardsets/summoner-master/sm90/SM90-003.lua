-- SM90-003 Grave Warden
return card {
  -- When an opponent's Seal is destroyed, return it to its owner's hand (a card being destroyed
  -- goes to the Shrine by its destruction all the same: SM 701.1, docs/rulings B.49).
  on_event { on = "destroyed",
    when = function(ctx, ev) return ev.card ~= nil and ev.card.controller ~= ctx.player end,
    operate = function(ctx) return_to_hand(ctx, ctx.event.card); gain_mp(ctx, 1) end },
}
