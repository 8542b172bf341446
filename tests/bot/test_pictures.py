"""The pictures on the bot's messages, through the real bot.py and the stand-in.

The table message carries the table's picture (and a finished deal's breakdown, the final
standings), each hand its ``hand.png``; every picture has alt text that says what it shows,
a hand's only to its owner. The privacy guard reads file names and descriptions; here each
secret card is registered under every name it has (Italian and English, any case), since the
alt text writes "fante di coppe" where a button says "Fante di coppe".
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from tests.standin import Actor, DiscordStandIn, Message
from tests.standin.limits import MAX_ATTACHMENTS, check_files

from .helpers import (
    CAPTURE_ID,
    FINISHED_DEAL,
    JOIN,
    MY_HAND,
    START,
    BotProcess,
    card_labels,
    hand_message,
    is_over,
    live_cards,
    next_turn,
    start_against_computer,
    table_caught_up,
    table_messages,
    thread_named,
)

CARD = re.compile(
    r"\b(asso|ace|fante|jack|knave|cavallo|knight|re|king|[2-7]) (?:di|of) "
    r"(denari|coppe|spade|bastoni|coins|cups|swords|clubs)\b",
    re.IGNORECASE,
)
VALUES = {"asso": 1, "ace": 1, "fante": 8, "jack": 8, "knave": 8}
VALUES |= {"cavallo": 9, "knight": 9, "re": 10, "king": 10}
SUITS = {"denari": "d", "coins": "d", "coppe": "c", "cups": "c"}
SUITS |= {"spade": "s", "swords": "s", "bastoni": "b", "clubs": "b"}
NAMES_OF_VALUE = {1: "asso|ace", 8: "fante|jack|knave", 9: "cavallo|knight", 10: "re|king"}
NAMES_OF_SUIT = {"d": "denari|coins", "c": "coppe|cups", "s": "spade|swords", "b": "bastoni|clubs"}
PICTURE_FILE = re.compile(r"^(table-\d+-\d+|deal-\d+-\d+|standings-\d+)\.png$")
MAX_FILE_BYTES = 10 * 1024 * 1024


def cards_in(text: str) -> list[str]:
    """Every card named in ``text``, in order, as engine codes ("7d", "10c")."""
    out = []
    for value, suit in CARD.findall(text):
        v = VALUES.get(value.lower(), 0) or int(value)
        out.append(f"{v}{SUITS[suit.lower()]}")
    return out


def any_name_of(code: str) -> re.Pattern[str]:
    """The card under any of its names, in either language and any case; not after the word
    "primiera" or a finished deal's title, where a finished deal's breakdown and last plays name
    its cards (see ``helpers.held``)."""
    value, suit = int(code[:-1]), code[-1]
    names = NAMES_OF_VALUE.get(value, str(value))
    card = rf"\b(?:{names}) (?:di|of) (?:{NAMES_OF_SUIT[suit]})\b"
    return re.compile(rf"^(?:(?!{FINISHED_DEAL})[\s\S])*?{card}", re.IGNORECASE)


def gallery_urls(message: Message) -> list[str]:
    urls = []

    def walk(components: list[Any]) -> None:
        for c in components:
            if c.get("type") == 12:
                urls.extend(item["media"]["url"] for item in c.get("items") or [])
            walk(c.get("components") or [])

    walk(message.components)
    return urls


def shown_pictures(message: Message) -> dict[str, dict[str, Any]]:
    """The message's attachments by file name, checked against what its components show:
    each shown once, none attached unseen, descriptions as in the gallery, within limits."""
    attachments = {a["filename"]: a for a in message.attachments}
    assert len(attachments) == len(message.attachments) <= MAX_ATTACHMENTS
    assert sorted(gallery_urls(message)) == sorted(f"attachment://{n}" for n in attachments)
    for a in attachments.values():
        assert 0 < a["size"] <= MAX_FILE_BYTES
        assert a.get("description"), f"{a['filename']} has no alt text"
    return attachments


def hand_picture_cards(message: Message) -> list[str]:
    """The cards a hand message's picture shows, by its alt text (numbered as the buttons)."""
    pictures = shown_pictures(message)
    assert list(pictures) == ["hand.png"], list(pictures)
    return cards_in(pictures["hand.png"]["description"])


async def picture_arrived(s: DiscordStandIn, hand: Message) -> None:
    """Wait for a hand's picture: the answer to a click shows the new hand at once, and its
    picture follows by an edit when it was not drawn in time (test_answers.py); a loaded
    machine draws late."""
    await s.wait_for(lambda: [a["filename"] for a in hand.attachments] == ["hand.png"], timeout=5)


def table_picture(message: Message) -> dict[str, Any]:
    pictures = shown_pictures(message)
    assert all(PICTURE_FILE.match(n) for n in pictures), list(pictures)
    tables = [a for n, a in pictures.items() if n.startswith("table-")]
    assert len(tables) == 1, list(pictures)
    return tables[0]


def on_table_in_text(message: Message) -> set[str]:
    line = next(line for line in message.text().splitlines() if "In tavola:" in line)
    return set(cards_in(line))


async def play_first(s: DiscordStandIn, actor: Actor, hand: Message) -> None:
    """Play the first live card (the first capture if asked), keeping the rest secret under
    every name the cards have."""
    button = live_cards(hand)[0]
    played = cards_in(str(button["label"]))[0]
    rest = [c for label in card_labels(hand) for c in cards_in(label) if c != played]
    s.privacy.set_secrets(actor.user, [any_name_of(c) for c in rest])
    result = await actor.click(hand, str(button["custom_id"]))
    assert not result.failed and result.message is not None
    asked = [b for b in result.message.buttons() if CAPTURE_ID.match(str(b.get("custom_id")))]
    if asked:
        assert not result.message.attachments  # the question shows no stale hand picture
        assert not (await actor.click(result.message, str(asked[0]["custom_id"]))).failed


async def test_the_table_and_each_hand_carry_their_pictures_through_a_match(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice, bob = s.user("alice"), s.user("bob")
    invitation = (await alice.slash("scopa new", deals=1)).message
    assert invitation is not None
    await bob.click(invitation, JOIN)
    await alice.click(invitation, START)
    thread = await s.wait_for(lambda: thread_named(s, "Scopa"), timeout=5)
    await s.wait_for(lambda: table_messages(s, thread), timeout=5)
    table = table_messages(s, thread)[0]
    seen_table_files: set[str] = set()
    seen_attachment_ids: set[str] = set()
    my_hand_checked = False
    while (turn := await next_turn(s, thread, [alice, bob])) is not None:
        actor, hand = turn
        other = bob if actor is alice else alice
        # The hand's picture names exactly the cards on its buttons, in their order.
        mine = [c for label in card_labels(hand) for c in cards_in(label)]
        await picture_arrived(s, hand)
        assert hand_picture_cards(hand) == mine
        other_hand = hand_message(s, other)
        if other_hand is not None and not is_over(table):
            await picture_arrived(s, other_hand)
            assert hand_picture_cards(other_hand) == [
                c for label in card_labels(other_hand) for c in cards_in(label)
            ]
        # The table's picture says the table's cards and none of a hand: the table's message
        # as it shows the game the hand was drawn at (its edit for the move before, or the
        # next deal after a tie, may still be on its way when the hand goes live).
        table = await table_caught_up(s, thread, hand)
        picture = table_picture(table)
        said = picture["description"]
        on_table = said.split(";")[0]
        assert set(cards_in(on_table)) == on_table_in_text(table), (said, table.text())
        assert not set(cards_in(said)) & set(mine), said
        seen_table_files.add(picture["filename"])
        seen_attachment_ids.update(a["id"] for a in table.attachments)
        if actor is alice and not my_hand_checked:
            # "My hand" on the table: an ephemeral hand with its own picture, for alice only.
            shown = await alice.click(table, MY_HAND)
            reply = shown.message
            assert reply is not None and reply.ephemeral
            assert hand_picture_cards(reply) == mine
            my_hand_checked = True
        await play_first(s, actor, hand)
    assert my_hand_checked
    # Replaced as the game went on, never accumulated: one upload per edit, new names.
    assert len(seen_table_files) > 10
    assert len(seen_attachment_ids) >= len(seen_table_files)
    final = table_messages(s, thread)[0]
    names = list(shown_pictures(final))
    assert [n.split("-")[0] for n in names] == ["standings", "deal"], names
    standings = final.attachments[0]["description"]
    assert "Classifica finale" in standings or "Vince" in standings or "vince" in standings

    # A finished hand shows no picture (nothing left to hold), once its last refresh, which
    # may come after the table's, has arrived.
    def settled() -> bool:
        return all(
            (m := hand_message(s, p)) is not None and not m.attachments for p in (alice, bob)
        )

    with contextlib.suppress(TimeoutError):
        await s.wait_for(settled, timeout=5)
    for person in (alice, bob):
        last = hand_message(s, person)
        assert last is not None and not last.attachments


async def test_a_deal_ends_with_its_breakdown_and_primiera_cards_beside_the_table(
    threaded: DiscordStandIn, bot_py: BotProcess
) -> None:
    s = threaded
    alice = s.user("alice")
    thread = await start_against_computer(s, alice, deals=2)
    await s.wait_for(lambda: table_messages(s, thread), timeout=5)
    table = table_messages(s, thread)[0]
    while (turn := await next_turn(s, thread, [alice])) is not None:
        shown_pictures(table)
        await play_first(s, alice, turn[1])
    # Through the second deal's first round (the computer may open it at once), the table
    # message showed the new table with the first deal's breakdown, primiera cards included.
    edits = [
        r.body
        for r in s.requests
        if r.method == "PATCH" and r.path.endswith(f"/messages/{table.id}")
    ]
    uploads = [body.get("attachments") or [] for body in edits if isinstance(body, dict)]
    between = [
        files
        for files in uploads
        if [f["filename"].split("-")[0] for f in files] == ["table", "deal"]
    ]
    assert between, "the first deal's breakdown is shown in the second deal's first round"
    said = between[0][1]["description"]
    assert said.startswith("Smazzata 1") and "carte della primiera" in said, said
    final = table_messages(s, thread)[0]
    assert [n.split("-")[0] for n in shown_pictures(final)] == ["standings", "deal"]


def test_the_stand_in_refuses_pictures_beyond_discords_limits() -> None:
    gallery = {"type": 12, "items": [{"media": {"url": "attachment://hand.png"}}]}
    body: dict[str, Any] = {
        "components": [{"type": 17, "components": [gallery]}],
        "attachments": [{"id": 0, "filename": "hand.png"}],
    }
    upload = {"filename": "hand.png", "size": 1000, "index": 0}
    assert check_files(body, [upload]) == []
    # A gallery naming a file the message does not have (dropped from an edit).
    missing = check_files({**body, "attachments": []}, [])
    assert missing and "names no attachment" in missing[0].message
    # Eleven files, or one over 10 MiB.
    many = [{"filename": f"{i}.png", "size": 1, "index": i} for i in range(11)]
    assert any("11 attachments" in p.message for p in check_files({}, many))
    big = {**upload, "size": MAX_FILE_BYTES + 1}
    assert any("the limit is" in p.message for p in check_files(body, [big]))
