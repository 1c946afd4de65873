"""Routes of the kernel, mounted under /api/v1/ by config.urls.

Give every route a name: named routes without URL arguments are listed in the /api/v1/ index.
"""

from django.urls import path

from core.index import ApiRootView
from core.jobs_api import TaskDetailSlashView, TaskDetailView

urlpatterns = [
    path("", ApiRootView.as_view(), name="api-root"),
    path("tasks/<uuid:task_id>", TaskDetailView.as_view(), name="task-detail"),
    path("tasks/<uuid:task_id>/", TaskDetailSlashView.as_view(), name="task-detail-slash"),
]
