"""Property-based fuzzing of every HTTP input of the tables' API and pages and the lessons
(issue 26): path parameters, query strings and bodies (JSON, forms, bytes), from an
anonymous visitor and a signed-in stranger. Never a 500, every /api/ answer JSON, nothing
logged as an error, and no table changes (version, status, seats).

Bounded and seeded: a fixed number of examples, derandomized, no example database."""

from __future__ import annotations

import json
import logging
import sys
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.models import Seat, Table
from game.tables import lifecycle
from tests.tables.live import owner
from tutorials.lessons import LESSONS

pytestmark = pytest.mark.django_db

# Hypothesis raises the recursion limit while an example runs; a server runs with Python's
# own, at which a body of "[" * 5000 was a RecursionError. The requests run at that one.
SERVER_RECURSION_LIMIT = sys.getrecursionlimit()

FUZZ = settings(
    max_examples=400, derandomize=True, database=None, deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                           HealthCheck.data_too_large],
)

PAGES = [
    "/{lang}/play/", "/{lang}/play/now/", "/{lang}/play/{id}/", "/{lang}/play/{id}/seats/",
    "/{lang}/play/{id}/sit/", "/{lang}/play/{id}/leave/", "/{lang}/play/{id}/start/",
    "/{lang}/play/{id}/replay/{n}/", "/{lang}/play/{id}/replay/{n}/again/",
    "/{lang}/play/{id}/summary/{n}/", "/{lang}/play/{id}/board/",
    "/{lang}/play/{id}/replay/{n}/mat/", "/{lang}/play/new/", "/{lang}/play/new/backgammon/",
    "/{lang}/learn/", "/{lang}/learn/{slug}/", "/{lang}/learn/{slug}/board/",
    "/{lang}/learn/{slug}/restart/", "/{lang}/learn/practice/{slug}/",
]
API = [
    "/api/tables", "/api/tables", "/api/tables/{id}", "/api/tables/{id}/seats/{n}",
    "/api/tables/{id}/seed",
    "/api/tables/{id}/leave", "/api/tables/{id}/start", "/api/tables/{id}/record",
    "/api/{slug}",
]
FIELDS = ["invite", "hand", "version", "steps", "mine", "game", "step", "answer", "seat",
          "with", "private", "bots", "move_seconds", "spectators", "variant", "options",
          "length", "target", "client_seed", "format", "lang"]

# Text a URL can carry (no lone surrogates: they have no UTF-8).
plain = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=30)
digits = st.text(alphabet="0123456789²³¹٣١２", min_size=1, max_size=12)
numbers = st.one_of(st.integers(min_value=-3, max_value=12), st.integers()).map(str)
values = st.one_of(plain, digits, numbers, st.sampled_from(["", "0", "1", "bots", "form",
                                                            "courtpiece", "backgammon"]))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.one_of(st.sampled_from(FIELDS), st.text(max_size=8)), inner, max_size=5),
    max_leaves=15,
)
bodies = st.one_of(
    json_values.map(json.dumps),
    st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=6).map(json.dumps),
    st.integers(min_value=1, max_value=6000).map(lambda n: "[" * n),
    st.integers(min_value=1, max_value=2000).map(
        lambda n: '{"options": ' + "[" * n + "]" * n + "}"
    ),
    st.binary(max_size=200), plain,
)
forms = st.dictionaries(st.one_of(st.sampled_from(FIELDS), plain),
                        st.one_of(values, st.lists(values, max_size=3)), max_size=6)
queries = st.dictionaries(st.one_of(st.sampled_from(FIELDS), plain), values, max_size=4)


def _state() -> list[tuple[Any, ...]]:
    tables = list(Table.objects.order_by("pk").values_list("pk", "version", "status"))
    seats = list(Seat.objects.order_by("table_id", "number").values_list(
        "table_id", "number", "user_id", "guest_key", "bot"))
    return [*tables, *seats]


@pytest.fixture
def world() -> dict[str, Any]:
    User = get_user_model()
    host = User.objects.create_user("fuzzhost", password="pw")
    stranger = User.objects.create_user("fuzzstranger", password="pw")
    tables = [
        lifecycle.create_table(owner=owner(host), game="courtpiece", bots=[1, 2, 3]),
        lifecycle.create_table(owner=owner(host), game="courtpiece", private=True),
        lifecycle.create_table(owner=owner(host), game="backgammon", bots=[1]),
        lifecycle.create_table(owner=owner(host), game="courtpiece", private=True,
                               move_seconds=None, spectators=False),
    ]
    signed_in = Client(raise_request_exception=False)
    signed_in.force_login(stranger)
    return {"ids": [t.pk for t in tables], "before": _state(),
            "clients": [Client(raise_request_exception=False), signed_in]}


def _path(template: str, draw: Any, ids: list[int]) -> str:
    params = {
        "lang": draw(st.one_of(st.sampled_from(["en", "ur", "hi"]), plain)),
        "id": draw(st.one_of(st.sampled_from(ids), numbers, plain)),
        "n": draw(st.one_of(st.sampled_from(["0", "1", "2"]), numbers, plain)),
        "slug": draw(st.one_of(st.sampled_from([lesson.slug for lesson in LESSONS]), plain)),
    }
    return template.format(**{k: quote(str(v), safe="") for k, v in params.items()})


def _check(world: dict[str, Any], caplog: pytest.LogCaptureFixture, templates: list[str]) -> None:
    @FUZZ
    @given(data=st.data())
    def check(data: Any) -> None:
        client = world["clients"][data.draw(st.integers(min_value=0, max_value=1))]
        path = _path(data.draw(st.sampled_from(templates)), data.draw, world["ids"])
        query = data.draw(queries)
        if query:
            path += "?" + urlencode(query)
        method = data.draw(st.sampled_from(["GET", "POST", "POST", "PUT", "HEAD"]))
        as_json = method == "POST" and data.draw(st.booleans())
        body = data.draw(bodies if as_json else forms) if method == "POST" else None
        raised = sys.getrecursionlimit()
        sys.setrecursionlimit(SERVER_RECURSION_LIMIT)
        try:
            if as_json:
                answer = client.post(path, data=body, content_type="application/json")
            elif method == "POST":
                answer = client.post(path, body)
            else:
                answer = client.generic(method, path)
        finally:
            sys.setrecursionlimit(raised)
        assert answer.status_code < 500, (method, path, answer.content[:300])
        if path.startswith("/api/"):
            assert answer["Content-Type"] == "application/json", (method, path)
        existing = [row for row in _state() if row[0] in world["ids"]]
        assert existing == [row for row in world["before"] if row[0] in world["ids"]]

    with caplog.at_level(logging.WARNING):
        check()
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_fuzzed_api_requests_are_never_a_500_and_change_nothing(
    world: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    _check(world, caplog, API)


def test_fuzzed_page_requests_are_never_a_500_and_change_nothing(
    world: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    _check(world, caplog, PAGES)
