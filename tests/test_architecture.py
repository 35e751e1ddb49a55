"""game/engine/ and game/bots/ stay pure Python: no Django, Channels or I/O (STYLE.md, issue #2).

import-linter (`make lint`) checks the import graph; this test checks the source itself, so
it also catches dynamic imports and I/O built-ins that an import graph cannot see.
"""

import ast
from pathlib import Path

GAME = Path(__file__).resolve().parent.parent / "game"
PURE = (GAME / "engine", GAME / "bots")

FORBIDDEN_MODULES = {
    "django", "channels", "daphne", "asgiref", "baithak", "tutorials",
    "socket", "asyncio", "urllib", "http", "requests", "sqlite3", "subprocess",
    "time", "datetime", "random", "os", "io", "pathlib", "shutil", "tempfile", "logging",
    "importlib", "threading", "multiprocessing",
}
FORBIDDEN_CALLS = {"open", "print", "input", "__import__", "exec", "eval"}


def _violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for name in names:
            if name.split(".")[0] in FORBIDDEN_MODULES:
                found.append(f"{path.name}:{node.lineno} imports {name}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in FORBIDDEN_CALLS
        ):
            found.append(f"{path.name}:{node.lineno} calls {node.func.id}()")
    return found


def _sources() -> list[Path]:
    return sorted(p for folder in PURE for p in folder.rglob("*.py"))


def test_engine_and_bot_sources_exist() -> None:
    assert len(list((GAME / "engine").rglob("*.py"))) >= 3
    assert list((GAME / "bots").rglob("*.py"))


def test_engine_and_bots_import_no_django_channels_or_io() -> None:
    problems = [v for p in _sources() for v in _violations(p)]
    assert problems == []


def test_the_check_itself_catches_a_violation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import django.conf\nfrom channels.layers import x\nopen('f')\n")
    assert len(_violations(bad)) == 3
