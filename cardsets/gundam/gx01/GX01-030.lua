-- GX01-030 Old Brannoch
return card {
  -- 【During Pair】 This unit gains <Repair 1>.
  during_pair { modify = { gains_value("repair", 1) } },
}
