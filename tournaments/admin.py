from django.contrib import admin

from tournaments.models import (
    Bye,
    ClockActivation,
    Player,
    PlayerEvent,
    Round,
    Seat,
    SeatingChange,
    Table,
    TableAction,
    Team,
    Tournament,
)


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["name", "club", "rating", "birth_year", "team", "checked_in", "dropped"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "owner", "rounds", "public", "created_at"]
    list_filter = ["game", "public"]
    search_fields = ["name", "owner__username"]
    filter_horizontal = ["scorekeepers"]
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "tournament", "rating", "checked_in", "dropped", "first_round"]
    list_filter = ["checked_in", "dropped", "tournament"]
    search_fields = ["name", "club"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament"]
    search_fields = ["name"]


@admin.register(PlayerEvent)
class PlayerEventAdmin(admin.ModelAdmin):
    list_display = ["player", "kind", "by", "at"]
    list_filter = ["kind"]
    readonly_fields = ["player", "kind", "by", "at"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "published", "deadline", "created_at"]
    list_filter = ["status"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["round", "number", "digital", "status", "deadline"]
    list_filter = ["status", "digital"]
    inlines = [SeatInline]


class AppendOnlyAdmin(admin.ModelAdmin):
    """Logs are read, never edited: corrections are new rows."""

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ClockActivation)
class ClockActivationAdmin(AppendOnlyAdmin):
    list_display = ["round", "table", "kind", "seconds", "by", "at"]
    list_filter = ["kind"]


@admin.register(SeatingChange)
class SeatingChangeAdmin(AppendOnlyAdmin):
    list_display = ["round", "kind", "by", "at"]


@admin.register(TableAction)
class TableActionAdmin(AppendOnlyAdmin):
    list_display = ["table", "number", "seat", "action", "by_bot", "at"]


@admin.register(Bye)
class ByeAdmin(admin.ModelAdmin):
    list_display = ["round", "player"]
