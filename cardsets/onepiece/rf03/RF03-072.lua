-- RF03-072 Footlights Critic
-- Facing the Encore Stage loop (RF03-070, RF03-071) it gives the opponent a choice in every
-- round: a loop both players can stop (OP 11-1-1-3).
return card {
  -- When your opponent plays a Character, you may K.O. that Character.
  on_event { on = "moved", optional = true,
    when = function(ctx, ev)
      return ev.reason == "play" and ev.to == "character" and ev.to_player ~= ctx.player
    end,
    operate = function(ctx) ko(ctx, ctx.event.card) end },
}
