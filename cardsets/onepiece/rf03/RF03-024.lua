-- RF03-024 Grudge Keeper
return card {
  -- At the end of a battle in which this Character battled (OP 7-1-5-2), draw 1 card.
  on_event { on = "battle_ended", zones = { "character" },
    when = function(ctx, ev) return ev.card == ctx.source or ev.target == ctx.source end,
    operate = function(ctx) draw(ctx, 1) end },
}
