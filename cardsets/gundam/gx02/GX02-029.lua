-- GX02-029 Wren Halloway
return card {
  -- 【During Pair】 This unit gains 〈Support 1〉 (it adds to the unit's own: GD 13-1-3-2).
  during_pair { modify = { gains_value("support", 1) } },
}
