-- SM03-106 Rusty Blade
return card {
  -- PS. Pasted: the Seal gets At+1.
  pasted { modify = { plus_at(1) } },
}
