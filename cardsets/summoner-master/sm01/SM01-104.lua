-- SM01-104 Iron Resolve
return card {
  -- PS, 2 Turns. Pasted: the Seal gets At+2 and Df+1.
  pasted { modify = { plus_at(2), plus_df(1) } },
}
