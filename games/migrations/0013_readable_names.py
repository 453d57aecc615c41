"""Names written before the rule that a name must read as written (games.services.accounts
``clean_display_name``): their control and invisible formatting characters taken out (a
right-to-left override made a name, and the text after it, read backwards; a zero-width
space let it pass for another's), and a name left showing nothing replaced by "Player <id>".
Chat lines keep the name their sender had, cleaned the same way."""
import unicodedata

from django.db import migrations

JOINERS = "\u200c\u200d"  # kept: part of emoji and of some scripts' words
BLANK_LETTERS = "\u115f\u1160\u2800\u3164\uffa0"


def readable(name: str, length: int) -> str | None:
    """``name`` without what the rule refuses, or None when nothing visible is left."""
    kept = "".join(ch for ch in name if unicodedata.category(ch) not in ("Cc", "Cs")
                   and (unicodedata.category(ch) != "Cf" or ch in JOINERS))
    kept = " ".join(kept.split())[:length].strip()
    visible = any(not (unicodedata.category(ch)[0] in "MZ" or unicodedata.category(ch) == "Cf"
                       or ch in BLANK_LETTERS or ch.isspace()) for ch in kept)
    return kept if visible else None


def clean_names(apps, schema_editor):
    Profile = apps.get_model("games", "Profile")
    ChatMessage = apps.get_model("games", "ChatMessage")
    for profile in Profile.objects.all().iterator():
        name = readable(profile.display_name, 40) or f"Player {profile.user_id}"
        if name != profile.display_name:
            Profile.objects.filter(pk=profile.pk).update(display_name=name)
    for message in ChatMessage.objects.all().only("pk", "sender_name", "sender_id").iterator():
        name = readable(message.sender_name, 60) or f"Player {message.sender_id}"
        if name != message.sender_name:
            ChatMessage.objects.filter(pk=message.pk).update(sender_name=name)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0012_chat_sender_name_with_seat"),
    ]

    operations = [
        migrations.RunPython(clean_names, migrations.RunPython.noop),
    ]
