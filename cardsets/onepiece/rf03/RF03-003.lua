-- RF03-003 Harbor Bellringer
return card {
  -- When a Character other than this Character is played (by either player), rest this Character.
  on_event { on = "moved", zones = { "character" },
    when = function(ctx, ev) return ev.reason == "play" and ev.to == "character" and ev.card ~= ctx.source end,
    operate = function(ctx) rest(ctx, ctx.source) end },
}
