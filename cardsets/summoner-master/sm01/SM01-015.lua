-- SM01-015 Ashen Wyrm Lord
return card {
  -- Progress [Ashwing Drake]: this Seal gets At+1.
  continuous { box = "progress", modify = { plus_at(1) } },
}
