from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import path, re_path

from games import api, views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("guest/", views.guest, name="guest"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password_reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/password_reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("accounts/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("accounts/password_change/", views.password_change, name="password_change"),
    path("accounts/password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("me/games/", views.my_games, name="my_games"),
    path("me/tokens/", views.api_tokens, name="api_tokens"),
    path("me/settings/", views.my_settings, name="my_settings"),
    path("me/settings/email-on-turn/", views.email_on_turn, name="email_on_turn"),
    path("games/new/<slug:game_type>/", views.new_game, name="new_game"),
    path("rules/<slug:slug>/", views.rules, name="rules"),
    path("learn/<slug:slug>/", views.learn, name="learn"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/invite/<str:code>/", views.invite, name="invite"),
    path("games/<int:game_id>/<str:what>/", views.seat_action, name="seat_action"),
    path("api/game-types/", api.game_types),
    path("api/games/", api.games),
    path("api/games/<int:game_id>/", api.game_detail),
    path("api/games/<int:game_id>/actions/", api.submit_action),
    path("api/games/<int:game_id>/chat/", api.chat_messages),
    path("api/games/<int:game_id>/chat/publish/", api.chat_publish),
    path("api/games/<int:game_id>/ready/", api.ready),
    path("api/games/<int:game_id>/resign/", api.resign),
    path("api/games/<int:game_id>/handover/", api.handover),
    path("api/games/<int:game_id>/<str:what>/", api.seat_action),
    path("api/me/settings/", api.settings_),
    path("api/tokens/", api.tokens),
    re_path(r"^api/(?P<rest>.*)$", api.nowhere),
    path("admin/", admin.site.urls),
]
