"""The :class:`Store`: every method is one transaction on the shared connection."""

from __future__ import annotations

from .alarms import AlarmsMixin
from .boards import BoardsMixin
from .games import GamesMixin
from .people import PeopleMixin
from .score_sheets import ScoreSheetsMixin
from .tables import TablesMixin


class Store(GamesMixin, AlarmsMixin, TablesMixin, PeopleMixin, BoardsMixin, ScoreSheetsMixin):
    """ScopaBot's database. Open with ``await Store.open(path)``, close with ``await close()``.

    Games (:mod:`.games`), their deadlines and reminders (:mod:`.alarms`), server settings and
    tables (:mod:`.tables`), people's settings and games (:mod:`.people`), ratings, statistics
    and results (:mod:`.boards`), and score-keeper sheets (:mod:`.score_sheets`).
    """
