"""Project configuration package (settings, URLs, Celery app, shared API plumbing)."""

from .celery import app as celery_app

__all__ = ("celery_app",)
