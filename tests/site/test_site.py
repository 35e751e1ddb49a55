"""The site shell: language prefixes, <html lang dir>, the switcher, the nav, robots.txt, the
health check, and which app owns which route."""

import ast
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import resolve
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "direction", "brand"),
    [("ur", "rtl", "بیٹھک"), ("hi", "ltr", "बैठक"), ("en", "ltr", "Baithak")],
)
def test_home_in_each_language(client: Client, lang: str, direction: str, brand: str) -> None:
    response = client.get(f"/{lang}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{lang}" dir="{direction}">' in html
    assert brand in html
    # The switcher links to the same page in every language, including this one.
    for other in ("ur", "hi", "en"):
        assert re.search(rf'<a href="/{other}/" hreflang="{other}"', html)


@pytest.mark.django_db
def test_root_redirects_to_a_language(client: Client) -> None:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="hi")
    assert response.status_code == 302
    assert response["Location"] == "/hi/"


@pytest.mark.django_db
def test_healthz(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"ok": True}


@pytest.mark.django_db
def test_urdu_page_has_no_english_ui_strings(client: Client) -> None:
    html = client.get("/ur/").content.decode()
    for english in ("Skip to content", "Learn and play", "sitting room"):
        assert english not in html


@pytest.mark.django_db
def test_site_nav_links_play_learn_rules_questions_and_accounts(client: Client) -> None:
    html = client.get("/hi/").content.decode()
    nav = html.split('class="site-nav"', 1)[1].split("</nav>", 1)[0]
    for path in ("/hi/play/", "/hi/learn/", "/hi/rules/", "/hi/faq/"):
        assert f'href="{path}"' in nav
    header = html.split('<header class="site-header">', 1)[1].split("</header>", 1)[0]
    assert 'href="/hi/accounts/login/"' in header and 'href="/hi/accounts/signup/"' in header
    # One row on a phone: everything but the brand sits in the Menu disclosure.
    assert header.count("<details") == 1 and "<summary>" in header
    # The glossary and house rules moved to the footer.
    footer = html.split('<footer class="site-footer">', 1)[1]
    for path in ("/hi/glossary/", "/hi/house-rules/"):
        assert f'href="{path}"' in footer


def test_robots_txt_points_at_the_sitemap(client: Client) -> None:
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    body = response.content.decode()
    assert "Disallow: /admin/" in body
    assert "Sitemap: http://testserver/sitemap.xml" in body


def test_robots_txt_refuses_writes(client: Client) -> None:
    assert client.post("/robots.txt").status_code == 405


@pytest.mark.parametrize(
    ("path", "name", "module"),
    [
        ("/", "root", "baithak.views"),
        ("/robots.txt", "robots_txt", "baithak.views"),
        ("/healthz", "healthz", "baithak.views"),
        ("/en/", "home", "baithak.views"),
        ("/hi/players/alice/", "player", "accounts.views"),
        ("/ur/accounts/profile/", "profile", "accounts.views"),
        ("/en/rules/rung/", "guide:rules", "guide.views"),
    ],
)
def test_each_route_belongs_to_its_owner(path: str, name: str, module: str) -> None:
    # i18n_patterns resolve the active language's prefix only.
    prefix = path.split("/")[1]
    with translation.override(prefix if prefix in ("ur", "hi", "en") else "en"):
        match = resolve(path)
    assert match.view_name == name
    assert match.func.__module__ == module


def test_the_project_urls_import_no_app_views() -> None:
    # Apps bring their pages through their own urls module (include()); the project's URL
    # file wires them up but does not reach into an app's views.
    tree = ast.parse((ROOT / "site" / "urls.py").read_text(encoding="utf-8"))
    imported = [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    ]
    app_views = [name for name in imported if "views" in name and not name.startswith(
        ("baithak.", "django."))]
    assert app_views == []
