"""Staff can look at tables, their seats and their logs; every change goes through the
table services (game.tables), so the admin is read-only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin

from game.models import Action, Seat, Table


class _ReadOnly:
    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False


class SeatInline(_ReadOnly, admin.TabularInline):
    model = Seat
    fields = ("number", "user", "guest_key", "bot", "abandoned_by", "connections", "away")
    readonly_fields = fields
    extra = 0


@admin.register(Table)
class TableAdmin(_ReadOnly, admin.ModelAdmin):
    list_display = ("id", "game", "variant", "status", "private", "version", "created_at")
    list_filter = ("game", "variant", "status", "private")
    exclude = ("seed_top", "invite")  # secrets stay out of pages, staff's included
    inlines = (SeatInline,)


@admin.register(Action)
class ActionAdmin(_ReadOnly, admin.ModelAdmin):
    list_display = ("table", "number", "seat", "action", "source", "created_at")
    list_filter = ("source",)
