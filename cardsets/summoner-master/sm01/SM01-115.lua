-- SM01-115 Pact of Thorns
return card {
  -- PS. Pasted: the Seal gets At+1. Exception: Dark.
  pasted { modify = { plus_at(1) } },
}
