-- SM90-006 Tidewall Sentinel
return card {
  -- This Seal cannot be attacked by Fire Seals (SM 100.2 over 503.3).
  cannot_be_attacked { when = function(ctx, act) return F.element("fire")(act.attacker) end },
  -- This Seal cannot be returned to the hand (SM 100.2 over 705).
  cannot_be_returned { to = "hand" },
}
