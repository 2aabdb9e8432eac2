-- GX02-046 Vigil Array
return card {
  -- When one or more friendly units are destroyed, draw 1 (once for units destroyed at the
  -- same time: GD 10-1-6-3).
  on_event { on = "moved", match = { reason = "destroyed", from = "battle_area", to = "trash" },
    when = function(ctx, ev) return util.contains(GD.allies(ctx), ev.old.owner) end,
    operate = function(ctx) draw(ctx, 1) end },
  -- 【Burst】 Deploy this card.
  burst { operate = function(ctx) deploy_card(ctx, ctx.source) end },
}
