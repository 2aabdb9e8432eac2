-- RF03-004 Gull Scavenger
return card {
  -- When a card is placed in a trash (either player's) from a deck, rest this Character.
  on_event { on = "moved", zones = { "character" },
    when = function(ctx, ev) return Happened.deck_to_trash(ctx, ev) end,
    operate = function(ctx) rest(ctx, ctx.source) end },
}
