-- GX02-004 Bastion Warden
return card {
  -- If this unit would be destroyed while paired, you may instead return that Pilot to its owner's hand and recover all of this unit's HP.
  -- (GD 10-1-9: destroyed by damage, 11-3, or by an effect, 5-10; the unit stays, not destroyed.)
  replacement { replaces = "move", optional = true,
    match = { card = "self", to = "trash", reason = "destroyed" },
    applies = function(ctx, op) return GD.pilot(ctx.source) ~= nil end,
    replace = function(ctx, op)
      local u = ctx.source
      return_to_hand(ctx, GD.pilot(u))
      recover(ctx, u, u:counter_value("damage"))
      return nil
    end },
}
