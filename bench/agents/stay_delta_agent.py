"""Bench agent on the line protocol with delta observations: every person stays."""
import json
import sys

people = None
for line in sys.stdin:
    observation = json.loads(line)
    if people is None:
        people = [p["id"] for p in observation["people"]]
        answer = {"observations": "delta", "actions": {p: "STAY" for p in people}}
    else:
        if observation["gone"]:
            gone = set(observation["gone"])
            people = [p for p in people if p not in gone]
        answer = {p: "STAY" for p in people}
    print(json.dumps(answer), flush=True)
