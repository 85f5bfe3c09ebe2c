#!/usr/bin/env python3
"""Reference implementation of the EMBER episode score (scoring-v1.0.md 4, 4.1-4.5).

Reads JSON lines on stdin, one episode-score input each (the fields of
EpisodeScoreInput in src/core/scoring/episode-score.ts, integers as JSON
integers), and writes one JSON line per input: {"result": ..., "digits": ...}, the
result of scoreEpisode (every component and the score as decimal strings
with fixed places) and the unrounded 50-digit values of episodeScoreDigits,
or {"error": "..."} for an input the TypeScript implementation must reject.

It performs the same decimal operations in the same order as
episode-score.ts, with Python's decimal (libmpdec) at 50 digits,
ROUND_HALF_EVEN. A line {"op": "ln" | "exp" | "pow" | "div", "x": ..., "y": ...}
evaluates one operation instead and writes its exact value as a plain string;
{"op": "constants"} writes the constants this script uses.

Standard library only; used by test/python/score-reference.test.ts.
"""

import json
import sys
from decimal import ROUND_HALF_EVEN, Context, Decimal, setcontext
from fractions import Fraction

setcontext(Context(prec=50, rounding=ROUND_HALF_EVEN))

K = {
    "kE": "2", "alpha_c": "0.6", "k_c": "4", "alpha_s": "0.8", "k_s": "2",
    "catastrophic_loss_rate": "0.5",
    "weights": {"time": "0.375", "hazard": "0.25", "path": "0.125", "replanning": "0.25"},
    "kH": "1",
    "severe_thresholds": {"time": "0.5", "hazard": "0.75", "path": "0.5", "replanning": "0.5"},
    "phi": "0.8", "gamma": "1",
}
ORDER = ("time", "hazard", "path", "replanning")
COMPONENT_PLACES = 12
SCORE_PLACES = 9
ONE = Decimal(1)
LN2 = Decimal(2).ln()
THRESHOLDS = {k: Decimal(K["severe_thresholds"][k]) for k in ORDER}
Q_MIN = min(THRESHOLDS[k] for k in ORDER)
BETA = min(ONE, Decimal(K["alpha_c"]).ln() / Q_MIN.ln())


class InputError(Exception):
    pass


def places(x, n):
    return None if x is None else format(x.quantize(Decimal(10) ** -n, rounding=ROUND_HALF_EVEN), "f")


def count(v, name):
    if not isinstance(v, int) or isinstance(v, bool):
        raise InputError(f"{name} must be an integer")
    if v < 0:
        raise InputError(f"{name} must not be negative")
    return v


def loss_factor(n, m, alpha, k):
    incident = Decimal(alpha) ** ((Decimal(1 + n)).ln() / LN2)
    rate = (ONE - Decimal(n) / m) ** Decimal(k)
    return incident * rate


def ratio_component(obj, name):
    bound, actual = count(obj["bound"], name), count(obj["actual"], name)
    if actual == 0 or bound > actual:
        raise InputError(f"{name} ratio out of range")
    return Decimal(bound) / Decimal(actual), Fraction(bound, actual)


def hazard_component(obj):
    d = count(obj["dangerStates"], "D")
    d_star = count(obj["fewestDangerStates"], "D*")
    steps = count(obj["evacuationSteps"], "steps")
    if steps == 0 or d_star > d or d - d_star > steps:
        raise InputError("hazard out of range")
    avoidable = d - d_star
    value = (ONE - Decimal(avoidable) / Decimal(steps)) ** Decimal(K["kH"])
    return value, Fraction(steps - avoidable, steps) ** int(K["kH"])


def quality_of(comps):
    defined = [k for k in ORDER if k in comps]
    if not defined:
        return None
    if any(comps[k][0] == 0 for k in defined):
        return Decimal(0)
    total = Decimal(0)
    for k in defined:
        total = total + Decimal(K["weights"][k])
    acc = Decimal(0)
    for k in defined:
        acc = acc + (Decimal(K["weights"][k]) / total) * comps[k][0].ln()
    return acc.exp()


def score_episode(inp):
    m = count(inp["maxEvacuated"], "M*")
    population = count(inp["population"], "population")
    evacuated = count(inp["evacuated"], "evacuated")
    c = count(inp["avoidableCasualties"], "c")
    s = count(inp["avoidableStranded"], "s")
    if m > population or evacuated + c + s != m:
        raise InputError("inconsistent counts")
    for k in ("time", "hazard", "path"):
        if (inp[k] is not None) != (evacuated > 0):
            raise InputError(f"{k} definedness")
    if m == 0 and inp["replanning"] is not None:
        raise InputError("replanning without M*")
    comps = {}
    for k in ORDER:
        if inp[k] is not None:
            comps[k] = hazard_component(inp[k]) if k == "hazard" else ratio_component(inp[k], k)
    if m == 0:
        names = ("evacuation", "casualty", "stranding") + ORDER
        result = {
            "status": "not_applicable",
            "components": {k: None for k in names},
            "safety": None, "quality": None, "beta": places(BETA, COMPONENT_PLACES),
            "severity": None, "severe": [], "ceiling": None, "score": None,
        }
        digits = {k: None for k in names + ("safety", "quality", "severity", "ceiling", "score")}
        digits["beta"] = exact_plain(BETA)
        return {"result": result, "digits": digits}

    M = Decimal(m)
    evacuation = (Decimal(evacuated) / M) ** Decimal(K["kE"])
    casualty = loss_factor(c, M, K["alpha_c"], K["k_c"])
    stranding = loss_factor(s, M, K["alpha_s"], K["k_s"])
    catastrophic = Fraction(c + s, m) >= Fraction(Decimal(K["catastrophic_loss_rate"]))
    safety = Decimal(0) if catastrophic else evacuation * casualty * stranding

    quality = quality_of(comps)
    severe = [k for k in ORDER if k in comps and comps[k][1] < Fraction(THRESHOLDS[k])]
    severity = ONE
    for k in severe:
        severity = severity * (Decimal(K["phi"]) * ((comps[k][0] / THRESHOLDS[k]) ** Decimal(K["gamma"])))

    hundred_safety = Decimal(100) * safety
    if catastrophic or quality is None:
        score = Decimal(0)
    else:
        score = hundred_safety * (quality ** BETA) * severity
    ceiling = hundred_safety * severity
    cp = COMPONENT_PLACES
    values = {
        "evacuation": evacuation, "casualty": casualty, "stranding": stranding,
        **{k: comps[k][0] if k in comps else None for k in ORDER},
    }
    result = {
        "status": "catastrophic" if catastrophic else "scored",
        "components": {k: places(v, cp) for k, v in values.items()},
        "safety": places(safety, cp),
        "quality": places(quality, cp),
        "beta": places(BETA, cp),
        "severity": places(severity, cp),
        "severe": severe,
        "ceiling": places(ceiling, SCORE_PLACES),
        "score": places(score, SCORE_PLACES),
    }
    digits = {k: exact_or_none(v) for k, v in values.items()}
    digits.update(safety=exact_or_none(safety), quality=exact_or_none(quality), beta=exact_plain(BETA),
                  severity=exact_or_none(severity), ceiling=exact_or_none(ceiling), score=exact_or_none(score))
    return {"result": result, "digits": digits}


def exact_plain(x):
    return "0" if x == 0 else format(x.normalize(), "f")


def exact_or_none(x):
    return None if x is None else exact_plain(x)


def operation(obj):
    op = obj["op"]
    if op == "constants":
        return K
    x = Decimal(obj["x"])
    if op == "ln":
        return exact_plain(x.ln())
    if op == "exp":
        return exact_plain(x.exp())
    if op == "pow":
        return exact_plain(x ** Decimal(obj["y"]))
    if op == "div":
        return exact_plain(x / Decimal(obj["y"]))
    raise InputError(f"unknown op {op}")


def main():
    out = []
    for line in sys.stdin:
        if not line.strip():
            continue
        obj = json.loads(line)
        try:
            out.append(json.dumps(operation(obj) if "op" in obj else score_episode(obj), sort_keys=True))
        except InputError as e:
            out.append(json.dumps({"error": str(e)}))
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))


if __name__ == "__main__":
    main()
