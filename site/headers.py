"""Response headers every page carries besides the Content-Security-Policy (django-csp,
configured in settings.py): the Permissions-Policy."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.utils.deprecation import MiddlewareMixin

# The browser features no page of ours uses, refused to the page and to anything it might
# embed: a card table has no need of a camera, a microphone or the player's whereabouts.
# Only features Chromium knows: an unknown name is an error in the console (and Lighthouse's
# best-practices audit counts console errors).
DENIED_FEATURES = (
    "accelerometer",
    "autoplay",
    "camera",
    "display-capture",
    "geolocation",
    "gyroscope",
    "magnetometer",
    "microphone",
    "midi",
    "payment",
    "publickey-credentials-get",
    "screen-wake-lock",
    "serial",
    "usb",
    "xr-spatial-tracking",
)
PERMISSIONS_POLICY = ", ".join(f"{feature}=()" for feature in DENIED_FEATURES)


class PermissionsPolicyMiddleware(MiddlewareMixin):
    """Sets Permissions-Policy on every response that has none yet. MiddlewareMixin makes
    it both synchronous and asynchronous, so an async view pays no thread hop for it."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response
