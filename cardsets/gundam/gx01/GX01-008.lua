-- GX01-008 Doran Vey
return card {
  -- 【During Pair】 This unit gains <Blocker>.
  during_pair { modify = { gains("blocker") } },
}
