-- Swapping powers: Gl: สลับค่าพลัง X กับ Y ("the values of X and Y are swapped: effects that would
-- change X change Y instead, and the other way").
--
-- A swap is an effect on the card's characteristic `swap_at_df` (`swap_at_sp`, `swap_df_sp`), for its
-- duration. A rule static ability then sets, in the last layer (`swap`, after
-- the Changing Power effects: SM 603.4), X to the value of Y and Y to that of X, each read through
-- every other effect: so an effect that changes X still changes the value read as Y. One static
-- sets both: while it is being decided the kernel leaves it out of the other read, so neither
-- side sees the swap (docs/kernel.md SM23).

SM = SM or {}

--- The pairs of powers a swap may exchange.
SM.SWAPS = { at_df = { "at", "df" }, at_sp = { "at", "sp" }, df_sp = { "df", "sp" } }

--- Swaps powers `x` and `y` ("at", "df", "sp") of Seals for a duration (Gl: สลับค่าพลัง).
function swap_powers(ctx, cards, x, y, duration)
  local key = SM.SWAPS[x .. "_" .. y] and (x .. "_" .. y) or (y .. "_" .. x)
  if SM.SWAPS[key] == nil then error("swap_powers: '" .. tostring(x) .. "' and '" .. tostring(y) .. "' are not two of at, df, sp", 2) end
  local list = util.filter(SM.affected(ctx, cards), function(c) return c.alive and SM.in_field(c) and SM.is_seal(c) end)
  if #list == 0 then return end
  ctx:modify(list, { char = "swap_" .. key, op = "set", value = 1 }, SM.effect_duration(ctx, duration))
end

for key, pair in pairs(SM.SWAPS) do
  local x, y = pair[1], pair[2]
  local swapped = "swap_" .. key -- (named once: the test runs at every read of these values)
  SM.RULES[#SM.RULES + 1] = {
    kind = "static",
    affects = function(ctx, c) return c[swapped] > 0 end,
    modify = {
      { char = x, op = "set_base", layer = "swap", value = function(ctx, c) return c[y] end },
      { char = y, op = "set_base", layer = "swap", value = function(ctx, c) return c[x] end },
    },
  }
end
