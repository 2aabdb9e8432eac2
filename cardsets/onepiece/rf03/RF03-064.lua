-- RF03-064 Drillmaster Oona
return card {
  -- [On Play] Activate the [Main] of up to 1 Event from your hand (never a [Counter], OP 10-2-4-1-2).
  on_play { operate = function(ctx)
    local with_main = filter("Event with [Main]", function(c) return OP.event_ability(ctx, c, "main") ~= nil end)
    activate_main_of(ctx, pick_in(ctx, "hand", F.event * with_main))
  end },
}
