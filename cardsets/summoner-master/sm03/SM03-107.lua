-- SM03-107 Tempered Blade
return card {
  -- PS. Pasted: the Seal gets At+3.
  pasted { modify = { plus_at(3) } },
}
