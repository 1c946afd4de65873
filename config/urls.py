"""URL configuration: each app contributes its own ``urls.py``, mounted at ``/api/v1/``.

Named, argument-less routes there show up in the ``/api/v1/`` index automatically
(see ``core.index``).
"""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from core import admin as core_admin
from core.health import healthz

api_v1_patterns = [
    path("", include("core.urls")),
    path("", include("clubs.urls")),
    path("", include("scoring.urls")),
    path("", include("tournaments.urls")),
    path("", include("ratings.urls")),
    path("", include("exchange.urls")),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("api/v1/", include(api_v1_patterns)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    # before the admin's own URLs: its login page, throttled
    path("admin/login/", core_admin.login, name="admin-login"),
    path("admin/", admin.site.urls),
    # the pages people use, at the root
    path("", include("pages.urls")),
]

handler400 = "core.http.handler400"
handler403 = "core.http.handler403"
handler404 = "core.http.handler404"
handler500 = "core.http.handler500"
