"""An index on Seat.guest_key, for guests' seats only: a guest's games ("Your games",
``GET /api/tables?mine=1``) and their hand-over to the account they sign up with are
looked up by the session's key. CREATE INDEX alone: game_seat is not rebuilt, so the
revision triggers of migration 0004 stay on SQLite."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("game", "0006_deadline_not_indexed")]

    operations = [
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                condition=models.Q(("guest_key", ""), _negated=True),
                fields=["guest_key"],
                name="seat_guest",
            ),
        ),
    ]
