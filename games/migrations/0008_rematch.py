from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0007_tables_talk_and_pace"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="rematch",
            field=models.JSONField(blank=True, help_text="the rematch offered once the game is over", null=True),
        ),
    ]
