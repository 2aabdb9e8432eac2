-- GX02-058 Blockade Runner
local function command_of(ctx, c, mine) return c.category == "command" and (c.owner == ctx.player) == mine end
return card {
  -- Your opponent's Command cards cost 1 more (GD 2-10).
  constant { affects = function(ctx, c) return command_of(ctx, c, false) end, modify = { plus_cost(1) } },
  -- Your Command cards cost 1 less.
  constant { affects = function(ctx, c) return command_of(ctx, c, true) end, modify = { plus_cost(-1) } },
}
