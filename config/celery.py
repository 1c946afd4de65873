"""Celery application, configured from Django settings (``CELERY_*`` names).

Without ``CELERY_BROKER_URL`` the settings switch on ``CELERY_TASK_ALWAYS_EAGER`` so tasks run
in-process; with ``CELERY_BROKER_URL=redis://...`` they go to real workers::

    celery -A config worker -l info
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("xuezhan")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Finds ``tasks.py`` in every installed app; ``config.tasks`` is listed in CELERY_IMPORTS.
app.autodiscover_tasks()
