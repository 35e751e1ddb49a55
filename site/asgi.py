"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "baithak.settings")
# Initialise Django before importing anything that touches models.
django_asgi_app = get_asgi_application()

from baithak.origin import SameOriginOnly  # noqa: E402
from baithak.process import let_closed_sockets_go, tune_collector  # noqa: E402
from baithak.routing import websocket_urlpatterns  # noqa: E402
from baithak.serving import close_frames_on_failure  # noqa: E402
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from game.tables.transport.clock import with_clock  # noqa: E402
from game.tables.transport.oneprocess import refuse_second_process  # noqa: E402

# Without REDIS_URL a second server process on this database would never hear the first's
# moves: refused here, as the server loads the application (game.tables.transport.oneprocess).
refuse_second_process()
tune_collector()
close_frames_on_failure()  # a frame over 1 MiB: close 1009, not a dropped connection
let_closed_sockets_go()

# with_clock: the first request or socket starts this process's table clock
# (game.tables.transport.clock).
application = with_clock(ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Origin as scheme + host + port (baithak.origin), not the host alone.
        "websocket": SameOriginOnly(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
))
