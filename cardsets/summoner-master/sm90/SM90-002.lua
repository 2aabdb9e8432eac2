-- SM90-002 Tumbling Acrobat
return card {
  -- When this Seal loses a battle, return it to its owner's hand (it moves a losing Seal as
  -- such: SM 713.2's exception, 713.3; docs/rulings B.48).
  on_event { on = "battle_ended",
    when = function(ctx, ev)
      local me = ctx.source
      return (ev.card == me and (ev.result == "attacker" or ev.result == "both"))
        or (ev.target == me and (ev.result == "attacked" or ev.result == "both"))
    end,
    operate = function(ctx) return_to_hand(ctx, ctx.source, { losing = true }) end },
}
