"""ASGI entry point."""

import os
import warnings

from django.core.asgi import get_asgi_application

# whitenoise serves static files as a synchronous iterator, which Django warns about under
# ASGI on every file: expected here (the static files are small and cached by the browsers)
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous")

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_asgi_application()
