"""The shape of the code, checked over the whole project (issue #25).

- **The engines and the bots are pure Python** (issue #2): game/engine/ and game/bots/
  import no Django, Channels or I/O. import-linter (`make lint`) checks the import graph,
  with the layers (pyproject.toml); the test here reads the source itself, so it also
  catches dynamic imports and I/O built-ins that an import graph cannot see.
- **No import circle**: no module of ours (packages game, baithak, tutorials, accounts,
  guide) imports one that leads back to it. Imports made only for type checking (under
  ``if TYPE_CHECKING:``) aside, except in game/engine and game/bots, where they count
  too (the Court Piece pieces once read a ``Hand`` that depended on them).
- **No borrowed private name**: no module uses another module's private name (a leading
  underscore), tests, benchmarks and scripts included. What another module needs gets a
  public name, or the test goes through the public surface. Third-party private API we
  must use is allowed by file and name, each with its reason (THIRD_PARTY_PRIVATE).
- **No module over MAX_LINES lines**, outside the engines (game/engine) and migrations.

Each check has a test showing that it catches what it is there for.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "game"

# Every .py of ours: these folders (migrations aside) and the repository's top level.
SOURCE_FOLDERS = ("game", "tutorials", "accounts", "guide", "site", "tests", "bench", "scripts")


def project_sources() -> list[Path]:
    paths = [p for folder in SOURCE_FOLDERS for p in (ROOT / folder).rglob("*.py")]
    paths += ROOT.glob("*.py")
    return sorted(p for p in paths if "migrations" not in p.relative_to(ROOT).parts)


def _where(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def test_the_project_sources_are_found() -> None:
    where = {_where(p) for p in project_sources()}
    assert len(where) > 300
    assert {"bootstrap.py", "site/settings.py", "tests/test_architecture.py"} <= where
    assert not [w for w in where if "/migrations/" in w]


# ------------------------------------------------------------ the pure engines and bots
PURE_FOLDERS = (GAME / "engine", GAME / "bots")

FORBIDDEN_MODULES = {
    "django", "channels", "daphne", "asgiref", "baithak", "tutorials",
    "socket", "asyncio", "urllib", "http", "requests", "sqlite3", "subprocess",
    "time", "datetime", "random", "os", "io", "pathlib", "shutil", "tempfile", "logging",
    "importlib", "threading", "multiprocessing",
}
FORBIDDEN_CALLS = {"open", "print", "input", "__import__", "exec", "eval"}


def impurities(path: Path) -> list[str]:
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


def _pure_sources() -> list[Path]:
    return sorted(p for folder in PURE_FOLDERS for p in folder.rglob("*.py"))


def test_engine_and_bot_sources_exist() -> None:
    assert len(list((GAME / "engine").rglob("*.py"))) >= 3
    assert list((GAME / "bots").rglob("*.py"))


def test_engine_and_bots_import_no_django_channels_or_io() -> None:
    problems = [v for p in _pure_sources() for v in impurities(p)]
    assert problems == []


def test_the_check_itself_catches_a_violation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import django.conf\nfrom channels.layers import x\nopen('f')\n")
    assert len(impurities(bad)) == 3


# ------------------------------------------------------------------------ import circles
PROJECT_PACKAGES = ("game", "baithak", "tutorials", "accounts", "guide")
PURE_PACKAGES = ("game.engine", "game.bots")


def import_circles(graph: grimp.ImportGraph, within: Iterable[str]) -> list[str]:
    """Each direct import a -> b between modules of the packages ``within`` where b also
    leads back to a (through any module of the graph)."""
    packages = tuple(within)
    modules = {
        m for m in graph.modules if any(m == p or m.startswith(p + ".") for p in packages)
    }
    return sorted(
        f"{a} -> {b}"
        for a in modules
        for b in graph.find_modules_directly_imported_by(a) & modules
        if graph.chain_exists(importer=b, imported=a)
    )


def test_no_module_of_ours_imports_one_that_imports_it() -> None:
    graph = grimp.build_graph(*PROJECT_PACKAGES, exclude_type_checking_imports=True)
    assert {m.split(".")[0] for m in graph.modules} == set(PROJECT_PACKAGES)
    assert import_circles(graph, PROJECT_PACKAGES) == []


def test_no_pure_module_imports_one_that_imports_it_type_checking_included() -> None:
    graph = grimp.build_graph("game")  # TYPE_CHECKING imports count (grimp's default)
    assert import_circles(graph, PURE_PACKAGES) == []


def test_the_circle_check_itself_catches_a_circle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "circles_example"
    package.mkdir()
    for name, source in {
        "__init__": "",
        "a": "from circles_example import b\n",
        "b": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n"
            "    from circles_example import a\n"
        ),
        "c": "import circles_example.d\n",
        "d": "def late():\n    from circles_example import e\n",  # inside a function
        "e": "from circles_example.c import *\n",
        "f": "from circles_example import c\n",  # leads into the circle, not back
    }.items():
        (package / f"{name}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    circle = ["circles_example.c -> circles_example.d", "circles_example.d -> circles_example.e",
              "circles_example.e -> circles_example.c"]
    without = grimp.build_graph(
        "circles_example", exclude_type_checking_imports=True, cache_dir=None
    )
    assert import_circles(without, ["circles_example"]) == circle
    with_type_checking = grimp.build_graph("circles_example", cache_dir=None)
    assert import_circles(with_type_checking, ["circles_example"]) == sorted(
        ["circles_example.a -> circles_example.b", "circles_example.b -> circles_example.a",
         *circle]
    )
    assert import_circles(with_type_checking, ["circles_example.a"]) == []  # one alone


# ------------------------------------------------------------------------ private names
# Underscored by the standard library to keep them apart from field names, public there.
PUBLIC_BY_CONVENTION = frozenset({"_replace", "_asdict", "_fields", "_make", "_field_defaults"})

LAYERS = "game/tables/transport/layers.py"
# Third-party private API we must use, by (file, name), "*" for any file; each says why.
# Keep it short: a test fails on an entry nothing uses any more.
THIRD_PARTY_PRIVATE: dict[tuple[str, str], str] = {
    ("game/courtpiece/doubledummy.py", "_dds"): (
        "endplay wraps DDS's library in its private _dds module and exposes no call to size "
        "DDS's search memory (SetResources), which issue 26's flat memory needs"
    ),
    ("game/courtpiece/doubledummy.py", "_dll"): (
        "the ctypes library of endplay's _dds (above): SetResources is called on it once"
    ),
    ("game/tables/workers.py", "_processes"): (
        "concurrent.futures' ProcessPoolExecutor names its worker processes nowhere else; "
        "read (never changed) only so that bench/bgbot.py can count the workers' CPU"
    ),
    ("*", "_meta"): (
        "Django's Model._meta: the Model _meta API is public and documented by Django "
        "(docs.djangoproject.com/en/5.2/ref/models/meta/); the underscore only keeps it "
        "apart from field names"
    ),
    # The Redis channel layer subclasses channels-redis' RedisChannelLayer (channels-redis
    # 4.3, pinned <5 in pyproject.toml), which offers no public hook for these steps: the
    # subclass calls its base's own methods so that what goes through Redis is exactly
    # what channels-redis reads and writes in every other process.
    (LAYERS, "_brpop_with_clean"): (
        "the one reader per process pops this process's messages as channels-redis' "
        "receive does: BZPOPMIN with its backup queue, so a message popped as the reader "
        "is cancelled is not lost"
    ),
    (LAYERS, "_clean_receive_backup"): (
        "drops a popped message's backup copy once it is handed on, as channels-redis' "
        "receive does after _brpop_with_clean"
    ),
    (LAYERS, "_group_key"): (
        "the Redis key of a group: group_send_except reads the very membership that "
        "channels-redis' group_add and group_discard write"
    ),
    (LAYERS, "_map_channel_keys_to_connection"): (
        "channels-redis' grouping of a group message by connection, serialised per "
        "channel with its capacity: send_through_redis is its group_send after the reads, "
        "unchanged, so other processes receive what channels-redis would have sent"
    ),
}

SELF = frozenset({"self", "cls", "mcs"})
# Builtins and methods that name an attribute by a string: getattr(obj, "_x"),
# object.__setattr__(obj, "_x", v), monkeypatch.setattr(obj, "_x", v), ...
BY_NAME = frozenset(
    {"getattr", "setattr", "hasattr", "delattr", "__setattr__", "__getattribute__",
     "__delattr__"}
)
# ... and those that name it by a dotted path: monkeypatch.setattr("pkg.mod._x", v),
# unittest.mock.patch("pkg.mod._x").
BY_PATH = frozenset({"setattr", "delattr", "patch"})


class PrivateUse(NamedTuple):
    where: str  # the file, from the repository's root
    line: int
    name: str  # the private name
    what: str

    def __str__(self) -> str:
        return f"{self.where}:{self.line} {self.what}"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.endswith("__")


def _root(node: ast.expr) -> str | None:
    """The name an attribute chain starts from: ``layers`` of ``layers.Layer()._x``."""
    while isinstance(node, ast.Attribute | ast.Call | ast.Subscript):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in SELF


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def _named_attribute(node: ast.AST) -> tuple[ast.expr, ast.Constant] | None:
    """(the object, the name) of an attribute named by a string: getattr(obj, "_x")."""
    if not isinstance(node, ast.Call) or len(node.args) < 2 or _called(node) not in BY_NAME:
        return None
    obj, name = node.args[0], node.args[1]
    if isinstance(name, ast.Constant) and isinstance(name.value, str) and not (
        isinstance(obj, ast.Constant)
    ):
        return obj, name
    return None


def _patched_path(node: ast.AST) -> str | None:
    """The dotted path of monkeypatch.setattr("pkg.mod._x", v) or mock.patch("...")."""
    if not isinstance(node, ast.Call) or not node.args or _called(node) not in BY_PATH:
        return None
    target = node.args[0]
    if isinstance(target, ast.Constant) and isinstance(target.value, str) and "." in target.value:
        return target.value
    return None


def private_uses(path: Path) -> list[PrivateUse]:
    """Other modules' private names used in ``path``: imported (``from m import _x``);
    read, written or patched on an imported name (``m._x``, ``m.Class._x``,
    ``monkeypatch.setattr(m, "_x", ...)``, ``patch("m._x")``); or read, written or named
    by a string (``getattr(obj, "_x")``) on anything but ``self`` or ``cls`` where this
    module never defines the name (as a function, class, variable, argument, an attribute
    of ``self`` or ``cls``, or a string such as a ``__slots__`` entry): it must come from
    elsewhere. A private attribute written on another module's object counts as a use:
    keep such a mark on an object of your own.

    Beyond it: a name this module defines too, read off another module's object; and a
    subclass overriding its base's private method (it defines the name itself)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    where = _where(path)
    named = {
        id(name): obj
        for node in ast.walk(tree)
        if (found := _named_attribute(node)) is not None
        for obj, name in [found]
    }
    imported: set[str] = set()
    defined: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            imported |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            if _is_self(node.value):  # written on another object, it is a use (below)
                defined.add(node.attr)
        elif isinstance(node, ast.arg):
            defined.add(node.arg)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and (
            id(node) not in named or _is_self(named[id(node)])
        ):
            # __slots__ entries, fields set through __dict__ or object.__setattr__(self, ...)
            defined.add(node.value)

    found: list[PrivateUse] = []

    def attribute(base: ast.expr, name: str, line: int) -> None:
        if not _private(name) or name in PUBLIC_BY_CONVENTION:
            return
        if _root(base) in imported or name not in defined:
            found.append(PrivateUse(where, line, name, f"uses {ast.unparse(base)}.{name}"))

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if _private(alias.name):
                    found.append(
                        PrivateUse(where, node.lineno, alias.name, f"imports {alias.name}")
                    )
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = [part for part in alias.name.split(".") if _private(part)]
                if parts:
                    found.append(PrivateUse(where, node.lineno, parts[-1], f"imports {alias.name}"))
        elif isinstance(node, ast.Attribute):
            attribute(node.value, node.attr, node.lineno)
        elif (by_name := _named_attribute(node)) is not None:
            attribute(by_name[0], str(by_name[1].value), node.lineno)
        elif (dotted := _patched_path(node)) is not None:
            parts = [part for part in dotted.split(".") if _private(part)]
            if parts:
                found.append(PrivateUse(where, node.lineno, parts[-1], f"patches {dotted}"))
    return found


def allowed(use: PrivateUse) -> bool:
    return (use.where, use.name) in THIRD_PARTY_PRIVATE or ("*", use.name) in THIRD_PARTY_PRIVATE


@functools.cache
def _project_private_uses() -> tuple[PrivateUse, ...]:
    return tuple(use for path in project_sources() for use in private_uses(path))


def test_no_module_uses_another_modules_private_names() -> None:
    assert [str(use) for use in _project_private_uses() if not allowed(use)] == []


def test_every_allowed_private_name_is_used_and_says_why() -> None:
    uses = _project_private_uses()
    used = {(use.where, use.name) for use in uses} | {("*", use.name) for use in uses}
    assert sorted(set(THIRD_PARTY_PRIVATE) - used) == []  # none left over
    assert all(len(why) > 40 for why in THIRD_PARTY_PRIVATE.values())


def test_the_private_name_check_itself_catches_each_kind_of_use(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from game.engine.courtpiece.hand import _trick_winner\n"
        "import game._hidden.mod\n"
        "from game.bots import courtpiece as bot\n"
        "from game.tables.transport import layers\n"
        "bot._Play(view, legal)\n"  # an imported module's private name
        "hand._legal\n"  # an attribute this module never defines
        "layers.Layer._sweep\n"  # off an imported name, through a class
        "layer._swept = 0.0\n"  # written on another module's object
        "getattr(layer, '_seen')\n"  # named by a string
        "monkeypatch.setattr(layers.Layer, '_clean', None)\n"
        "object.__setattr__(game, '_memo', None)\n"
        "monkeypatch.setattr('game.tables.store.db._local', None)\n"  # by its path
        "class _Own:\n"
        "    __slots__ = ('_slot',)\n"
        "    _own = 1\n"
        "    def f(self, pos):\n"
        "        self._mine = 2\n"
        "        object.__setattr__(self, '_memo2', None)\n"
        "        return (self._own, _Own._own, self._slot, self._mine, self._memo2,\n"
        "                super()._own, pos._replace(mine=0))\n"  # all fine
    )
    assert sorted(str(use).split(" ", 1)[1] for use in private_uses(bad)) == [
        "imports _trick_winner",
        "imports game._hidden.mod",
        "patches game.tables.store.db._local",
        "uses bot._Play",
        "uses game._memo",
        "uses hand._legal",
        "uses layer._seen",
        "uses layer._swept",
        "uses layers.Layer._clean",
        "uses layers.Layer._sweep",
    ]


def test_the_allow_list_allows_only_its_names_where_it_names_them() -> None:
    assert allowed(PrivateUse("tests/tables/test_revision.py", 1, "_meta", "uses Table._meta"))
    assert allowed(PrivateUse(LAYERS, 1, "_group_key", "uses self._group_key"))
    assert not allowed(PrivateUse("game/tables/pages.py", 1, "_group_key", "uses x._group_key"))
    assert not allowed(PrivateUse(LAYERS, 1, "_swept", "uses layer._swept"))


# -------------------------------------------------------------------------- module size
MAX_LINES = 700
SIZE_EXEMPT: set[str] = set()  # by path from the root; none today


def oversized(paths: Iterable[Path]) -> list[str]:
    """Each module over MAX_LINES lines, with its count."""
    counts = ((p, len(p.read_text(encoding="utf-8").splitlines())) for p in paths)
    return [f"{_where(p)}: {n} lines" for p, n in counts if n > MAX_LINES]


def test_no_module_is_over_700_lines_outside_the_engines() -> None:
    paths = [
        p
        for p in project_sources()
        if not p.is_relative_to(GAME / "engine") and _where(p) not in SIZE_EXEMPT
    ]
    assert len(paths) > 250
    assert oversized(paths) == []


def test_the_size_check_itself_catches_a_long_module(tmp_path: Path) -> None:
    (tmp_path / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (tmp_path / "just.py").write_text("x = 1\n" * MAX_LINES)
    assert oversized(sorted(tmp_path.glob("*.py"))) == [f"{tmp_path / 'long.py'}: 701 lines"]
