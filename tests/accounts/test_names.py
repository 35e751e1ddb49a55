"""Display names a player reads as they are written (issue #26): no control, invisible or
direction-changing character, and never another player's username, in any case; refused
with a clear message in each language, through the profile form and the admin alike, and
nothing is saved."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import Profile
from accounts.names import hidden_characters
from tests.people import PASSWORD

pytestmark = pytest.mark.django_db

CONTROL = {
    "en": "A display name cannot hold invisible or direction-changing characters.",
    "ur": "ظاہری نام میں ایسے حروف نہیں ہو سکتے جو نظر نہ آئیں یا تحریر کا رخ بدل دیں۔",
    "hi": "दिखने वाले नाम में ऐसे अक्षर नहीं हो सकते जो दिखाई न दें या लिखावट की दिशा बदल दें।",
}
TAKEN = {
    "en": "That is another player&#x27;s username. Choose a name of your own.",
    "ur": "یہ کسی اور کھلاڑی کا یوزر نیم ہے۔ اپنا کوئی نام چنیں۔",
    "hi": "यह किसी और खिलाड़ी का यूज़रनेम है। अपना कोई नाम चुनें।",
}


@pytest.fixture()
def ali(make_user: Any) -> Client:
    make_user("ali")
    make_user("Bob_Khan")
    client = Client()
    assert client.login(username="ali", password=PASSWORD)
    return client


def _post(client: Client, lang: str, name: str) -> str:
    response = client.post(
        f"/{lang}/accounts/profile/", {"display_name": name, "language": lang}
    )
    assert response.status_code == 200, "refused: the form is shown again"
    return response.content.decode()


def _saved() -> tuple[str, str]:
    profile = Profile.objects.get(user__username="ali")
    return profile.display_name, profile.language


@pytest.mark.parametrize(
    "name",
    [
        "Ali\u202egnp.exe",  # RIGHT-TO-LEFT OVERRIDE
        "\u202dAli",  # LEFT-TO-RIGHT OVERRIDE
        "Ali\u2067x\u2069",  # RIGHT-TO-LEFT ISOLATE ... POP DIRECTIONAL ISOLATE
        "Ali\u200f",  # RIGHT-TO-LEFT MARK
        "علی\u061c",  # ARABIC LETTER MARK
        "Al\u200bi",  # ZERO WIDTH SPACE
        "Ali\x07",  # a control (Cc)
        "Ali\x1b[31m",  # an escape sequence
        "\ufeffAli",  # the byte-order mark
        "\u200cAli",  # a joiner with no letter before it
        "Ali\ue000",  # private use
    ],
)
@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
def test_hidden_and_direction_changing_characters_are_refused(
    ali: Client, name: str, lang: str
) -> None:
    html = _post(ali, lang, name)
    assert CONTROL[lang] in html
    assert _saved() == ("", "en")


@pytest.mark.parametrize("lang", ["en", "ur", "hi"])
@pytest.mark.parametrize("name", ["Bob_Khan", "bob_khan", "BOB_KHAN", "  bob_khan "])
def test_another_players_username_is_refused_in_any_case(
    ali: Client, name: str, lang: str
) -> None:
    html = _post(ali, lang, name)
    assert TAKEN[lang] in html
    assert _saved() == ("", "en")


def test_a_username_behind_a_joiner_or_a_wide_form_is_still_that_username(ali: Client) -> None:
    for name in ("Bo\u200db_Khan", "Ｂｏｂ_Ｋｈａｎ"):  # a joiner between letters; fullwidth
        assert TAKEN["en"] in _post(ali, "en", name)
    assert _saved() == ("", "en")


@pytest.mark.parametrize(
    "name",
    [
        "ALI",  # one's own username, in another case: no one else's
        "Ali Baba",
        "علی رضا",
        "\u0646\u06cc\u200c\u0645",  # Urdu with a zero-width non-joiner between letters
        "क्\u200dष",  # Devanagari with a zero-width joiner making a half form
        "Zainab ✿",
        "Bob Khan",  # not the username bob_khan
    ],
)
def test_ordinary_names_in_every_script_are_kept(ali: Client, name: str) -> None:
    response = ali.post("/en/accounts/profile/", {"display_name": name, "language": "en"})
    assert response.status_code == 302
    assert _saved() == (name, "en")


def test_the_admin_refuses_them_too(client: Client, make_user: Any) -> None:
    staff = make_user("staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    target = make_user("ali")
    make_user("bob")
    assert client.login(username="staff", password=PASSWORD)
    url = f"/admin/auth/user/{target.pk}/change/"
    form = client.get(url).context["adminform"].form
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is not None and name not in ("password", "last_login", "groups",
                                               "user_permissions"):
            data[name] = value
    data.update({
        "date_joined_0": target.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": target.date_joined.strftime("%H:%M:%S"),
        "profile-TOTAL_FORMS": "1", "profile-INITIAL_FORMS": "1",
        "profile-MIN_NUM_FORMS": "0", "profile-MAX_NUM_FORMS": "1",
        "profile-0-id": str(target.profile.pk), "profile-0-user": str(target.pk),
        "profile-0-language": "en",
        "game_stats-TOTAL_FORMS": "0", "game_stats-INITIAL_FORMS": "0",
        "game_stats-MIN_NUM_FORMS": "0", "game_stats-MAX_NUM_FORMS": "1000",
    })
    for name, message in (("BOB", TAKEN["en"]), ("x\u202ey", CONTROL["en"])):
        response = client.post(url, {**data, "profile-0-display_name": name})
        assert response.status_code == 200
        assert message in response.content.decode()
    assert _saved() == ("", "en")
    response = client.post(url, {**data, "profile-0-display_name": "Ali"})
    assert response.status_code == 302  # the same form with a fair name is saved
    assert _saved() == ("Ali", "en")


def test_hidden_characters_names_each_code_point() -> None:
    assert hidden_characters("a\u202eb\u200bc") == ["U+202E", "U+200B"]
    assert hidden_characters("\u0646\u200c\u0645") == []
    assert hidden_characters("ab\u200c") == ["U+200C"]


def test_a_name_is_never_shown_longer_than_a_display_name_may_be(make_user: Any) -> None:
    long = make_user("u" * 150)
    assert long.profile.name == "u" * 39 + "…" and len(long.profile.name) == 40
    assert Profile.shown_name(None, "u" * 41) == "u" * 39 + "…"
    assert Profile.shown_name("Ali", "u" * 150) == "Ali"
    assert Profile.shown_name(None, "u" * 40) == "u" * 40  # exactly the limit: whole
