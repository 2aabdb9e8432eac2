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
  -- The record's few fields, not every typed one: a ruleset types many more than an ability has.
  for name, v in pairs(a) do
    local want = types[name]
    if want ~= nil and type(v) ~= want then
      error(string.format("`%s` should be a %s, not the %s %s", name, want, type(v), tostring(v)), 0)
    end
  end
end

--- The name of `names` closest to `name` when `name` is likely a typo of it, else nil: the
--- rule of the kernel's "did you mean" (core/src/suggest.rs): insertions, deletions,
--- substitutions and swaps of two neighbours count one edit; at most one edit for a name of 3
--- to 5 characters, two from 6, three from 12.
function util.nearest(name, names)
  local n = #name
  local limit = (n <= 2 and 0) or (n <= 5 and 1) or (n <= 11 and 2) or 3
  local best, best_d = nil, limit + 1
  local a = name:lower()
  for _, cand in ipairs(names) do
    local b = cand:lower()
    local d = {}
    for i = 0, #a do d[i] = { [0] = i } end
    for j = 0, #b do d[0][j] = j end
    for i = 1, #a do
      for j = 1, #b do
        local cost = a:sub(i, i) == b:sub(j, j) and 0 or 1
        local v = math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
        if i > 1 and j > 1 and a:sub(i, i) == b:sub(j - 1, j - 1) and a:sub(i - 1, i - 1) == b:sub(j, j) then
          v = math.min(v, d[i - 2][j - 2] + 1)
        end
        d[i][j] = v
      end
    end
    local dist = d[#a][#b]
    if cand ~= name and (dist < best_d or (dist == best_d and best ~= nil and cand < best)) then
      best, best_d = cand, dist
    end
  end
  return best
end

--- The fields a constructor reads, made once for util.check_fields when the ruleset loads (every
--- ability of every card is checked when its card loads: 100,000 cards in a big mod). `known`
--- lists the fields it reads, `internal` those it sets itself (accepted, not suggested).
function util.fields(known, internal)
  local set = {}
  for _, k in ipairs(known) do set[k] = true end
  for _, k in ipairs(internal or {}) do set[k] = true end
  return { known = known, set = set }
end

--- Refuses a field of ability record `a` that nothing reads: it would be ignored without a
--- word (`shared = true` beside `limit` instead of inside it, `affects` on a triggered
--- ability). `fields` (util.fields) says what `what` (the constructor) reads; `moved` maps a
--- field to where it belongs instead.
function util.check_fields(a, fields, what, moved)
  local set, unknown = fields.set, nil
  for k in pairs(a) do
    if type(k) == "string" and not set[k] then
      unknown = unknown or {}
      unknown[#unknown + 1] = k
    end
  end
  if unknown == nil then return end
  table.sort(unknown)
  local k = unknown[1]
  local hint = moved and moved[k]
  if hint == nil then
    local near = util.nearest(k, fields.known)
    local sorted = table.clone(fields.known)
    table.sort(sorted)
    hint = near and string.format("did you mean `%s`?", near)
      or string.format("it reads %s", table.concat(sorted, ", "))
  end
  error(string.format("%s does not read `%s`, which would be ignored: %s", what, k, hint), 0)
end

--- util.check_fields with the fields given as lists, for a check made once: `known` lists the
--- fields `what` reads, `internal` those its constructor sets itself.
function util.check_known(a, known, what, moved, internal)
  util.check_fields(a, util.fields(known, internal), what, moved)
end
