from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0010_seed_commitment"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="is_learn",
            field=models.BooleanField(default=False, help_text="a Learn to play game: against computer players, with hints"),
        ),
    ]
