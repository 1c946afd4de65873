"""URL configuration.

``api_v1_patterns`` is mounted at ``/api/v1/``; each app contributes its own ``urls.py``.
Named, argument-less routes there show up in the ``/api/v1/`` index automatically
(see ``config.api``).
"""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.api import ApiRootView
from config.auth_views import MeView, TokenView
from config.health import healthz

api_v1_patterns = [
    path("", ApiRootView.as_view(), name="api-root"),
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    path("auth/me/", MeView.as_view(), name="auth-me"),
    path("", include("clubs.urls")),
    path("", include("scoring.urls")),
    path("", include("tournaments.urls")),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("api/v1/", include(api_v1_patterns)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("admin/", admin.site.urls),
]

handler400 = "config.errors.handler400"
handler403 = "config.errors.handler403"
handler404 = "config.errors.handler404"
handler500 = "config.errors.handler500"
