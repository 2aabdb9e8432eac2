-- Element symbols: SM 200.3 (elements; 200.3.4 Multi Element), Gl: ธาตุปกติ (normal element),
-- สัญลักษณ์ธาตุ (element symbol: only the printed icons), Double Element, ประเภทสัญลักษณ์ธาตุ
-- (element-symbol types), ตามจำนวน[เงื่อนไข]ที่ไม่ซ้ำกัน (counting what is not repeated).

SM = SM or {}

--- The element symbols card `c` prints (Gl: สัญลักษณ์ธาตุ: not those Shade of or effects give; a
--- Double Element prints two; Multi Element is a symbol of its own).
function SM.element_symbols(c) return c:printed("elements") or {} end

--- Gl: Double Element: a Seal with two element symbols; both are its normal elements, and it
--- counts two symbols.
F.double_element = filter("Double Element", function(c) return SM.is_seal(c) and #SM.element_symbols(c) == 2 end)

--- Gl: ธาตุปกติ: has normal element `e` (a printed symbol; Multi Element has every element, 200.3.4).
function F.normal_element(e)
  return filter("normal " .. e, function(c)
    for _, s in ipairs(SM.element_symbols(c)) do
      if s == e or s == "multi" then return true end
    end
    return false
  end)
end

--- Gl: ตามจำนวน[เงื่อนไข]ที่ไม่ซ้ำกัน: how many different values `f(c)` gives over `cards` (a value
--- or a list of values each; a value repeated counts once).
function count_unique(cards, f)
  local seen, n = {}, 0
  for _, c in ipairs(SM.list(cards)) do
    local v = f(c)
    for _, x in ipairs(type(v) == "table" and v or { v }) do
      if x ~= nil and not seen[x] then
        seen[x] = true
        n = n + 1
      end
    end
  end
  return n
end

--- Gl: ประเภทสัญลักษณ์ธาตุ: the number of different element symbols among `cards` ([Fire], [Fire],
--- [Wind], [Multi]: 3).
function element_symbol_types(cards) return count_unique(cards, SM.element_symbols) end

--- How many element symbols `cards` print (Gl: Double Element: two for one such card).
function element_symbol_count(cards)
  return util.sum(SM.list(cards), function(c) return #SM.element_symbols(c) end)
end
