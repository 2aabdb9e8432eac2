-- GX02-050 Overrun Juggernaut
return card {
  -- While this unit has AP 5 or more, it gains 〈Suppression〉 (read when the damage is dealt:
  -- lose the AP during the attack and it is lost, FAQ Q375).
  constant { condition = function(ctx) return this_unit(ctx).ap >= 5 end, modify = { gains("suppression") } },
}
