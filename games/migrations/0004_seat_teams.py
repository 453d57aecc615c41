from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0003_action_id_per_seat"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="num_teams",
            field=models.PositiveSmallIntegerField(default=0, help_text="teams at this table; 0: a game without teams"),
        ),
        migrations.AddField(
            model_name="seat",
            name="team",
            field=models.PositiveSmallIntegerField(blank=True, help_text="0-based; None at a table without teams or an empty seat", null=True),
        ),
    ]
