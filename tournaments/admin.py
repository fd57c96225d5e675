from django.contrib import admin

from tournaments.models import Player, PlayerEvent, Round, Team, Tournament


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
    list_display = ["tournament", "number", "status", "created_at"]
    list_filter = ["status"]
