"""Violations: what the bot did that Discord refuses or that a user sees fail.

A bot test must fail on anything a person would notice, even when the bot swallows the error
it got back: a request Discord refused (any 4xx, the rule broken named), an interaction that
showed "This interaction failed", a secret card shown to the wrong player. Tests that provoke
one on purpose say so with ``async with standin.expect_violation(...)``, which also fails when
the violation does not come, so such a test cannot pass by accident.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Violation:
    """Something the bot did that Discord would refuse, or that breaks a rule of ours.

    ``kind`` is one of ``spec`` and ``limit`` (a body Discord refuses with 50035, naming the
    field), ``refused`` (any other 4xx the bot got back), ``failed`` (an interaction the user
    saw fail), ``privacy`` and ``unsupported`` (a route the stand-in does not know). ``code``
    is the Discord error code the bot got back (10062 for a failed interaction, the code the
    bot meets if it answers after all).
    """

    kind: str
    request: str
    path: str
    message: str
    code: int | None = None

    def __str__(self) -> str:
        where = f" {self.path}:" if self.path else ""
        return f"[{self.kind}] {self.request}:{where} {self.message}"


class StandInViolation(AssertionError):
    def __init__(self, violations: list[Violation]) -> None:
        self.violations = violations
        lines = "\n  ".join(str(v) for v in violations)
        super().__init__(f"the bot did what Discord refuses or users see fail:\n  {lines}")


@dataclass(eq=False)
class ExpectedViolation:
    """The violations a test provokes on purpose; the matching ones are caught in ``caught``."""

    kind: str | None = None
    code: int | None = None
    match: str | None = None
    caught: list[Violation] = field(default_factory=list)

    def matches(self, violation: Violation) -> bool:
        return (
            (self.kind is None or violation.kind == self.kind)
            and (self.code is None or violation.code == self.code)
            and (self.match is None or re.search(self.match, str(violation)) is not None)
        )

    def __str__(self) -> str:
        wanted = [
            f"{name}={value!r}"
            for name, value in (("kind", self.kind), ("code", self.code), ("match", self.match))
            if value is not None
        ]
        return f"a violation ({', '.join(wanted) or 'any'})"
