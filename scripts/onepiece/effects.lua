-- Activating and resolving effects: OP 8-1 to 8-4, 10-2-13 ([Once Per Turn]).
-- The kernel calls OP.activate for every triggered ability; the ruleset calls it for
-- activated ones.

OP = OP or {}

--- Whether an ability may be activated now (conditions only: OP 8-3-2).
function OP.can_activate(ctx, ab)
  local def, src = ab.def, ab.source
  if def.once_per_turn and src and ctx:uses(src, ab.key) > 0 then return false end -- 10-2-13-1
  if def.don and src and #src.attachments < def.don then return false end            -- 10-2-9
  if def.your_turn and ctx.turn_player ~= ctx.player then return false end            -- 10-2-11
  if def.opponent_turn and ctx.turn_player == ctx.player then return false end        -- 10-2-12
  if def.condition and not def.condition(ctx) then return false end
  return true
end

--- Activates and resolves an ability (OP 8-4). Returns whether it resolved.
function OP.activate(ctx, ab, args)
  local def, src = ab.def, ab.source
  args = args or {}
  if src and def.kind == "triggered" then
    -- OP 8-1-3-1-3: an auto effect whose card left is not activated; [On K.O.] is the
    -- exception (10-2-17-2) and resolves from the trash.
    if not src.alive then
      if not def.resolves_after_leaving then return false end
      ctx = ctx:with({ source = ctx:current(src), ko_source = src })
    end
  end
  if not OP.can_activate(ctx, ab) then return false end
  if def.optional and not ctx:yes_no(ctx.player, "activate") then return false end -- 8-1-2
  if def.once_per_turn and src then ctx:use(src, ab.key) end -- 10-2-13-5: used even if payment fails
  if def.cost and not def.cost(ctx) then return false end -- 8-3-1-3-1
  if def.operate then def.operate(ctx, args) end
  return true
end

-- Rules' own continuous effects.
OP.RULES = {
  -- OP 6-5-5-2: +1000 power per attached DON!! during its owner's turn.
  { kind = "static",
    affects = function(ctx, c)
      return (c.zone == "leader" or c.zone == "character") and c.controller == ctx.turn_player and #c.attachments > 0
    end,
    modify = { { char = "power", op = "add", value = function(ctx, c) return 1000 * #c.attachments end } } },
}
