"""Sentences people read: counts and plurals, durations, rules, ratings, the deal's breakdown
and refusals written from the service's data (review items 1, 4, 10, 13, 14)."""

from __future__ import annotations

import re

import pytest

from scopabot.engine import (
    DealScore,
    Game,
    IllegalMoveError,
    IllegalReason,
    Rules,
    RulesError,
    RulesProblem,
    Tiebreak,
)
from scopabot.render.boards import (
    BoardLine,
    StatsLine,
    leaderboard_screen,
    rating_points,
    sheet_screen,
    stats_screen,
)
from scopabot.render.hand import hand_screen
from scopabot.render.i18n import Lang, tr
from scopabot.render.invite import pace_text
from scopabot.render.refusals import refusal_text
from scopabot.render.rules import rules_lines
from scopabot.render.table import ROW_WIDTH, breakdown, rating_lines, score_line
from scopabot.render.words import word
from scopabot.service.moves import illegal

CODE_BLOCK = re.compile(r"```\n(.*?)\n```", re.S)


@pytest.mark.parametrize(
    ("target", "italian"),
    [
        (1, "Partita a 1 punto"),
        (8, "Partita agli 8 punti"),
        (11, "Partita agli 11 punti"),
        (21, "Partita ai 21 punti"),
        (31, "Partita ai 31 punti"),
        (81, "Partita agli 81 punti"),
    ],
)
def test_a_target_in_italian_takes_the_right_article(target: int, italian: str) -> None:
    assert rules_lines(Rules(target=target), Lang.IT)[1] == italian


def test_one_of_a_thing_is_singular() -> None:
    assert rules_lines(Rules(deals=1), Lang.IT)[1] == "Partita di 1 smazzata"
    assert rules_lines(Rules(deals=1), Lang.EN)[1] == "Match of 1 deal"
    assert rules_lines(Rules(target=1), Lang.EN)[1] == "Match to 1 point"
    board = leaderboard_screen(
        [BoardLine(1, "alice", 0.0, 1)], Lang.IT, title="t", next_cursor=None, first_page=True
    )
    assert "(1 partita)" in board.text() and "partite" not in board.text()
    stats = stats_screen(
        "alice", [StatsLine("Scopa", 0.0, 1, 1, 1, 1, 1, 1.5)], Lang.IT, board="questo server"
    ).text()
    assert "1 partita, 1 vinta · 1 scopa · 1 settebello · 1,50 punti" in stats, stats
    plural = stats_screen("a", [StatsLine("Scopa", 0.0, 1, 2, 0, 3, 2, 1.5)], Lang.EN, board="b")
    assert "2 matches, 0 won · 3 scope · 2 settebelli" in plural.text()


def test_the_score_line_says_to_the_target_with_its_article() -> None:
    game = Game.new(Rules(target=11), seed=1).view_for(0)
    assert "(agli 11)" in score_line(game, ["a", "b"], Lang.IT)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kind", "seconds", "english", "italian"),
    [
        ("live", 120, "Live: 2 min a turn", "Dal vivo: 2 min a turno"),
        ("live", 30, "Live: 30 s a turn", "Dal vivo: 30 s a turno"),
        ("live", 90, "Live: 1 min 30 s a turn", "Dal vivo: 1 min 30 s a turno"),
        ("correspondence", 5 * 3600, "5 hours a turn", "Per corrispondenza: 5 ore a turno"),
        ("correspondence", 3600, "1 hour a turn", "Per corrispondenza: 1 ora a turno"),
        ("correspondence", 5400, "1.5 hours a turn", "Per corrispondenza: 1,5 ore a turno"),
        ("correspondence", 86400, "1 day a turn", "Per corrispondenza: 1 giorno a turno"),
        ("correspondence", 7 * 86400, "7 days a turn", "Per corrispondenza: 7 giorni a turno"),
    ],
)
def test_a_turns_time_in_words(kind: str, seconds: int, english: str, italian: str) -> None:
    assert english in pace_text(kind, seconds, Lang.EN)
    assert pace_text(kind, seconds, Lang.IT) == italian


def test_the_knock_out_tie_break_is_up_to_three_spareggi() -> None:
    for lang in Lang:
        ko = rules_lines(Rules(tiebreak=Tiebreak.KO), lang)[-1]
        assert "spareggi" in ko and ("three" in ko or "tre" in ko), ko
    assert "last capture loses" in rules_lines(Rules(tiebreak=Tiebreak.KO), Lang.EN)[-1]
    for tiebreak in Tiebreak:
        fixed = rules_lines(Rules(deals=3, tiebreak=tiebreak), Lang.EN)[-1]
        assert fixed.startswith("A tie after the last deal") and "target" not in fixed
        italian = rules_lines(Rules(deals=3, tiebreak=tiebreak), Lang.IT)[-1]
        assert italian.startswith("Pari dopo l'ultima smazzata") and "traguardo" not in italian


def first_deal(rules: Rules) -> DealScore:
    game = Game.new(rules, seed=4)
    while not game.view_for(0).deal_scores:
        game.play(game.legal_moves()[0])
    return game.view_for(0).deal_scores[0]


@pytest.mark.parametrize("lang", list(Lang))
@pytest.mark.parametrize(
    "rules",
    [Rules(preset="scopone_scientifico", napola=True, re_bello=True), Rules(players=3)],
)
def test_the_breakdown_names_sides_readably_and_fits_a_phone(rules: Rules, lang: Lang) -> None:
    score = first_deal(rules)
    mentions = [f"<@{1577052184359469058 + side}>" for side in range(rules.sides)]
    if rules.players == 4:
        mentions = [f"{m} & {m}" for m in mentions]
    text = breakdown(score, mentions, rules, lang)
    block = CODE_BLOCK.search(text)
    assert block is not None
    assert "<@" not in block[1]  # Discord shows no mention inside a code block
    assert all(len(row) <= ROW_WIDTH for row in block[1].splitlines()), block[1]
    legend = text[block.end() :]
    assert all(m in legend for m in mentions) and "**A**" in legend
    named = breakdown(score, mentions, rules, lang, plain=["Gio", "Ann", "Bo"][: rules.sides])
    block = CODE_BLOCK.search(named)
    assert (
        block is not None
        and block[1].splitlines()[0].split() == ["Gio", "Ann", "Bo"][: rules.sides]
    )
    assert named.endswith("```")  # names in the columns: no legend needed


def test_ratings_read_like_chess_ratings_and_every_change_is_shown() -> None:
    assert rating_points(0.0) == 1000 and rating_points(-1.83) == 945
    lines = rating_lines({5: (None, 3.44), 6: (2.0, 1.0)}, {5: "alice", 6: "bob"}, Lang.IT)
    assert lines.splitlines() == [
        "alice: 1000 → **1103** (+103, prima partita in classifica)",
        "bob: 1060 → **1030** (-30)",
    ]
    board = leaderboard_screen(
        [BoardLine(1, "alice", -2.0, 3)], Lang.EN, title="t", next_cursor=None, first_page=True
    )
    assert "alice — 940 (3 matches)" in board.text()
    stats = stats_screen("a", [StatsLine("Scopa", -2.0, 4, 3, 1, 0, 0, None)], Lang.EN, board="b")
    assert "rating 940 (#4)" in stats.text()


def test_a_score_sheet_winner_reads_for_any_name() -> None:
    screen = sheet_screen(
        "",
        [("Noi", 11, None), ("Voi", 3, 8)],
        Lang.EN,
        target=11,
        winner=0,
        tied=False,
        closed=False,
    )
    assert "Winner: Noi!" in screen.text() and " win!" not in screen.text()


def test_a_turn_ping_reads_well_before_a_title() -> None:
    text = tr("turn.ping", Lang.IT, mention="@a", table="Scopa · tavolo 1")
    assert " al Scopa" not in text and "tocca a te" in text
    remind = tr("remind.dm", Lang.IT, table="Scopa · tavolo 1", when="tra 5 ore", link="")
    assert " al Scopa" not in remind


def refused(game: Game, move: str) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError) as info:
        game.play(move)
    return info.value


def test_every_illegal_reason_has_a_sentence_in_both_languages() -> None:
    game = Game.new(Rules(), seed=2)
    view = game.view_for(game.turn)
    params = {"card": str(view.hand[0]), "missing": ["1d"], "options": [["3c"], ["1s", "2b"]]}
    for reason in IllegalReason:
        for lang in Lang:
            text = refusal_text("illegal_move", {**params, "reason": reason.value}, lang)
            assert "illegal." not in text and "{" not in text, text
            if lang is Lang.IT:
                assert text.startswith("Mossa non consentita: "), text
                assert not re.search(r"\b(is|the|not|your|take)\b", text), text
    options = refusal_text("illegal_move", {**params, "reason": "wrong_sum"}, Lang.IT)
    # Cards mid-sentence with their article (issue #20): "il 3 di coppe oppure l'asso...".
    assert "il 3 di coppe oppure l'asso di spade e il 2 di bastoni" in options


def test_a_refused_move_reaches_an_italian_player_in_italian_with_cards_in_words() -> None:
    game = Game.new(Rules(), seed=2)
    elsewhere = game.view_for(1 - game.turn).hand[0]
    error = illegal(refused(game, str(elsewhere)))
    assert "message" not in error.params
    text = refusal_text(error.code.value, error.params, Lang.IT)
    assert text.startswith("Mossa non consentita: ") and "in your hand" not in text
    assert text == "Mossa non consentita: quella carta non è nella tua mano.", text
    assert error.params["card"] == str(elsewhere)  # the data is there; the words do not echo it


def test_every_rules_problem_has_a_sentence_in_both_languages() -> None:
    for problem in RulesProblem:
        for lang in Lang:
            params = {"problem": problem.value, "option": "tiebreak", "value": "coin"}
            text = refusal_text("bad_option", params, lang)
            assert "option." not in text and "{" not in text, text
    with pytest.raises(RulesError) as info:
        Rules(preset="scopone_scientifico", players=3)
    params = {"problem": info.value.code.value, "option": info.value.option, "value": "3"}
    assert refusal_text("bad_option", params, Lang.IT) == (
        "Opzione non possibile: lo scopone si gioca in 4, a coppie."
    )


def test_a_hand_after_the_match_waits_for_no_next_deal() -> None:
    over = hand_screen((), (), Lang.IT, title="t", your_turn=False, turn_name="x", finished=True)
    assert "prossima smazzata" not in over.text() and "La partita è finita." in over.text()
    between = hand_screen((), (), Lang.IT, title="t", your_turn=False, turn_name="x")
    assert "prossima smazzata" in between.text()


def test_the_pictures_say_the_target_with_its_article_too() -> None:
    assert [word("it", "to_target", n=n) for n in (1, 11, 21)] == [
        "a 1 punto",
        "agli 11 punti",
        "ai 21 punti",
    ]
    assert word("en", "to_target", n=1) == "to 1 point"
