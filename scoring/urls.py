"""Routes of the scoring app, mounted under /api/v1/ by config.urls.

Give every route a name: named routes without URL arguments are listed in the /api/v1/ index.
"""

from django.urls import path

from scoring import api

urlpatterns = [
    path("engine/evaluate", api.EvaluateView.as_view(), name="engine-evaluate"),
    path("engine/waits", api.WaitsView.as_view(), name="engine-waits"),
    path("engine/settle", api.SettleView.as_view(), name="engine-settle"),
    path("rulesets/", api.RulesetListView.as_view(), name="rulesets"),
    path("rulesets/resolve", api.RulesetResolveView.as_view(), name="rulesets-resolve"),
    path("rulesets/<str:name>/", api.RulesetDetailView.as_view(), name="ruleset-detail"),
]
