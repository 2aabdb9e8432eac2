-- Named card filters, shared by every ruleset: a filter is a predicate on a card,
-- `f(card) -> bool`, whose `tostring(f)` is its name, shown in the prompt of choices
-- (`pick: <name>`) and in logs. Compose with `*` (and), `+` (or) and `-f` (not): a ruleset's
-- `F.unit * F.ap_max(3)` reads "Unit & AP<=3". Game-agnostic: each ruleset makes its own `F`.

local Filter = {}
Filter.__index = Filter
Filter.__call = function(f, c) return f.test(c) end
Filter.__tostring = function(f) return f.name end

--- A named filter.
function filter(name, test) return setmetatable({ name = name, test = test }, Filter) end

Filter.__mul = function(a, b)
  return filter(a.name .. " & " .. b.name, function(c) return a.test(c) and b.test(c) end)
end
Filter.__add = function(a, b)
  return filter("(" .. a.name .. " | " .. b.name .. ")", function(c) return a.test(c) or b.test(c) end)
end
Filter.__unm = function(a)
  return filter("not " .. a.name, function(c) return not a.test(c) end)
end
