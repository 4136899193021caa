"""What model calls cost, and a cap on it: a meter charged from each reply's token usage.

Prices live in ``prices.json`` beside this file, in dollars per million
tokens, and nowhere else. Before each call the meter checks the call's worst
case against the cap: every byte of the request counted as an input token
(a token is never shorter than a byte), plus a fixed allowance for the tool
instructions the API adds, plus ``max_tokens`` of output, times the attempts
the SDK may make (one plus its retries). A call that could pass the cap is not
made, so the cap is a real maximum, not a target.

A call is charged from its reply's usage only when that usage is possible:
whole, non-negative token counts no larger than the call's worst case (a
negative count would lower the spend, an absurd one is a broken reply). An
attempt that may have reached the service but brought back no usage (a
timeout, a server error, a retry the SDK made before the reply that came
back, an impossible usage) is charged at its worst case.

A run may also have a deadline (``deadline_s``), beside each call's own
timeout: its clock starts at the run's first call that is not answered from
the cache, no call is made once it has passed, and a call still in flight
when it passes is given up (charged at its worst case). Each is counted
(``late``) and the cost line says so; the flags those calls would have been
asked about stay.
"""

import json
import re
import time
from dataclasses import dataclass
from importlib import resources
from typing import Any, Dict, Optional

from ..errors import FactwashError

TOOL_OVERHEAD_TOKENS = 1000  # the API's own tool-use instructions; about 350 tokens today, with room to spare
DATED = re.compile(r"-\d{8}$")


class BudgetExhausted(FactwashError, RuntimeError):
    """The next call could take the spend past the cap; it was not made."""

    code = "E009"


class UnknownPrice(FactwashError, ValueError):
    """A budget was set for a model the price table does not list."""

    code = "E010"


class ImpossibleUsage(FactwashError, ValueError):
    """A reply's token usage is not a possible one (negative, not whole, or above the call's worst case)."""

    code = "E011"


class DeadlineReached(FactwashError, RuntimeError):
    """The run's deadline passed: the next call was not made, or the call in flight was given up."""

    code = "E040"


STOPS = (BudgetExhausted, UnknownPrice, DeadlineReached)  # not a discarded reply: the caller decides what stops


def price_table() -> Dict[str, Any]:
    """The price table shipped with the package."""
    return json.loads(resources.files("spacy_factwash.llm").joinpath("prices.json").read_text(encoding="utf8"))


def price_of(model: str, table: Optional[Dict[str, Any]] = None) -> Dict[str, float]:
    """Dollars per million input and output tokens for ``model`` (a dated id falls back to its alias)."""
    table = table or price_table()
    models = table["models"]
    for name in (model, DATED.sub("", model)):
        if name in models:
            return {**models[name], "cache_write_factor": table["cache_write_factor"],
                    "cache_read_factor": table["cache_read_factor"]}
    raise UnknownPrice(f"no price for model {model!r} in spacy_factwash/llm/prices.json "
                       f"(listed: {', '.join(sorted(models))}); add it there to meter it")


USAGE_FIELDS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")


def tokens(usage: Any, name: str) -> int:
    """One token count from the SDK's Usage object or a dict with the same fields (absent: 0)."""
    value = usage.get(name) if isinstance(usage, dict) else getattr(usage, name, None)
    return int(value or 0)


def check_usage(usage: Any, request_bytes: int, max_tokens: int) -> None:
    """Raise ``ImpossibleUsage`` unless every count is a whole number >= 0 and within the call's worst case."""
    counts = {}
    for name in USAGE_FIELDS:
        value = usage.get(name) if isinstance(usage, dict) else getattr(usage, name, None)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ImpossibleUsage(f"usage {name}={value!r} is not a whole number of tokens >= 0")
        counts[name] = value or 0
    read = counts["input_tokens"] + counts["cache_creation_input_tokens"] + counts["cache_read_input_tokens"]
    if read > request_bytes + TOOL_OVERHEAD_TOKENS or counts["output_tokens"] > max_tokens:
        raise ImpossibleUsage(f"usage of {read} input and {counts['output_tokens']} output tokens is more than a "
                              f"request of {request_bytes} bytes with max_tokens {max_tokens} can use")


def cost(model: str, usage: Any) -> float:
    """Dollars for one reply's ``usage`` (the SDK's Usage object or a dict with the same fields)."""
    price = price_of(model)
    input_rate = price["input"] / 1e6
    return (tokens(usage, "input_tokens") * input_rate
            + tokens(usage, "cache_creation_input_tokens") * input_rate * price["cache_write_factor"]
            + tokens(usage, "cache_read_input_tokens") * input_rate * price["cache_read_factor"]
            + tokens(usage, "output_tokens") * price["output"] / 1e6)


def worst_case(model: str, request_bytes: int, max_tokens: int) -> float:
    """The most one call can cost: each request byte an input token, the tool overhead, and all output tokens."""
    return cost(model, {"input_tokens": request_bytes + TOOL_OVERHEAD_TOKENS, "output_tokens": max_tokens})


@dataclass
class Meter:
    """Calls, tokens and dollars spent in one run, and the cap (``max_usd`` None: no cap, still counted)."""

    max_usd: Optional[float] = None
    spent_usd: float = 0.0
    calls: int = 0
    cached: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    refused: int = 0
    unmetered: int = 0  # attempts charged at their worst case: no (possible) usage came back
    deadline_s: Optional[float] = None  # seconds for the whole run, from its first call (None: no deadline)
    started: Optional[float] = None  # ``time.monotonic()`` at the run's first call
    late: int = 0  # calls not made, or given up in flight, because the deadline had passed

    def seconds_left(self) -> Optional[float]:
        """Seconds before the run's deadline (None without one), its clock started by the first call that asks;
        ``DeadlineReached`` (counted) when none are left."""
        if self.deadline_s is None:
            return None
        if self.started is None:
            self.started = time.monotonic()
        left = self.deadline_s - (time.monotonic() - self.started)
        if left <= 0:
            self.late += 1
            raise DeadlineReached(f"the model run's deadline of {self.deadline_s:g} s has passed: no further call "
                                  "is made")
        return left

    def allow(self, model: str, request_bytes: int, max_tokens: int, attempts: int = 1) -> None:
        """Raise ``BudgetExhausted`` when the call's worst case, over every attempt the SDK may make, could pass
        the cap; else let it be made."""
        if self.max_usd is None:
            return
        worst = worst_case(model, request_bytes, max_tokens) * attempts
        if self.spent_usd + worst > self.max_usd:
            self.refused += 1
            raise BudgetExhausted(f"budget of ${self.max_usd:.4f} reached: ${self.spent_usd:.4f} spent, and the "
                                  f"next call could cost up to ${worst:.4f}")

    def _dollars(self, model: str, usage: Any) -> float:
        """What ``usage`` costs (0 when the model is unpriced and no cap is set)."""
        try:
            return cost(model, usage)
        except UnknownPrice:
            if self.max_usd is not None:
                raise
            return 0.0

    def charge_worst(self, model: str, request_bytes: int, max_tokens: int, attempts: int = 1) -> float:
        """Charge ``attempts`` that may have reached the service without usage coming back, each at its worst."""
        dollars = self._dollars(model, {"input_tokens": request_bytes + TOOL_OVERHEAD_TOKENS,
                                        "output_tokens": max_tokens}) * attempts
        self.calls += attempts
        self.unmetered += attempts
        self.spent_usd += dollars
        return dollars

    def charge(self, model: str, usage: Any, request_bytes: Optional[int] = None, max_tokens: Optional[int] = None,
               earlier_attempts: int = 0) -> float:
        """Add one reply's usage, and the attempts before it at their worst case; the dollars charged.

        Given the call's ``request_bytes`` and ``max_tokens``, an impossible usage is charged at the worst case
        and raises ``ImpossibleUsage`` (the reply is not to be used).
        """
        dollars = 0.0
        if request_bytes is not None and max_tokens is not None:
            if earlier_attempts:
                dollars += self.charge_worst(model, request_bytes, max_tokens, earlier_attempts)
            try:
                check_usage(usage, request_bytes, max_tokens)
            except ImpossibleUsage:
                self.charge_worst(model, request_bytes, max_tokens)
                raise
        spent = self._dollars(model, usage)
        self.calls += 1
        self.input_tokens += tokens(usage, "input_tokens")
        self.output_tokens += tokens(usage, "output_tokens")
        self.spent_usd += spent
        return dollars + spent

    def line(self) -> str:
        """One line for the end of a run: calls, cache hits, tokens, dollars against the cap."""
        cap = f" of ${self.max_usd:.2f} budget" if self.max_usd is not None else " (no budget cap)"
        refused = f", {self.refused} call(s) refused by the budget" if self.refused else ""
        unmetered = (f", {self.unmetered} attempt(s) charged at their worst case (no usage came back)"
                     if self.unmetered else "")
        late = (f", the run's deadline of {self.deadline_s:g} s passed: {self.late} call(s) not made or given up, "
                "their flags stand" if self.late else "")
        return (f"model cost: {self.calls} call(s), {self.cached} from cache, {self.input_tokens:,} input and "
                f"{self.output_tokens:,} output tokens, ${self.spent_usd:.4f}{cap}{unmetered}{refused}{late}")
