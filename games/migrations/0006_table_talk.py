import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0005_state_keeps_key_order"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="spectators_read_only",
            field=models.BooleanField(default=False, help_text="spectators may read the table talk, not write in it"),
        ),
        migrations.CreateModel(
            name="ChatMessage",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("key", models.CharField(max_length=16)),
                ("sender_seat", models.PositiveSmallIntegerField(blank=True, help_text="None: a spectator", null=True)),
                ("sender_name", models.CharField(max_length=40)),
                ("text", models.TextField()),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("game", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="chat_messages", to="games.game")),
                ("sender", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="chat_messages", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "ordering": ["id"],
                "indexes": [
                    models.Index(fields=["game", "key", "id"], name="chat_channel_by_id"),
                    models.Index(fields=["game", "sender", "created_at"], name="chat_sender_recent"),
                ],
            },
        ),
        migrations.CreateModel(
            name="PairPublication",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("seat", models.PositiveSmallIntegerField()),
                ("with_seat", models.PositiveSmallIntegerField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("game", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="pair_publications", to="games.game")),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("game", "seat", "with_seat"), name="one_consent_per_pair_and_seat")],
            },
        ),
    ]
