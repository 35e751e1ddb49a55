"""Every /api/ answer is JSON, errors included, in production (DEBUG off) too: a body too
deep or too large is a 400, a path no view has a 404, a fault of ours a 500 (issue 26)."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from django.test import Client, override_settings

from game.models import Seat, Table
from game.tables import lifecycle
from tests.tables.live import owner

pytestmark = pytest.mark.django_db

FAULTS = "tests.tables.api_fault_urls"


def _json(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content[:200]
    assert response["Content-Type"] == "application/json", response.content[:200]
    body = json.loads(response.content)
    assert isinstance(body["error"], str) and body["error"] and body["code"]
    return dict(body)


@override_settings(DEBUG=False)
@pytest.mark.parametrize(
    "body",
    ["[" * 5000, "{" * 5000, '{"options": ' + "[" * 1000 + "]" * 1000 + "}", "[" * 20,
     '{"game": NaN}', b"\xff\xfe", '"\\ud800"', "1" * 5000],
)
def test_a_hostile_body_is_a_400_in_json_and_creates_nothing(body: Any) -> None:
    client = Client(raise_request_exception=False)
    answer = client.post("/api/tables", data=body, content_type="application/json")
    assert _json(answer, 400)["code"] == "bad_request"
    assert not Table.objects.exists()


@override_settings(DEBUG=False)
def test_a_body_too_large_is_refused_in_json() -> None:
    client = Client(raise_request_exception=False)
    big = json.dumps({"game": "courtpiece", "pad": "x" * 100_000})
    _json(client.post("/api/tables", data=big, content_type="application/json"), 400)
    huge = json.dumps({"pad": "x" * 3_000_000})  # past DATA_UPLOAD_MAX_MEMORY_SIZE
    _json(client.post("/api/tables", data=huge, content_type="application/json"), 400)
    assert not Table.objects.exists()


@override_settings(DEBUG=False)
@pytest.mark.parametrize(
    "url", ["/api/nope", "/api/tables/abc", "/api/tables/1/nope", "/api/tables/-1",
            "/api/tables/" + "9" * 40, "/api/"],
)
def test_a_path_no_view_has_is_a_404_in_json(url: str) -> None:
    _json(Client(raise_request_exception=False).get(url), 404)


@override_settings(DEBUG=False)
@pytest.mark.parametrize("hand", ["²", "١", "１", "-1", "1.0", "", "9" * 30, "0x1"])
def test_a_record_with_a_hand_of_other_digits_is_a_400(hand: str, users: list[Any]) -> None:
    client = Client(raise_request_exception=False)
    created = client.post("/api/tables", data={"bots": [1, 2, 3]}, content_type="application/json")
    table_id = created.json()["id"]
    answer = client.get(f"/api/tables/{table_id}/record", {"hand": hand})
    assert answer.status_code in (400, 404)
    _json(answer, answer.status_code)


@override_settings(DEBUG=False, ROOT_URLCONF=FAULTS)
@pytest.mark.parametrize("url", ["/api/broken-view", "/api/broken-raw"])
def test_a_fault_of_ours_is_a_500_in_json(url: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR):
        answer = Client(raise_request_exception=False).get(url)
    assert _json(answer, 500)["code"] == "server_error"
    assert "a fault" not in answer.content.decode()  # nothing of the fault is shown
    assert any(r.levelno >= logging.ERROR for r in caplog.records)  # but it is logged


@override_settings(DEBUG=False, ROOT_URLCONF=FAULTS)
def test_pages_keep_their_html_errors() -> None:
    client = Client(raise_request_exception=False)
    assert client.get("/en/no-such-page/")["Content-Type"].startswith("text/html")


@override_settings(DEBUG=False)
def test_a_request_for_another_host_is_a_400_in_json() -> None:
    answer = Client(raise_request_exception=False).get("/api/tables", HTTP_HOST="evil.example")
    _json(answer, 400)


@pytest.mark.parametrize("seat", ["１", "²", "١", " 1", "1.0", "9" * 30])
def test_a_seat_from_a_form_is_ascii_digits(seat: str, users: list[Any]) -> None:
    """int() reads "１" and "١" as 1: the form's seat is ASCII digits or no seat at all."""
    table = lifecycle.create_table(owner=owner(users[0]), game="courtpiece", move_seconds=60)
    client = Client(raise_request_exception=False)
    client.force_login(users[1])
    answer = client.post(f"/en/play/{table.pk}/sit/", {"seat": seat})
    assert answer.status_code == 400
    assert not Seat.objects.filter(table=table, user=users[1]).exists()
