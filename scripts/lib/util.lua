-- Shared helpers for every ruleset: small list utilities. Game-agnostic.

util = {}

--- The elements of `list` for which `pred(x)` is true.
function util.filter(list, pred)
  local out = {}
  for _, x in ipairs(list) do
    if pred(x) then out[#out + 1] = x end
  end
  return out
end

--- `f(x)` for each element.
function util.map(list, f)
  local out = {}
  for i, x in ipairs(list) do out[i] = f(x) end
  return out
end

--- Whether `list` contains `v`.
function util.contains(list, v)
  for _, x in ipairs(list) do
    if x == v then return true end
  end
  return false
end

--- All elements of several lists, in order.
function util.concat(...)
  local out = {}
  for _, l in ipairs({ ... }) do
    for _, x in ipairs(l) do out[#out + 1] = x end
  end
  return out
end

--- Sum of `f(x)` over the list.
function util.sum(list, f)
  local s = 0
  for _, x in ipairs(list) do s = s + f(x) end
  return s
end

--- The sum of a map's values (a deck list section: card id -> copies).
function util.total(map)
  local n = 0
  for _, k in pairs(map or {}) do n = n + k end
  return n
end

--- Checks the types of an ability's fields when its card loads, so that `riffle validate`
--- reports a wrong one at the card's line: `types` maps a field to the type it must have
--- (`{ optional = "boolean", operate = "function" }`); a field left out is fine.
function util.check_types(a, types)
  for name, want in pairs(types) do
    local v = a[name]
    if v ~= nil and type(v) ~= want then
      error(string.format("`%s` should be a %s, not the %s %s", name, want, type(v), tostring(v)), 0)
    end
  end
end
