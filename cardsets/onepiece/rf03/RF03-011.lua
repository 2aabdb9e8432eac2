-- RF03-011 Ashen Lookout
return card {
  -- [On K.O.] Add this card from your trash to your hand (it resolves in the trash, OP 10-2-17-1).
  on_ko { operate = function(ctx)
    if ctx.source.zone == "trash" then
      ctx:move(ctx.source, "hand", { player = ctx.player, reason = "effect" })
    end
  end },
}
