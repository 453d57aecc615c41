"""Migrations keep games that were already being played playable."""
from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor


@pytest.mark.django_db(transaction=True)
def test_games_logged_before_log_length_existed_continue_with_the_next_seq():
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0001_initial")])
    old = executor.loader.project_state([("games", "0001_initial")]).apps
    User = old.get_model("auth", "User")
    Game = old.get_model("games", "Game")
    ActionRecord = old.get_model("games", "ActionRecord")
    user = User.objects.create(username="old-timer")
    played = Game.objects.create(game_type="snowball-fight", options={}, seed=1, num_seats=2,
                                 invite_code="old-played", created_by=user, status="active", version=4)
    fresh = Game.objects.create(game_type="snowball-fight", options={}, seed=2, num_seats=2,
                                invite_code="old-fresh", created_by=user)
    for seq in (1, 2, 3):
        ActionRecord.objects.create(game=played, seq=seq, seat=0, action={"type": "x"}, action_id=f"a{seq}",
                                    version=seq + 1)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    from games.models import Game as CurrentGame

    assert CurrentGame.objects.get(pk=played.pk).log_length == 3
    assert CurrentGame.objects.get(pk=fresh.pk).log_length == 0
    CurrentGame.objects.filter(pk__in=[played.pk, fresh.pk]).delete()


@pytest.mark.django_db(transaction=True)
def test_games_from_before_seed_commitments_each_get_their_own_salt():
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0007_tables_talk_and_pace")])
    old = executor.loader.project_state([("games", "0007_tables_talk_and_pace")]).apps
    User = old.get_model("auth", "User")
    Game = old.get_model("games", "Game")
    user = User.objects.create(username="old-salt")
    games = [Game.objects.create(game_type="snowball-fight", options={}, seed=seed, num_seats=2,
                                 invite_code=f"old-salt-{seed}", created_by=user) for seed in (1, 2)]

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    from games.models import Game as CurrentGame, seed_commitment

    salts = [CurrentGame.objects.get(pk=g.pk).seed_salt for g in games]
    assert all(len(s) == 32 for s in salts) and salts[0] != salts[1]
    first = CurrentGame.objects.get(pk=games[0].pk)
    assert first.seed_commitment == seed_commitment(1, salts[0])
    CurrentGame.objects.filter(pk__in=[g.pk for g in games]).delete()


@pytest.mark.django_db(transaction=True)
def test_names_written_before_the_readable_name_rule_are_made_readable():
    """A name stored before such names were refused reads as written once migrated: a
    right-to-left override or a zero-width space taken out, a name left blank named after its
    player, emoji joiners and any script kept."""
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0012_chat_sender_name_with_seat")])
    old = executor.loader.project_state([("games", "0012_chat_sender_name_with_seat")]).apps
    User, Profile = old.get_model("auth", "User"), old.get_model("games", "Profile")
    Game, ChatMessage = old.get_model("games", "Game"), old.get_model("games", "ChatMessage")
    names = {"rtl": "\u202eAna\u202c", "zero-width": "B\u200ben", "blank": "\u200b\u3164", "kept": "Zoë 👩\u200d🚀",
             "control": "Dan\x07 \t  Kim"}
    users = {}
    for key, name in names.items():
        users[key] = User.objects.create(username=f"old-{key}")
        Profile.objects.create(user=users[key], display_name=name)
    game = Game.objects.create(game_type="snowball-fight", options={}, seed=3, num_seats=2, invite_code="old-talk",
                               created_by=users["kept"])
    ChatMessage.objects.create(game=game, key="table", sender=users["rtl"], sender_seat=0,
                               sender_name="\u202eAna\u202c (seat 1)", text="hi")

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    from games.models import ChatMessage as CurrentChat
    from games.models import Profile as CurrentProfile
    from games.services.accounts import clean_display_name

    now = {key: CurrentProfile.objects.get(user_id=user.pk).display_name for key, user in users.items()}
    assert now == {"rtl": "Ana", "zero-width": "Ben", "blank": f"Player {users['blank'].pk}", "kept": "Zoë 👩\u200d🚀",
                   "control": "Dan Kim"}
    assert all(clean_display_name(name) == name for name in now.values())
    assert CurrentChat.objects.get(game_id=game.pk).sender_name == "Ana (seat 1)"
    migrated = CurrentChat.objects.get(game_id=game.pk)
    assert migrated.number == migrated.pk  # numbered as its id, below any message numbered since
    game.delete()
    for user in users.values():
        user.delete()
