"""pyproject.toml ships every Python package and every app data file, so a non-editable
install (a wheel) has all the modules, templates, lesson and guide content and static files.

The packages are listed by hand (site/ is imported as `baithak`, which setuptools' find
cannot name), so a new folder with an __init__.py, or a new kind of data file, would be
left out of a wheel without a word: these tests compare the list with what is on disk.
"""

from __future__ import annotations

import glob
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Top-level folders with an __init__.py that are not part of the site.
NOT_SHIPPED = {"tests"}
SKIP_DIRS = {"__pycache__"}
SKIP_SUFFIXES = {".pyc", ".mo"}  # byte code and compiled catalogues are build output


def _config(root: Path) -> dict:
    with (root / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)["tool"]["setuptools"]


def _files(folder: Path) -> list[Path]:
    return [
        p
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not SKIP_DIRS & set(p.parts) and p.suffix not in SKIP_SUFFIXES
    ]


def packages_on_disk(root: Path) -> set[str]:
    """Every package a wheel must hold: each folder with an __init__.py under the apps that
    pyproject maps, named by its import name (site/… is baithak.…)."""
    found = set()
    for name, folder in _config(root)["package-dir"].items():
        top = root / folder
        for init in top.rglob("__init__.py"):
            if SKIP_DIRS & set(init.parts):
                continue
            rel = init.parent.relative_to(top).parts
            found.add(".".join((name, *rel)))
    return found


def unshipped_apps(root: Path) -> set[str]:
    """Top-level folders that are Python packages but that pyproject maps to no package."""
    mapped = set(_config(root)["package-dir"].values())
    return {
        init.parent.name
        for init in root.glob("*/__init__.py")
        if init.parent.name not in mapped | NOT_SHIPPED
    }


def data_left_out(root: Path) -> list[str]:
    """Files under the shipped folders that are neither a module of a declared package nor
    matched by that package's package-data patterns (as setuptools globs them: relative to
    the package's folder, `**` for any depth)."""
    config = _config(root)
    declared = set(config["packages"])
    dirs = {}
    for package in declared:
        top, *rest = package.split(".")
        dirs[package] = root / config["package-dir"][top] / Path(*rest)
    shipped = set()
    for package, patterns in config.get("package-data", {}).items():
        for pattern in patterns:
            shipped |= {
                (dirs[package] / hit).resolve()
                for hit in glob.glob(pattern, root_dir=dirs[package], recursive=True)
            }
    left = []
    for folder in sorted(set(config["package-dir"].values())):
        for path in _files(root / folder):
            in_a_package = path.parent in dirs.values()
            if path.suffix == ".py" and in_a_package:
                continue
            if path.resolve() not in shipped:
                left.append(str(path.relative_to(root)))
    return left


def test_pyproject_declares_every_package_on_disk() -> None:
    declared = set(_config(ROOT)["packages"])
    assert packages_on_disk(ROOT) - declared == set(), "add these to pyproject's packages"
    assert declared - packages_on_disk(ROOT) == set(), "no such package on disk"


def test_every_app_folder_is_mapped_to_a_package() -> None:
    assert unshipped_apps(ROOT) == set()


def test_every_template_content_and_static_file_is_package_data() -> None:
    assert data_left_out(ROOT) == []


def test_data_files_come_from_package_data_alone() -> None:
    # Left on, setuptools also ships whatever the source manifest holds and warns "Package
    # would be ignored" for each importable data folder (templates/game/, content/hi/...).
    assert _config(ROOT)["include-package-data"] is False


def test_a_forgotten_package_or_data_file_is_found(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[tool.setuptools]\n"
        'package-dir = { "baithak" = "site", "app" = "app" }\n'
        'packages = ["baithak", "app"]\n'
        "[tool.setuptools.package-data]\n"
        '"app" = ["templates/**/*.html"]\n',
        encoding="utf-8",
    )
    for name in (
        "site/__init__.py",
        "app/__init__.py",
        "app/lessons/__init__.py",
        "app/lessons/one.py",
        "app/templates/app/page.html",
        "app/content/en/one.md",
        "other/__init__.py",
        "tests/__init__.py",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    assert packages_on_disk(tmp_path) == {"baithak", "app", "app.lessons"}
    assert unshipped_apps(tmp_path) == {"other"}
    # The undeclared package's modules are left out of a wheel too, as is untyped data.
    assert data_left_out(tmp_path) == [
        "app/content/en/one.md",
        "app/lessons/__init__.py",
        "app/lessons/one.py",
    ]
