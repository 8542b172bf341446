"""The :class:`Store`: every method is one transaction on the shared connection."""

from __future__ import annotations

from .boards import BoardsMixin
from .games import GamesMixin
from .lobbies import LobbiesMixin
from .scorekeeper import ScoreKeeperMixin


class Store(GamesMixin, LobbiesMixin, BoardsMixin, ScoreKeeperMixin):
    """ScopaBot's database. Open with ``await Store.open(path)``, close with ``await close()``.

    Games (:mod:`.games`), server settings and tables (:mod:`.lobbies`), ratings, statistics
    and results (:mod:`.boards`), and score-keeper sheets (:mod:`.scorekeeper`).
    """
