import secrets

from django.db import migrations, models

import games.models


def give_every_game_a_salt(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(seed_salt="").only("pk"):
        Game.objects.filter(pk=game.pk).update(seed_salt=secrets.token_hex(16))


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0009_ratings"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="seed_salt",
            field=models.CharField(default="", max_length=64,
                                   help_text="published with the seed once the game is over"),
            preserve_default=False,
        ),
        migrations.RunPython(give_every_game_a_salt, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game",
            name="seed_salt",
            field=models.CharField(default=games.models.new_seed_salt, max_length=64,
                                   help_text="published with the seed once the game is over"),
        ),
    ]
