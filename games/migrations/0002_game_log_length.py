from django.db import migrations, models
from django.db.models import Max


def count_logged_actions(apps, schema_editor):
    """Games logged before the counter existed: their log's length is their highest seq."""
    Game = apps.get_model("games", "Game")
    for game in Game.objects.annotate(last_seq=Max("actions__seq")).filter(last_seq__isnull=False):
        Game.objects.filter(pk=game.pk).update(log_length=game.last_seq)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="log_length",
            field=models.PositiveIntegerField(default=0, help_text="actions in the log; the next one's seq is this plus one"),
        ),
        migrations.RunPython(count_logged_actions, migrations.RunPython.noop),
    ]
