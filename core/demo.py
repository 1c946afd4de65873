"""Demo data for ``make run``: each app that has some says so in a ``demo`` module.

An app's ``demo.py`` defines ``build_demo(*, username: str) -> DemoReport``; ``manage.py demo``
runs them in the order of ``INSTALLED_APPS`` (clubs before the tournaments they host), like
Django's admin discovers ``admin.py``, so the kernel never imports an app above it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType

from django.apps import apps
from django.utils.module_loading import module_has_submodule


@dataclass(frozen=True)
class DemoReport:
    """What one app's demo step did: a line to print and the pages to open."""

    message: str
    created: bool
    links: tuple[tuple[str, str], ...] = ()


def demo_modules() -> Iterator[ModuleType]:
    for config in apps.get_app_configs():
        if module_has_submodule(config.module, "demo"):
            module = import_module(f"{config.name}.demo")
            if hasattr(module, "build_demo"):
                yield module
