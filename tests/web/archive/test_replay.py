"""The replay portal: positions built from the engine, the line as drawn, the deal's proof, the
record's download, shareable position links, and who may see a match (players only, over only)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amigos.engine import find_variant
from amigos.engine.codec import line_json
from amigos.engine.deal import commitment, deal_from_key
from amigos.engine.line_layout import layout
from amigos.engine.match import Match
from amigos.engine.record import Record, RecordHand, record_hand
from amigos.engine.simulate import seeded_key
from amigos.web.accounts.models import User
from amigos.web.archive.errors import ArchiveError
from amigos.web.archive.line_svg import UNIT, line_svg
from amigos.web.archive.models import ArchivedMatch
from amigos.web.archive.replay import LAYOUT_ASPECT, deal_check, line_cells, position, replay_match
from amigos.web.archive.services import archive_match
from tests.web.archive.records import record_obj
from tests.web.archive.test_statistics import suits_record
from tests.web.conftest import SignedIn

START = datetime(2026, 5, 2, 21, 0, tzinfo=UTC)


def keyed_record(variant_name: str = "amigos-100", seed: int = 3) -> dict[str, Any]:
    """A whole match as a live table records it: every hand dealt from a key, with the hand's id
    and the commitment to the key (an example match: the fixed seed only picks the keys and the
    random legal moves)."""
    variant = find_variant(variant_name, 4)
    rng = random.Random(seed)
    deal = deal_from_key(seeded_key(rng), variant)
    match = Match.new(variant, ("Ana", "Beto", "Caro", "Dani"), 0)
    hands: list[RecordHand] = []
    while not match.is_over:
        number = len(hands) + 1
        start = match.start_hand(deal)
        state, actions = start, []
        while not state.is_over:
            action = rng.choice(state.legal_actions())
            actions.append(action)
            state = state.apply(action, state.to_move)
        base = record_hand(start, actions)
        ident = f"table:1:match:1:hand:{number}"
        assert deal.key is not None
        hands.append(
            RecordHand(
                deal=base.deal,
                boneyard=base.boneyard,
                leader=base.leader,
                moves=base.moves,
                extra={"key": deal.key, "hand_id": ident, "commitment": commitment(deal.key, ident)},
            )
        )
        match = match.finish_hand(state)
        deal = deal_from_key(seeded_key(rng), variant)
    return Record(variant=variant.name, players=match.players, hands=tuple(hands)).to_obj()


# -- pure: positions, the line, the deal ---------------------------------------------------------


def test_a_hand_worked_position_of_the_suits_match() -> None:
    replayed = replay_match(suits_record())
    dealt = position(replayed, 1, 0)
    assert dealt.last_move is None and dealt.line.row == ()
    assert dealt.seats[0].tiles == ("6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0")
    assert dealt.seats[0].to_move
    # Moves 1-6: Ana leads 6-6, three passes, Ana 6-5, Beto 5-5 on the five.
    sixth = position(replayed, 1, 6)
    assert sixth.last_move == "5-5" and sixth.last_seat == 1 and sixth.seats[1].last
    assert [(c.first, c.second) for c in sixth.line.row] == [(5, 5), (5, 6), (6, 6)]
    assert sixth.ends == (5, 6)
    assert sixth.seats[0].tiles == ("6-4", "6-3", "6-2", "6-1", "6-0")
    assert "5-5" not in sixth.seats[1].tiles and len(sixth.seats[1].tiles) == 6
    assert sixth.seats[2].to_move
    end = position(replayed, 1, 29)
    assert end.over and end.end == "domino" and end.winner == 0 and end.points == 14
    assert end.seats[0].tiles == () and end.seats[3].tiles == ("2-0", "1-0", "0-0")


def test_positions_outside_the_match_are_refused() -> None:
    replayed = replay_match(suits_record())
    for hand, move in ((0, 0), (10, 0), (1, 30), (1, -1)):
        with pytest.raises(ArchiveError) as refused:
            position(replayed, hand, move)
        assert refused.value.code == "position-unknown"


@settings(max_examples=12, deadline=None)
@given(st.data())
def test_the_drawn_line_reads_as_the_engines_line(data: st.DataObject) -> None:
    variant = data.draw(st.sampled_from(["amigos-100", "cuban-2v2", "draw-100", "all-fives-100"]))
    record = record_obj(variant, seed=data.draw(st.randoms(use_true_random=False)), hands=2)
    replayed = replay_match(record)
    hand = data.draw(st.integers(1, replayed.hand_count))
    move = data.draw(st.integers(0, replayed.moves_in(hand)))
    line = replayed.state(hand, move).line
    cells = line_cells(line)
    text = "".join(f"[{c.first}|{c.second}]" for c in cells.row)
    assert str(line).startswith(text if cells.row else "(empty)")
    # Neighbouring halves touch: each tile's right half is the next tile's left half.
    for left, right in zip(cells.row, cells.row[1:], strict=False):
        assert left.second == right.first
    svg = str(line_svg(cells, title="Line", empty="Empty", up="Up", down="Down"))
    assert svg.count('class="tile"') == len(cells.row) + len(cells.up) + len(cells.down)
    if cells.row:
        # The replay draws the shared layout (the live table's): each tile where it says, the
        # view box its box, the last tile outlined.
        laid = layout(line_json(line), LAYOUT_ASPECT)
        for tile in laid["tiles"]:
            assert f'x="{tile["x"] * UNIT:.1f}" y="{tile["y"] * UNIT:.1f}"' in svg
        assert svg.count('class="last-mark"') == 1
        assert 'viewBox="{:.1f} {:.1f} {:.1f} {:.1f}"'.format(*(v * UNIT for v in laid["box"])) in svg


def test_the_svg_escapes_its_words() -> None:
    cells = line_cells(replay_match(suits_record()).state(1, 6).line)
    svg = str(line_svg(cells, title="<script>", empty="", up="", down=""))
    assert "<script>" not in svg and "&lt;script&gt;" in svg


def test_a_keyed_deal_is_verified_and_a_forged_one_is_not() -> None:
    record = keyed_record()
    good = deal_check(replay_match(record), 1)
    assert good.available and good.commitment_ok and good.deal_ok and good.verified
    # The engine itself refuses a record whose key does not match its commitment or its deal, so a
    # forged record never reaches a replay at all.
    forged = json.loads(json.dumps(record))
    forged["hands"][0]["commitment"] = "0" * 64
    with pytest.raises(ArchiveError, match="commitment"):
        replay_match(forged)
    other_key = json.loads(json.dumps(record))
    other_key["hands"][0]["key"] = record["hands"][1]["key"]
    with pytest.raises(ArchiveError):
        replay_match(other_key)
    plain = deal_check(replay_match(suits_record()), 1)
    assert not plain.available and not plain.verified


# -- the pages -----------------------------------------------------------------------------------


def archived(
    players: list[User], record: dict[str, Any] | None = None, source: str = "table:9:match:1"
) -> ArchivedMatch:
    archive_match(
        source=source,
        record=record if record is not None else suits_record(),
        seat_user_ids=[p.pk for p in players],
        table_name="Mesa <i>Malecón</i>",
        started_at=START,
        ended_at=START + timedelta(minutes=30),
    )
    return ArchivedMatch.objects.get(source=source)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def table(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> tuple[SignedIn, ArchivedMatch]:
    beto = sign_in("Beto")
    match = archived([make_player("Ana"), beto.user, make_player("Caro"), make_player("Dani")])
    return beto, match


@pytest.mark.django_db
def test_a_position_link_shows_that_position_with_every_hand(table: tuple[SignedIn, ArchivedMatch]) -> None:
    beto, match = table
    response = beto.client.get(f"/stats/replay/{match.pk}/1/6/")
    assert response.status_code == 200
    text = text_of(response.content.decode())
    assert "move 6 of 29" in text or "jugada 6 de 29" in text
    html = response.content.decode()
    # Every seat's tiles are shown: Ana's remaining sixes, Caro's and Dani's hidden tiles too.
    for tile in ("6-4", "6-0", "4-3", "3-1", "0-0", "2-1"):
        assert f'<span class="chip">{tile}</span>' in html
    assert "<i>Malecón</i>" not in html  # the table's name is escaped
    assert f'href="/stats/replay/{match.pk}/1/7/"' in html and f'href="/stats/replay/{match.pk}/1/5/"' in html
    assert f"/stats/replay/{match.pk}/1/0/" in html  # the hand's start
    for hand in range(1, 10):  # the score sheet, every hand
        assert f'href="/stats/replay/{match.pk}/{hand}/0/"' in html


@pytest.mark.django_db
def test_the_first_and_last_positions_have_no_step_beyond(table: tuple[SignedIn, ArchivedMatch]) -> None:
    beto, match = table
    first = beto.client.get(f"/stats/replay/{match.pk}/1/0/").content.decode()
    assert 'data-step="back"' not in first and 'data-step="forward"' in first
    last = beto.client.get(f"/stats/replay/{match.pk}/1/29/").content.decode()
    assert 'data-step="forward"' not in last and 'data-step="back"' in last
    assert beto.client.get(f"/stats/replay/{match.pk}/1/30/").status_code == 404
    assert beto.client.get(f"/stats/replay/{match.pk}/10/0/").status_code == 404
    assert beto.client.get(f"/stats/replay/{match.pk}/").status_code == 302


@pytest.mark.django_db
def test_only_the_players_see_a_match(
    table: tuple[SignedIn, ArchivedMatch], sign_in: Callable[..., SignedIn], client: Any
) -> None:
    _beto, match = table
    stranger = sign_in("Eva")
    for url in (
        f"/stats/replay/{match.pk}/1/0/",
        f"/stats/replay/{match.pk}/record.json",
        f"/stats/replay/{match.pk}/1/verify/",
        f"/stats/replay/{match.pk}/1/try/?moves=6-6&at=1",
    ):
        assert stranger.client.get(url).status_code == 404
        assert client.get(url).status_code == 302  # anonymous: to the sign-in page
    assert stranger.client.post(f"/stats/replay/{match.pk}/1/5/values/").status_code == 404
    assert str(match.pk) not in text_of(stranger.client.get("/stats/replay/").content.decode()).split("#")


@pytest.mark.django_db
def test_a_match_still_being_played_is_never_shown(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    beto = sign_in("Beto")
    record = suits_record()
    record["hands"] = record["hands"][:2]
    record["hands"][1]["moves"] = record["hands"][1]["moves"][:5]
    match = archived([make_player("Ana"), beto.user, make_player("Caro"), make_player("Dani")], record)
    assert not match.complete
    for url in (
        f"/stats/replay/{match.pk}/1/0/",
        f"/stats/replay/{match.pk}/2/3/",
        f"/stats/replay/{match.pk}/record.json",
        f"/stats/replay/{match.pk}/2/verify/",
        f"/stats/replay/{match.pk}/1/try/?moves=6-6&at=1",
    ):
        assert beto.client.get(url).status_code == 404, url
    assert beto.client.post(f"/stats/replay/{match.pk}/2/3/values/").status_code == 404
    assert f"/stats/replay/{match.pk}/" not in beto.client.get("/stats/replay/").content.decode()


@pytest.mark.django_db
def test_the_list_has_every_finished_match_and_links_to_it(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    beto = sign_in("Beto")
    others = [make_player("Ana"), make_player("Caro"), make_player("Dani")]
    ids = [
        archived([others[0], beto.user, others[1], others[2]], record_obj("amigos-100", seed), f"t:{seed}").pk
        for seed in range(1, 4)
    ]
    html = beto.client.get("/stats/replay/").content.decode()
    for pk in ids:
        assert f'href="/stats/replay/{pk}/1/0/"' in html


@pytest.mark.django_db
def test_the_record_downloads_as_json(table: tuple[SignedIn, ArchivedMatch]) -> None:
    beto, match = table
    response = beto.client.get(f"/stats/replay/{match.pk}/record.json")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert "attachment" in response["Content-Disposition"]
    assert json.loads(response.content) == suits_record()


@pytest.mark.django_db
def test_the_verify_page_checks_the_deal(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    beto = sign_in("Beto")
    record = keyed_record()
    match = archived([make_player("Ana"), beto.user, make_player("Caro"), make_player("Dani")], record)
    page = beto.client.get(f"/stats/replay/{match.pk}/2/0/").content.decode()
    assert record["hands"][1]["commitment"] in page and record["hands"][1]["key"] in page
    assert f'href="/stats/replay/{match.pk}/2/verify/"' in page
    verify = beto.client.get(f"/stats/replay/{match.pk}/2/verify/").content.decode()
    assert verify.count("✔") == 2 and "✘" not in verify


@pytest.mark.django_db
def test_the_replay_reads_in_spanish_and_in_english(table: tuple[SignedIn, ArchivedMatch]) -> None:
    from django.conf import settings

    beto, match = table
    spanish = text_of(beto.client.get(f"/stats/replay/{match.pk}/1/6/").content.decode())
    assert "Mano 1 · jugada 6 de 29" in spanish and "Beto jugó 5-5." in spanish
    assert "Hoja de anotación" in spanish and "Academia" in spanish
    beto.client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = text_of(beto.client.get(f"/stats/replay/{match.pk}/1/6/").content.decode())
    assert "Hand 1 · move 6 of 29" in english and "Beto played 5-5." in english
    assert "Score sheet" in english and "Academy" in english


@pytest.mark.django_db
def test_the_replay_shows_and_verifies_a_voided_deal(
    sign_in: Callable[..., SignedIn], make_player: Callable[..., User]
) -> None:
    """Cuban: a deal voided because Ana was dealt five doubles is shown with its key beside the
    hand dealt instead, and the verify page checks it too (docs/rules.md)."""
    from tests.web.tables.test_reshuffle_game import reshuffled_match

    beto = sign_in("Beto")
    record = reshuffled_match()
    match = archived([make_player("Ana"), beto.user, make_player("Caro"), make_player("Dani")], record)
    (voided,) = record["hands"][0]["voided"]
    page = text_of(beto.client.get(f"/stats/replay/{match.pk}/1/0/").content.decode())
    assert voided["key"] in page and "Repartos anulados" in page
    assert "A Ana le tocaron 5 dobles y pidió otro reparto." in page
    assert "anulados" not in text_of(beto.client.get(f"/stats/replay/{match.pk}/2/0/").content.decode())
    verify = beto.client.get(f"/stats/replay/{match.pk}/1/verify/").content.decode()
    assert voided["key"] in verify and voided["commitment"] in verify
    assert verify.count("✔") == 4 and "✘" not in verify
    check = deal_check(replay_match(record), 1)
    assert [(v.seat, v.player, v.doubles, v.verified) for v in check.voided] == [(0, "Ana", 5, True)]
