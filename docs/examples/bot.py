#!/usr/bin/env python3
"""A bot that plays a whole Riffle game through `riffle serve --stdio` (docs/protocol.md).

It starts the host, creates a game, joins every seat and answers every request with a random
legal answer until the game is over. Standard library only.

    python3 docs/examples/bot.py [PATH_TO_RIFFLE] [--game onepiece] [--seed 1] [--root DIR] [--record DIR]

The binary is the first argument, else $RIFFLE, else `riffle` on the PATH.
"""

import argparse
import json
import os
import random
import subprocess
import sys


class Host:
    """The host process: one JSON message a line each way."""

    def __init__(self, command):
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def send(self, message):
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def messages(self):
        """The host's messages, as they come."""
        for line in self.proc.stdout:
            yield json.loads(line)

    def close(self):
        self.proc.stdin.close()
        return self.proc.wait()


def random_answer(request, rng):
    """A random legal answer to a kernel request: `choose` or `number`."""
    if request["type"] == "number":
        return {"type": "number", "value": rng.randint(request["min"], request["max"])}
    n = len(request["options"])
    count = rng.randint(request["min"], min(request["max"], n))
    return {"type": "choose", "indices": sorted(rng.sample(range(n), count))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("riffle", nargs="?", default=os.environ.get("RIFFLE", "riffle"))
    parser.add_argument("--game", default="onepiece")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--root", help="the content's repository root")
    parser.add_argument("--record", help="a folder the host writes the game's replay into")
    args = parser.parse_args()

    command = [args.riffle, "serve", "--stdio", "--game", args.game]
    if args.root:
        command += ["--root", args.root]
    if args.record:
        command += ["--record", args.record]
    host = Host(command)
    rng = random.Random(args.seed)

    # The host answers each message at once; a bot reacts to what it is sent.
    host.send({"type": "hello", "protocol": 1})
    tokens = {}
    decisions = 0
    result = None
    for msg in host.messages():
        kind = msg["type"]
        if kind == "welcome":
            host.send({"type": "create", "game": args.game, "seed": args.seed})
        elif kind == "created":
            for seat in range(msg["players"]):
                host.send({"type": "join", "game_id": msg["game_id"], "seat": seat})
        elif kind == "joined":
            tokens[msg["seat"]] = msg["token"]
        elif kind == "request":
            # Only the seat's own request reaches it, after its `joined`.
            host.send(
                {
                    "type": "respond",
                    "game_id": msg["game_id"],
                    "token": tokens[msg["seat"]],
                    "request_id": msg["request_id"],
                    "response": random_answer(msg["request"], rng),
                }
            )
            decisions += 1
        elif kind == "game_over":
            result = msg
            break
        elif kind == "error":
            raise SystemExit(f"refused: {msg['code']}: {msg['message']}")
        # `view` and `event` messages: what a seat sees; a smarter bot reads them.

    host.close()
    if result is None:
        raise SystemExit("the game stopped without a result")
    winners = ", ".join(str(w) for w in result["winners"]) or "nobody (a draw)"
    print(f"game over after {decisions} decisions: seat {winners} won ({result['reason']})")


if __name__ == "__main__":
    main()
