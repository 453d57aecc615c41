"""``{% rated_note game %}``: whether a game is or will be rated, in words; ``payload|rated_tag``: what
the game page's header says of it; ``{% rating_changes game %}``: what a finished game did to its
players' ratings."""
from django import template

from games.selectors import ratings

register = template.Library()


@register.simple_tag
def rated_note(game) -> str:
    return ratings.rated_note(game)


@register.filter
def rated_tag(payload: dict) -> dict[str, str]:
    return ratings.rated_tag(rated=payload.get("rated"), players=payload.get("players") or [])


@register.inclusion_tag("games/rating_changes.html")
def rating_changes(game) -> dict:
    left = [*(game.prompts.get("resigned") or ()), *(game.prompts.get("handed") or ())]
    return {"game": game, "changes": ratings.game_rating_changes(game), "someone_left": bool(left)}
