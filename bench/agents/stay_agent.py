"""Bench agent on the line protocol: every person stays."""
import json
import sys

for line in sys.stdin:
    observation = json.loads(line)
    print(json.dumps({p["id"]: "STAY" for p in observation["people"]}), flush=True)
