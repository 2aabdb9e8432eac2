-- The card designer's vocabulary: one constructor per timing keyword of OP section 10-2.
-- Each returns a kernel ability record; OP.activate (effects.lua) runs it.
-- Common fields: condition(ctx), cost(ctx) -> bool, operate(ctx, args), optional (a "you may"
-- text, OP 8-1-2), once_per_turn (OP 10-2-13), don = N ([DON!! x N], 10-2-9),
-- your_turn / opponent_turn (10-2-11/12).

--- A card's ability list.
function card(abilities) return abilities end

local FIELD = { "leader", "character", "stage" }

local function self_moved_to(zones, reason)
  return function(ctx, ev)
    return ev.card == ctx.source and util.contains(zones, ev.to) and (reason == nil or ev.reason == reason)
  end
end

--- [On Play] (OP 10-2-6): when this card is played.
function on_play(a)
  a.kind, a.on, a.zones = "triggered", "moved", { "character", "stage" }
  a.when = self_moved_to({ "character", "stage" }, "play")
  return a
end

--- [When Attacking] (OP 10-2-5): when this card attacks.
function when_attacking(a)
  a.kind, a.on, a.zones = "triggered", "attack_declared", { "leader", "character" }
  a.when = function(ctx, ev) return ev.card == ctx.source end
  return a
end

--- [On Your Opponent's Attack] (OP 10-2-16).
function on_opponent_attack(a)
  a.kind, a.on, a.zones = "triggered", "attack_declared", FIELD
  a.when = function(ctx, ev) return ev.player ~= ctx.player end
  return a
end

--- [On Block] (OP 10-2-15): when this card's [Blocker] is activated.
function on_block(a)
  a.kind, a.on, a.zones = "triggered", "blocked", { "character" }
  a.when = function(ctx, ev) return ev.card == ctx.source end
  return a
end

--- [On K.O.] (OP 10-2-17): conditions on the field, resolves from the trash.
function on_ko(a)
  a.kind, a.on, a.zones = "triggered", "moved", { "character" }
  a.when = function(ctx, ev) return ev.old == ctx.source and ev.reason == "ko" end
  a.resolves_after_leaving = true
  return a
end

--- [End of Your Turn] (OP 10-2-7).
function end_of_your_turn(a)
  a.kind, a.on, a.zones = "triggered", "end_of_turn", FIELD
  a.when = function(ctx, ev) return ctx.turn_player == ctx.player end
  return a
end

--- [End of Your Opponent's Turn] (OP 10-2-8).
function end_of_opponent_turn(a)
  a.kind, a.on, a.zones = "triggered", "end_of_turn", FIELD
  a.when = function(ctx, ev) return ctx.turn_player ~= ctx.player end
  return a
end

--- "When this is attacked" (OP 7-1-3-1).
function when_attacked(a)
  a.kind, a.on, a.zones = "triggered", "attacked", FIELD
  a.when = function(ctx, ev) return ev.target == ctx.source end
  return a
end

--- [Activate: Main] (OP 10-2-2): in your Main Phase, outside battle.
function activate_main(a)
  a.kind, a.timing, a.zones = "activated", "main", a.zones or FIELD
  return a
end

--- An Event's [Main] (OP 10-2-3).
function main_event(a)
  a.kind, a.timing, a.zones = "activated", "main", { "hand" }
  a.event = true
  return a
end

--- An Event's [Counter] (OP 10-2-4).
function counter_event(a)
  a.kind, a.timing, a.zones = "activated", "counter", { "hand" }
  a.event = true
  return a
end

--- [Trigger] (OP 10-1-5): may be activated instead of adding the Life card to hand.
function trigger(a)
  a.kind, a.timing, a.zones = "activated", "trigger", { "life", "limbo" }
  return a
end

--- A permanent effect (OP 8-1-3-3) while this card is on the field.
function permanent(a)
  a.kind, a.zones = "static", a.zones or FIELD
  return a
end

--- A replacement effect (OP 8-1-3-4): `applies(ctx, op)`, `replace(ctx, op)`.
function replacement(a)
  a.kind, a.zones = "replacement", a.zones or FIELD
  return a
end
