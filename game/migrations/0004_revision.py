"""Table.revision, moved forward by triggers on every write of a table row or a seat.

A trigger, not the services' code, because the guarantee is only worth anything if no
write can skip it: Django's ``save()`` writes back whatever revision the instance was
read with, a seat's save does not touch its table's row at all, and the admin or a
shell writes too. ``game.tables.fastmoves`` relies on it (a move played from rows held in
memory is written only ``WHERE revision =`` the one it read)."""

from django.db import migrations, models

# Every write leaves the revision higher than it found it. A write that moves it on
# itself (game.tables.fastmoves: revision + 1) is left alone, so it costs no trigger; any other
# (the ORM's, which writes back the revision it read, or none) is moved on by one.
POSTGRES = [
    """
    CREATE OR REPLACE FUNCTION game_table_revision() RETURNS trigger AS $$
    BEGIN
        NEW.revision := OLD.revision + 1;
        RETURN NEW;
    END
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER game_table_revision BEFORE UPDATE ON game_table
    FOR EACH ROW WHEN (NEW.revision <= OLD.revision)
    EXECUTE FUNCTION game_table_revision()
    """,
    """
    CREATE OR REPLACE FUNCTION game_seat_revision() RETURNS trigger AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            UPDATE game_table SET revision = revision + 1 WHERE id = OLD.table_id;
        ELSIF TG_OP = 'UPDATE' THEN  -- a seat moved to another table moves both on
            UPDATE game_table SET revision = revision + 1
            WHERE id IN (OLD.table_id, NEW.table_id);
        ELSE
            UPDATE game_table SET revision = revision + 1 WHERE id = NEW.table_id;
        END IF;
        RETURN NULL;
    END
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER game_seat_revision AFTER INSERT OR UPDATE OR DELETE ON game_seat
    FOR EACH ROW EXECUTE FUNCTION game_seat_revision()
    """,
]
POSTGRES_DROP = [
    "DROP TRIGGER IF EXISTS game_seat_revision ON game_seat",
    "DROP FUNCTION IF EXISTS game_seat_revision()",
    "DROP TRIGGER IF EXISTS game_table_revision ON game_table",
    "DROP FUNCTION IF EXISTS game_table_revision()",
]

# SQLite cannot change NEW in a trigger: the row is updated again after the write (and
# that update moves the revision on, so it does not fire this trigger again).
SQLITE = [
    """
    CREATE TRIGGER game_table_revision AFTER UPDATE ON game_table FOR EACH ROW
    WHEN NEW.revision <= OLD.revision
    BEGIN UPDATE game_table SET revision = OLD.revision + 1 WHERE id = NEW.id; END
    """,
    """
    CREATE TRIGGER game_seat_revision_insert AFTER INSERT ON game_seat FOR EACH ROW
    BEGIN UPDATE game_table SET revision = revision + 1 WHERE id = NEW.table_id; END
    """,
    """
    CREATE TRIGGER game_seat_revision_update AFTER UPDATE ON game_seat FOR EACH ROW
    BEGIN
        UPDATE game_table SET revision = revision + 1 WHERE id IN (OLD.table_id, NEW.table_id);
    END
    """,
    """
    CREATE TRIGGER game_seat_revision_delete AFTER DELETE ON game_seat FOR EACH ROW
    BEGIN UPDATE game_table SET revision = revision + 1 WHERE id = OLD.table_id; END
    """,
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS game_seat_revision_delete",
    "DROP TRIGGER IF EXISTS game_seat_revision_update",
    "DROP TRIGGER IF EXISTS game_seat_revision_insert",
    "DROP TRIGGER IF EXISTS game_table_revision",
]


def _run(statements: dict[str, list[str]]):  # type: ignore[no-untyped-def]
    def run(apps, schema_editor):  # type: ignore[no-untyped-def]
        vendor = schema_editor.connection.vendor
        if vendor not in statements:
            raise RuntimeError(f"no revision triggers written for {vendor}")
        for sql in statements[vendor]:
            schema_editor.execute(sql)

    return run


# Lock order: a seat's write now also writes its table's row. The services lock the table
# row first, then write seats, so they keep one order. A seat written without the table
# locked first (a user deleted: Seat.user is SET_NULL) takes the other order; against a
# move that brings a seat back from away, PostgreSQL may find a deadlock and abort one of
# the two, which then changes nothing.


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0003_copied_deal"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="revision",
            field=models.PositiveBigIntegerField(default=0),
        ),
        migrations.RunPython(
            _run({"postgresql": POSTGRES, "sqlite": SQLITE}),
            _run({"postgresql": POSTGRES_DROP, "sqlite": SQLITE_DROP}),
        ),
    ]
