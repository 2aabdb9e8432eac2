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
