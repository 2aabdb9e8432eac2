-- RF02-045 Lantern Warden Ibis
return card {
  -- [Trigger] Play this card.
  trigger { operate = function(ctx) play_from(ctx, ctx.source) end },
}
