-- RF03-068 Quiet Harbor
return card {
  -- [On Play] of your opponent's cost 3 or less Characters: only with 2 or more Life (OP 8-3-2-2).
  added_condition {
    to = function(ctx, ab) return ab.def.on_play and ab.source.controller ~= ctx.player and ab.source.cost <= 3 end,
    requires = function(actx) return life_count(actx) >= 2 end },
}
