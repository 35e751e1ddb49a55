from django.apps import AppConfig


class CourtPieceConfig(AppConfig):
    """Court Piece's pages and registration (no models of its own: the tables' are
    game's)."""

    name = "game.courtpiece"
    label = "courtpiece"
    verbose_name = "Court Piece"

    def ready(self) -> None:
        from game.courtpiece.spec import COURTPIECE
        from game.tables import registry

        registry.register(COURTPIECE, default=True)
