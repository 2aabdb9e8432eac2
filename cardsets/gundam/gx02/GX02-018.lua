-- GX02-018 Kestrel Vane
return card {
  -- 【During Pair】 This unit gains 〈Breach 1〉 (it adds to the unit's own: GD 13-1-2-5).
  during_pair { modify = { gains_value("breach", 1) } },
}
