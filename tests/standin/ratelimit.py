"""Rate-limit emulation, off by default.

When on, every bucket (route + major parameter, as Discord keys them) allows ``limit``
requests per ``window`` seconds and answers with the ``X-RateLimit-*`` headers discord.py
uses to pace itself. Past the limit it answers 429 with ``retry_after`` and ``global`` in the
body and the ``Via`` header, without which discord.py assumes a Cloudflare ban and gives up.
Tests can also queue a single 429 (``inject``) to see that the bot waits and retries.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from aiohttp import web

from .errors import json_response


@dataclass
class _Bucket:
    reset_at: float
    used: int = 0


@dataclass
class _Injected:
    retry_after: float
    is_global: bool
    route: str | None


@dataclass
class RateLimits:
    enabled: bool = False
    limit: int = 5
    window: float = 1.0
    _buckets: dict[str, _Bucket] = field(default_factory=dict)
    _injected: list[_Injected] = field(default_factory=list)
    _global_until: float = 0.0

    def inject(
        self, *, retry_after: float = 0.05, is_global: bool = False, route: str | None = None
    ) -> None:
        """Answer the next request (to ``route``, a spec-style path, if given) with a 429."""
        self.enabled = True
        self._injected.append(_Injected(retry_after, is_global, route))

    def check(self, route: str, major: str) -> tuple[web.Response | None, dict[str, str], bool]:
        """A 429 to send instead of handling the request, or the headers for a normal answer.

        The flag says the bot outran a bucket it was told about (not a 429 a test injected).
        """
        if not self.enabled:
            return None, {}, False
        now = time.monotonic()
        for injected in self._injected:
            if injected.route in (None, route):
                self._injected.remove(injected)
                if injected.is_global:
                    self._global_until = now + injected.retry_after
                return (
                    self._too_many(
                        injected.retry_after, is_global=injected.is_global, bucket=route
                    ),
                    {},
                    False,
                )
        if now < self._global_until:
            return (
                self._too_many(self._global_until - now, is_global=True, bucket=route),
                {},
                False,
            )
        key = f"{route}:{major}"
        bucket = self._buckets.get(key)
        if bucket is None or now >= bucket.reset_at:
            bucket = self._buckets[key] = _Bucket(now + self.window)
        reset_after = max(bucket.reset_at - now, 0.0)
        if bucket.used >= self.limit:
            return self._too_many(reset_after, is_global=False, bucket=route), {}, True
        bucket.used += 1
        headers = {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.limit - bucket.used),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": f"standin-{abs(hash(route)):x}",
        }
        return None, headers, False

    @staticmethod
    def _too_many(retry_after: float, *, is_global: bool, bucket: str) -> web.Response:
        headers = {
            "Retry-After": f"{max(retry_after, 0.001):.3f}",
            "Via": "1.1 google",
            "X-RateLimit-Scope": "global" if is_global else "user",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers["X-RateLimit-Bucket"] = f"standin-{abs(hash(bucket)):x}"
            headers["X-RateLimit-Limit"] = "1"
            headers["X-RateLimit-Remaining"] = "0"
            headers["X-RateLimit-Reset-After"] = f"{retry_after:.3f}"
        body = {
            "message": "You are being rate limited.",
            "retry_after": round(max(retry_after, 0.001), 3),
            "global": is_global,
        }
        return json_response(body, status=429, headers=headers)
