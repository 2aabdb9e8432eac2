-- SM01-007 Abyssal Serpent
return card {
  -- Growth [a Fish Seal]: this Seal gets At+2.
  continuous { box = "growth", modify = { plus_at(2) } },
}
