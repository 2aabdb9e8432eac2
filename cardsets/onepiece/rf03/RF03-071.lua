-- RF03-071 Curtain Caller Bea
return card {
  -- [On Play] Set up to 1 of your Stages as active.
  on_play { operate = function(ctx)
    set_active(ctx, choose_from(ctx, ctx:cards("stage", ctx.player)))
  end },
}
