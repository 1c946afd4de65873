"""Routes of the clubs app, mounted under /api/v1/ by config.urls.

Give every route a name: named routes without URL arguments are listed in the /api/v1/ index.
"""

from django.urls import path  # noqa: F401

urlpatterns: list = [
    # path("example/", ExampleView.as_view(), name="clubs-example"),
]
