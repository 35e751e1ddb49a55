"""Who left a seat during play (Seat.left_user, Seat.left_guest_key): the player keeps
their way back to the game the bot plays on. Both columns are nullable with no default,
so SQLite adds them by ALTER TABLE and game_seat is not rebuilt (the revision triggers of
migration 0004 stay); the index holds only seats someone left as a guest."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('game', '0009_analysis_handanalysis'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='left_guest_key',
            field=models.CharField(blank=True, max_length=64, null=True),
        ),
        migrations.AddField(
            model_name='seat',
            name='left_user',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='left_seats', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddIndex(
            model_name='seat',
            index=models.Index(condition=models.Q(('left_guest_key__isnull', False)), fields=['left_guest_key'], name='seat_left_guest'),
        ),
    ]
