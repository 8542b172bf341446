"""The :class:`Store`: every method is one transaction on the shared connection."""

from __future__ import annotations

from .boards import BoardsMixin
from .games import GamesMixin
from .score_sheets import ScoreSheetsMixin
from .tables import TablesMixin


class Store(GamesMixin, TablesMixin, BoardsMixin, ScoreSheetsMixin):
    """ScopaBot's database. Open with ``await Store.open(path)``, close with ``await close()``.

    Games (:mod:`.games`), server settings and tables (:mod:`.tables`), ratings, statistics
    and results (:mod:`.boards`), and score-keeper sheets (:mod:`.score_sheets`).
    """
