from django.contrib import admin

from games.models import ActionRecord, ApiToken, Game, Profile, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "game_type", "status", "is_public", "version", "created_by", "created_at")
    list_filter = ("game_type", "status", "is_public")
    inlines = [SeatInline]
    readonly_fields = ("seed", "state", "outcome", "prompts", "version")


@admin.register(ActionRecord)
class ActionRecordAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "seat", "source", "action_id", "created_at")
    list_filter = ("source",)


admin.site.register(Profile)
admin.site.register(ApiToken, list_display=("user", "name", "prefix", "created_at", "last_used_at"))
