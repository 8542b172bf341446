"""``/scopa tournament``: create, join, leave, start, standings, bracket, withdraw, cancel.

The tournaments are the service's (``service.tournaments``); this only asks and shows. When a
round starts the service has opened and dealt every match's table; here each table is put in
its own thread of the tournament's channel (as a table started by its host is) and the round
is announced there, naming every player, their opponent, their table and the deadline. The
end is announced with the winner and the standings.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as _

from scopabot.render.i18n import Lang, tr
from scopabot.render.tournament import (
    MatchLine,
    StandingLine,
    bracket_text,
    format_name,
    round_text,
    standings_text,
    status_text,
    winner_text,
    your_round_text,
)
from scopabot.render.tournament_images import bracket_picture, standings_picture
from scopabot.service import Event, Pace, ServiceError
from scopabot.service.tournaments import (
    MatchInfo,
    RoundStarted,
    StandingRow,
    TournamentErrorCode,
    TournamentFinished,
    TournamentInfo,
    Tournaments,
)

from .actions import say
from .choices import PRESETS
from .context import table_link
from .messages import DmClosed

if TYPE_CHECKING:
    from .client import ScopaBot

log = logging.getLogger(__name__)

FORMATS = [
    Choice(name=_("Knock-out"), value="knockout"),
    Choice(name=_("Round robin"), value="round_robin"),
    Choice(name=_("Swiss system"), value="swiss"),
    Choice(name=_("Groups then knock-out"), value="groups"),
]
SEEDINGS = [
    Choice(name=_("Drawn"), value="draw"),
    Choice(name=_("By rating"), value="rating"),
]
QUIET = discord.AllowedMentions.none()


def who(people: tuple[int, ...] | None) -> str:
    if not people:
        return "—"
    return " & ".join(f"<@{p}>" for p in people)


Namer = Callable[[tuple[int, ...] | None], str]
DRAW_WAIT = 1.5  # seconds a command's answer waits for its picture (then it follows)
NEWS_WAIT = 20.0  # seconds an announcement waits for its picture (then goes without)


def standing_lines(rows: Sequence[StandingRow], name: Namer = who) -> list[StandingLine]:
    """The standings' lines, entries written by ``name``: mentions for the text, plain
    names for a picture (which cannot show a mention)."""
    return [
        StandingLine(
            r.rank,
            name(r.people),
            r.played,
            r.won,
            r.lost,
            r.points,
            r.tiebreak,
            r.scored,
            r.conceded,
            r.withdrawn,
            r.group,
        )
        for r in rows
    ]


def match_line(m: MatchInfo, table: str | None = None, name: Namer = who) -> MatchLine:
    return MatchLine(
        round=m.round,
        a=name(m.a),
        b=None if m.b is None else name(m.b),
        outcome=None if m.outcome is None else m.outcome.value,
        points=m.points,
        table=table,
        reason=m.reason,
        group=m.group,
        slot=m.slot,
    )


def seated_of(people: tuple[int, ...] | None, seated: set[int] | None) -> tuple[int, ...]:
    """Who of an entry sits at its table (``seated``; None: no table): a computer plays in
    the place of one who withdrew."""
    return tuple(p for p in people or () if seated is None or p in seated)


def knockout_stage(t: TournamentInfo, matches: Sequence[MatchInfo]) -> bool:
    """Whether the bracket is a knock-out's tree: a knock-out, or groups once their
    knock-out has begun."""
    if t.format.value == "knockout":
        return True
    return t.format.value == "groups" and any(m.group is None for m in matches)


def bracket_lines(matches: Sequence[MatchInfo], name: Namer = who) -> tuple[list[MatchLine], int]:
    """The bracket's matches (rests left out) and its first round: the knock-out's, after
    any groups."""
    first = min((m.round for m in matches if m.group is None), default=1)
    lines = [match_line(m, name=name) for m in matches if m.outcome != "rest"]
    return lines, first


class TournamentFront:
    """What the bot does of tournaments: commands' answers and the channel's news."""

    def __init__(self, bot: ScopaBot) -> None:
        self.bot = bot
        self.service = bot.service
        self.tournaments: Tournaments = bot.service.tournaments
        # One table placed at a time: a round told by another process and the placing of
        # a start-up (``on_ready``) may both find a table unplaced; the second sees it placed.
        self._placing = asyncio.Lock()

    async def which(
        self, interaction: discord.Interaction[ScopaBot], number: int | None, *, ended: bool = False
    ) -> TournamentInfo:
        """The tournament named, else the newest one of this server (still running, unless
        ``ended`` ones may be shown too)."""
        if number is not None:
            return await self.tournaments.info(number)
        found = await self.tournaments.in_guild(interaction.guild_id, active=not ended)
        if not found:
            raise ServiceError(TournamentErrorCode.UNKNOWN_TOURNAMENT, "none here")
        return found[0]

    # ------------------------------------------------------------------ pictures

    def plain(self, people: tuple[int, ...] | None) -> str:
        """An entry as a picture writes it: the names Discord last showed."""
        if not people:
            return "—"
        pictures = self.bot.delivery.pictures
        return " & ".join(pictures.name_of(p) or f"…{str(p)[-4:]}" for p in people)

    async def _files(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> list[discord.File]:
        """A picture drawn off the event loop (as the tables' are) and attached; none when it
        takes too long (a worker stuck), so a message is never held up for good."""
        try:
            picture = await asyncio.wait_for(
                self.bot.delivery.pictures.draw(fn, *args, urgent=True, **kwargs), NEWS_WAIT
            )
        except Exception:
            log.exception("a tournament picture was not drawn")
            return []
        return [
            discord.File(
                io.BytesIO(picture.data), picture.filename, description=picture.description
            )
        ]

    async def standings_files(
        self, t: TournamentInfo, rows: Sequence[StandingRow], lang: Lang, *, page: int = 1
    ) -> list[discord.File]:
        lines = standing_lines(rows, self.plain)
        return await self._files(standings_picture, t.name, lines, lang, page=page)

    async def bracket_files(
        self, t: TournamentInfo, matches: Sequence[MatchInfo], lang: Lang
    ) -> list[discord.File]:
        lines, first = bracket_lines(matches, self.plain)
        return await self._files(
            bracket_picture,
            t.name,
            lines,
            lang,
            first_round=first,
            knockout=knockout_stage(t, matches),
        )

    # ------------------------------------------------------------------ the channel's news

    async def on_event(self, event: Event) -> None:
        if isinstance(event, RoundStarted | TournamentFinished) and not self.bot.owns(
            event.tournament.guild_id
        ):
            return  # the process of its server shows it: told through the database
        if isinstance(event, RoundStarted):
            await self.round_started(event)
        elif isinstance(event, TournamentFinished):
            await self.finished(event)

    async def round_started(self, event: RoundStarted) -> None:
        t = event.tournament
        lang = await self.bot.langs.of_guild(t.guild_id)
        links: dict[int, str | None] = {}
        for m in event.matches:
            if m.table_id is not None and m.outcome is None:
                links[m.table_id] = await self.place(t, m.table_id, lang)
        if t.channel_id is not None:
            await self.announce_round(t, event, links, lang)
        await self.tell_players(t, event, links)

    async def announce_round(
        self, t: TournamentInfo, event: RoundStarted, links: dict[int, str | None], lang: Lang
    ) -> None:
        assert t.channel_id is not None
        lines = [
            match_line(m, None if m.table_id is None else links.get(m.table_id))
            for m in event.matches
        ]
        people = [p for m in event.matches for p in (*m.a, *(m.b or ()))]
        text = round_text(t.name, event.number, event.deadline, lines, lang)
        files: list[discord.File] = []
        if self.bot.messages.may_attach(t.channel_id):
            files = await self.round_files(t, event, lang)
        await self.bot.messages.send(t.channel_id, content=text, mention=people, files=files)

    async def tell_players(
        self, t: TournamentInfo, event: RoundStarted, links: dict[int, str | None]
    ) -> None:
        """Each player is told, in their own language, whom they meet, where and by when:
        by DM, or, when their DMs are closed, with a mention at their table (whose players
        see the same pairing in the channel anyway). Who withdrew is told nothing more."""
        standings = await self.tournaments.standings(t.id)
        gone = {p for row in standings if row.withdrawn for p in row.people}
        for m in event.matches:
            to_play = m.outcome is None
            if not to_play and m.outcome not in ("bye", "rest"):
                continue  # decided without a match (a walkover): the announcement says it
            link = None if m.table_id is None else links.get(m.table_id)
            seated: set[int] | None = None
            where = None
            if m.table_id is not None:
                table = await self.service.tables.get(m.table_id)
                seated = {h.user_id for h in table.seats.values() if h.user_id is not None}
                where = table.thread_id or table.channel_id
            a, b = seated_of(m.a, seated), seated_of(m.b, seated)
            for mine, theirs in ((a, b), (b, a)):
                for person in mine:
                    if person in gone:
                        continue
                    partner = tuple(p for p in mine if p != person)
                    lang = await self.bot.langs.of_user(person, guild_id=t.guild_id)
                    text = your_round_text(
                        t.name,
                        event.number,
                        event.deadline,
                        lang,
                        opponent=who(theirs) if theirs else None,
                        partner=who(partner) if partner else None,
                        table=link,
                        outcome=None if m.outcome is None else m.outcome.value,
                    )
                    await self.tell(person, text, lang, where=where)

    async def tell(self, person: int, text: str, lang: Lang, *, where: int | None) -> None:
        try:
            await self.bot.messages.send_dm(person, content=text)
            return
        except DmClosed:
            pass
        except discord.HTTPException:
            log.exception("a tournament's round was not told to a player by DM")
        if where is None:
            return  # a bye or a rest: the round's announcement in the channel names them
        note = tr("tour.you.dm_closed", lang, mention=f"<@{person}>", text=text)
        try:
            await self.bot.messages.send(where, content=note[:1990], mention=[person])
        except discord.HTTPException:
            log.exception("a tournament's round was not told to a player at their table")

    async def round_files(
        self, t: TournamentInfo, event: RoundStarted, lang: Lang
    ) -> list[discord.File]:
        """The picture a round's announcement carries: the bracket in a knock-out, the
        standings in a league once a round has been played (none before round 1)."""
        matches = await self.tournaments.matches(t.id)
        if knockout_stage(t, matches) and any(m.group is None for m in event.matches):
            return await self.bracket_files(t, matches, lang)
        if event.number > 1:
            return await self.standings_files(t, await self.tournaments.standings(t.id), lang)
        return []

    async def place(self, t: TournamentInfo, table_id: int, lang: Lang) -> str | None:
        """Put a match's table in its own thread of the tournament's channel; its link."""
        if t.channel_id is None:
            return None
        async with self._placing:
            return await self._place(t.channel_id, table_id, lang)

    async def _place(self, channel_id: int, table_id: int, lang: Lang) -> str | None:
        delivery, messages = self.bot.delivery, self.bot.messages
        table = await self.service.tables.get(table_id)
        if table.message_id is not None or table.game_id is None:
            return table_link(table)
        game_id = table.game_id
        delivery.placing.add(table_id)
        try:
            table = await self.service.tables.set_messages(table_id, channel_id=channel_id)
            view, files, _v = await delivery.table_view(
                table, game_id, lang, pictures=messages.may_attach(channel_id)
            )
            try:
                table = await messages.new_thread(table, view, files)
            except discord.Forbidden:
                log.info("table %s: no thread allowed; staying in the channel", table_id)
                table = await messages.edit_table(table, view, files)
        finally:
            delivery.placing.discard(table_id)
        await delivery.placed(table_id)
        delivery.table(table_id, game_id).request()
        for seat, holder in table.seats.items():
            if holder.user_id is not None:
                delivery.hand(table_id, game_id, seat).request()
        return table_link(table)

    async def finished(self, event: TournamentFinished) -> None:
        t = event.tournament
        if t.channel_id is None:
            return
        lang = await self.bot.langs.of_guild(t.guild_id)
        ending = winner_text(
            t.name, who(t.winner) if t.winner else None, lang, cancelled=event.cancelled
        )
        table, _pages = standings_text(t.name, standing_lines(event.standings), lang)
        files: list[discord.File] = []
        if self.bot.messages.may_attach(t.channel_id):
            files = await self.standings_files(t, event.standings, lang)
            matches = await self.tournaments.matches(t.id)
            if knockout_stage(t, matches):
                files += await self.bracket_files(t, matches, lang)
        await self.bot.messages.send(
            t.channel_id,
            content=f"{ending}\n{table}"[:1990],
            mention=list(t.winner or ()),
            files=files,
        )

    async def on_ready(self) -> None:
        """After a restart: the tables of a round opened while the bot was away (or before
        it could place them) are put in their threads now."""
        for t in await self.tournaments.in_play():
            lang = await self.bot.langs.of_guild(t.guild_id)
            for m in await self.tournaments.matches(t.id, round_number=t.round):
                if m.table_id is not None and m.outcome is None:
                    try:
                        await self.place(t, m.table_id, lang)
                    except discord.HTTPException:
                        log.exception("table %s of tournament %s not placed", m.table_id, t.id)

    # ------------------------------------------------------------------ answers

    async def reply(
        self,
        interaction: discord.Interaction[ScopaBot],
        text: str,
        *,
        public: bool = False,
        files: Sequence[discord.File] = (),
    ) -> None:
        """Answer without pinging anyone named (standings name everybody)."""
        if interaction.response.is_done():
            await interaction.followup.send(
                text, ephemeral=not public, allowed_mentions=QUIET, files=list(files)
            )
        else:
            await interaction.response.send_message(
                text, ephemeral=not public, allowed_mentions=QUIET, files=list(files)
            )

    async def reply_drawn(
        self,
        interaction: discord.Interaction[ScopaBot],
        text: str,
        drawing: Coroutine[Any, Any, list[discord.File]],
    ) -> None:
        """A public answer with its picture: together when the picture is drawn in time, else
        the text at once (Discord's 3 seconds) and the picture added to it when drawn."""
        task = asyncio.ensure_future(drawing)
        await asyncio.wait({task}, timeout=DRAW_WAIT)
        if task.done():
            await self.reply(interaction, text, public=True, files=task.result())
            return
        await self.reply(interaction, text, public=True)
        files = await task
        if files:
            try:
                await interaction.edit_original_response(attachments=files)
            except discord.HTTPException:
                log.exception("a tournament picture was not added to its answer")

    def summary(self, t: TournamentInfo, lang: Lang) -> str:
        return tr(
            "tour.info",
            lang,
            name=t.name,
            format=format_name(t.format.value, lang),
            status=status_text(t.status.value, t.round, lang),
            n=len(t.entries),
        )


def tournaments_line(entered: list[TournamentInfo], user: int, lang: Lang) -> str:
    """A player's tournaments for ``/scopa stats``: newest first, each with how it stands."""
    parts = []
    for t in entered[:10]:
        if t.winner is not None and user in t.winner:
            state = tr("tour.stats_won", lang)
        else:
            state = status_text(t.status.value, t.round, lang)
        parts.append(f"**{t.name}** ({state})")
    return tr("tour.stats", lang, list=" · ".join(parts))


def is_manager(interaction: discord.Interaction[ScopaBot]) -> bool:
    return interaction.guild_id is not None and interaction.permissions.manage_guild


def roles_of(interaction: discord.Interaction[ScopaBot]) -> list[int]:
    member = interaction.user
    return [r.id for r in getattr(member, "roles", [])]


tournament = app_commands.Group(
    name=_("tournament"),
    description=_("Tournaments: round robin, Swiss, knock-out, groups"),
    guild_only=True,
)
NUMBER = _("Which tournament (default: this server's newest)")


def setup(bot: ScopaBot) -> None:
    """The tournaments' news reach their channels (a round's tables placed, the end told)."""
    front = bot.tournament_front = TournamentFront(bot)
    bot.service.subscribe(front.on_event)
    bot.add_listener(front.on_ready, "on_ready")


@tournament.command(name=_("create"), description=_("Create a tournament (organisers)"))
@app_commands.rename(
    name=_("name"),
    format=_("format"),
    preset=_("preset"),
    round_hours=_("round_hours"),
    turn_hours=_("turn_hours"),
    rounds=_("rounds"),
    groups=_("groups"),
    qualifiers=_("qualifiers"),
    seeding=_("seeding"),
    target=_("target"),
    deals=_("deals"),
    computers=_("computers"),
)
@app_commands.describe(
    name=_("The tournament's name"),
    format=_("How entries meet"),
    preset=_("Which game"),
    round_hours=_("Hours a round lasts (default 72)"),
    turn_hours=_("Hours a turn lasts (default 24)"),
    rounds=_("Swiss: how many rounds"),
    groups=_("Groups then knock-out: how many groups"),
    qualifiers=_("Groups then knock-out: how many go through from each"),
    seeding=_("Seeds drawn or by rating"),
    target=_("Points to win a match (default 11)"),
    deals=_("Play a fixed number of deals instead of to a target"),
    computers=_("Computer players fill a Swiss bye and a withdrawn player's place"),
)
@app_commands.choices(format=FORMATS, preset=PRESETS, seeding=SEEDINGS)
async def create(
    interaction: discord.Interaction[ScopaBot],
    name: app_commands.Range[str, 1, 80],
    format: str = "knockout",
    preset: str = "scopa",
    round_hours: app_commands.Range[int, 1, 720] = 72,
    turn_hours: app_commands.Range[int, 1, 168] = 24,
    rounds: app_commands.Range[int, 1, 20] | None = None,
    groups: app_commands.Range[int, 1, 16] | None = None,
    qualifiers: app_commands.Range[int, 1, 8] = 2,
    seeding: str = "draw",
    target: app_commands.Range[int, 1, 101] | None = None,
    deals: app_commands.Range[int, 1, 20] | None = None,
    computers: bool = False,
) -> None:
    bot = interaction.client
    front = interaction.client.tournament_front
    options: dict[str, Any] = {}
    if target is not None:
        options["target"] = target
    if deals is not None:
        options["deals"] = deals
    made = await front.tournaments.create(
        by=interaction.user.id,
        name=name,
        format=format,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        manager=is_manager(interaction),
        roles=roles_of(interaction),
        preset=preset,
        options=options,
        pace=Pace.correspondence(turn_hours),
        round_hours=round_hours,
        rounds=rounds,
        groups=groups,
        qualifiers=qualifiers,
        seeding=seeding,
        computers=computers,
    )
    lang = await bot.langs.of_place(interaction)
    text = tr(
        "tour.created",
        lang,
        name=made.name,
        format=format_name(made.format.value, lang),
        id=made.id,
    )
    await front.reply(interaction, text, public=True)


@tournament.command(name=_("join"), description=_("Enter a tournament, alone or with a partner"))
@app_commands.rename(tournament=_("tournament"), partner=_("partner"))
@app_commands.describe(tournament=NUMBER, partner=_("Your partner (scopone: pairs)"))
async def join(
    interaction: discord.Interaction[ScopaBot],
    tournament: int | None = None,
    partner: discord.Member | None = None,
) -> None:
    bot = interaction.client
    front = interaction.client.tournament_front
    t = await front.which(interaction, tournament)
    t = await front.tournaments.join(
        t.id, user=interaction.user.id, partner=None if partner is None else partner.id
    )
    await bot.langs.of_interaction(interaction)  # their language, for their rounds' DMs
    lang = await bot.langs.of_place(interaction)
    me = (interaction.user.id,) if partner is None else (interaction.user.id, partner.id)
    text = tr("tour.joined", lang, who=who(me), name=t.name, n=len(t.entries))
    await front.reply(interaction, text, public=True)


@tournament.command(name=_("leave"), description=_("Leave a tournament before it starts"))
@app_commands.rename(tournament=_("tournament"))
@app_commands.describe(tournament=NUMBER)
async def leave(interaction: discord.Interaction[ScopaBot], tournament: int | None = None) -> None:
    bot = interaction.client
    front = interaction.client.tournament_front
    t = await front.which(interaction, tournament)
    t = await front.tournaments.leave(t.id, user=interaction.user.id)
    lang = await bot.langs.of_interaction(interaction)
    await front.reply(
        interaction, tr("tour.left", lang, who=who((interaction.user.id,)), name=t.name)
    )


@tournament.command(
    name=_("start"), description=_("Close registration and pair round 1 (organisers)")
)
@app_commands.rename(tournament=_("tournament"))
@app_commands.describe(tournament=NUMBER)
async def start(interaction: discord.Interaction[ScopaBot], tournament: int | None = None) -> None:
    bot = interaction.client
    front = interaction.client.tournament_front
    t = await front.which(interaction, tournament)
    if t.organiser != interaction.user.id and not is_manager(interaction):
        # Refused before the public "thinking…": the refusal stays the person's own.
        raise ServiceError(TournamentErrorCode.NOT_ORGANISER, "not the organiser")
    await interaction.response.defer(thinking=True)  # tables are opened: may take seconds
    t = await front.tournaments.start(t.id, by=interaction.user.id, manager=is_manager(interaction))
    lang = await bot.langs.of_place(interaction)
    await front.reply(
        interaction, tr("tour.started", lang, name=t.name, n=len(t.entries)), public=True
    )


@tournament.command(name=_("standings"), description=_("The standings of a tournament"))
@app_commands.rename(tournament=_("tournament"), page=_("page"))
@app_commands.describe(tournament=NUMBER, page=_("Which page (15 lines a page)"))
async def standings(
    interaction: discord.Interaction[ScopaBot],
    tournament: int | None = None,
    page: app_commands.Range[int, 1, 100] = 1,
) -> None:
    bot = interaction.client
    front = interaction.client.tournament_front
    t = await front.which(interaction, tournament, ended=True)
    rows = await front.tournaments.standings(t.id)
    lang = await bot.langs.of_place(interaction)
    text, _pages = standings_text(t.name, standing_lines(rows), lang, page=page)
    drawing = front.standings_files(t, rows, lang, page=page)
    await front.reply_drawn(interaction, f"{front.summary(t, lang)}\n{text}"[:1990], drawing)


@tournament.command(name=_("bracket"), description=_("The pairings and results, round by round"))
@app_commands.rename(tournament=_("tournament"))
@app_commands.describe(tournament=NUMBER)
async def bracket(
    interaction: discord.Interaction[ScopaBot], tournament: int | None = None
) -> None:
    bot = interaction.client
    front = interaction.client.tournament_front
    t = await front.which(interaction, tournament, ended=True)
    matches = await front.tournaments.matches(t.id)
    lang = await bot.langs.of_place(interaction)
    lines, first = bracket_lines(matches)
    text = bracket_text(t.name, lines, lang, first_round=first)
    await front.reply_drawn(interaction, text, front.bracket_files(t, matches, lang))


@tournament.command(name=_("withdraw"), description=_("Withdraw from a tournament under way"))
@app_commands.rename(tournament=_("tournament"))
@app_commands.describe(tournament=NUMBER)
async def withdraw(
    interaction: discord.Interaction[ScopaBot], tournament: int | None = None
) -> None:
    bot = interaction.client
    front = interaction.client.tournament_front
    t = await front.which(interaction, tournament)
    t = await front.tournaments.withdraw(t.id, user=interaction.user.id)
    lang = await bot.langs.of_place(interaction)
    text = tr("tour.withdrew", lang, who=who((interaction.user.id,)), name=t.name)
    await front.reply(interaction, text, public=True)


@tournament.command(
    name=_("abandon"),
    description=_("Decide a match of this round: the player named loses it (organisers)"),
)
@app_commands.rename(player=_("player"), both=_("both"), tournament=_("tournament"))
@app_commands.describe(
    player=_("The player whose side loses (e.g. who vanished)"),
    both=_("Both sides lose the match"),
    tournament=NUMBER,
)
async def abandon(
    interaction: discord.Interaction[ScopaBot],
    player: discord.Member,
    both: bool = False,
    tournament: int | None = None,
) -> None:
    bot = interaction.client
    front = interaction.client.tournament_front
    t = await front.which(interaction, tournament)
    decided = await front.tournaments.abandon_match(
        t.id,
        by=interaction.user.id,
        user=player.id,
        both=both,
        manager=is_manager(interaction),
    )
    lang = await bot.langs.of_place(interaction)
    mine = decided.a if player.id in decided.a else (decided.b or ())
    if both:
        result = tr("tour.abandoned_both", lang)
    else:
        result = tr("tour.abandoned_lost", lang, loser=who(mine))
    text = tr("tour.abandoned", lang, who=who((player.id,)), name=t.name, result=result)
    await front.reply(interaction, text, public=True)


@tournament.command(
    name=_("organisers"), description=_("Name the role that organises tournaments (managers)")
)
@app_commands.rename(role=_("role"))
@app_commands.describe(role=_("The role (none: managers only)"))
async def organisers(
    interaction: discord.Interaction[ScopaBot], role: discord.Role | None = None
) -> None:
    bot = interaction.client
    front = interaction.client.tournament_front
    lang = await bot.langs.of_interaction(interaction)
    assert interaction.guild_id is not None  # the group is guild_only
    await front.tournaments.set_organiser_role(
        interaction.guild_id, None if role is None else role.id, manager=is_manager(interaction)
    )
    key = "tour.role_cleared" if role is None else "tour.role_set"
    await front.reply(interaction, tr(key, lang, role=f"<@&{role.id}>" if role else ""))


@tournament.command(name=_("cancel"), description=_("Call a tournament off (organisers)"))
@app_commands.rename(tournament=_("tournament"))
@app_commands.describe(tournament=NUMBER)
async def cancel(interaction: discord.Interaction[ScopaBot], tournament: int | None = None) -> None:
    bot = interaction.client
    front = interaction.client.tournament_front
    t = await front.which(interaction, tournament)
    await front.tournaments.cancel(t.id, by=interaction.user.id, manager=is_manager(interaction))
    lang = await bot.langs.of_interaction(interaction)
    await say(interaction, tr("tour.cancelled", lang, name=t.name))


__all__ = ["TournamentFront", "setup", "tournament"]
