"""Table talk messages are known to clients by a number of their game's, not by their row id."""
from django.db import migrations, models
from django.db.models import F


def number_the_messages(apps, schema_editor):
    """Messages written before numbers had them keep their row id as their number: ids
    increased in the order they were written, and are far below any number written since."""
    apps.get_model("games", "ChatMessage").objects.update(number=F("id"))


class Migration(migrations.Migration):

    dependencies = [("games", "0013_readable_names")]

    operations = [
        migrations.AddField(model_name="chatmessage", name="number", field=models.PositiveBigIntegerField(null=True)),
        migrations.RunPython(number_the_messages, migrations.RunPython.noop),
        migrations.AlterField(model_name="chatmessage", name="number", field=models.PositiveBigIntegerField()),
        migrations.RemoveIndex(model_name="chatmessage", name="chat_channel_by_id"),
        migrations.AddIndex(model_name="chatmessage",
                            index=models.Index(fields=["game", "key", "number"], name="chat_channel_by_number")),
        migrations.AddConstraint(model_name="chatmessage",
                                 constraint=models.UniqueConstraint(fields=["game", "number"],
                                                                    name="one_chat_message_per_number")),
        migrations.AlterModelOptions(name="chatmessage", options={"ordering": ["number"]}),
    ]
