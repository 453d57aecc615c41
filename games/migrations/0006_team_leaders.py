from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0005_state_keeps_key_order"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="is_team_leader",
            field=models.BooleanField(default=False, help_text="chosen as its team's leader in the waiting room (a team without one is led by its lowest seat)"),
        ),
    ]
