"""Root URLconf for the API index test: the project's routes plus future-style ones."""

from django.http import HttpResponse
from django.urls import include, path

from config.urls import urlpatterns as project_urlpatterns


def view(request, **kwargs):
    return HttpResponse("ok")


extra_v1 = [
    path("engine/evaluate", view, name="engine-evaluate"),
    path("engine/waits", view, name="engine-waits"),
    path("rulesets/", view, name="ruleset-list"),
    path("rulesets/<int:pk>/", view, name="ruleset-detail"),
]

urlpatterns = [path("api/v1/", include(extra_v1)), *project_urlpatterns]
