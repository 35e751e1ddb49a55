"""Users made before this app existed (a superuser, say) get their profile too."""

from django.conf import settings
from django.db import migrations


def create_missing_profiles(apps, schema_editor):  # type: ignore[no-untyped-def]
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Profile = apps.get_model("accounts", "Profile")
    Profile.objects.bulk_create(
        [Profile(user_id=pk) for pk in User.objects.filter(profile=None).values_list("pk", flat=True)]
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(create_missing_profiles, migrations.RunPython.noop)]
