-- SM02-017 Steam Wyvern
return card {
  -- This Seal gets At+1 for each element-symbol type among your Seals (Gl: ประเภทสัญลักษณ์ธาตุ;
  -- it prints two symbols itself: Gl: Double Element).
  continuous { modify = { { char = "at", op = "add", value = function(ctx) return element_symbol_types(seals(ctx)) end } } },
}
