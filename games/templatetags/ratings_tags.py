"""``{% rated_note game %}``: whether a game is or will be rated, in words; ``{% rating_changes game %}``:
what a finished game did to its players' ratings."""
from django import template

from games.selectors import ratings

register = template.Library()


@register.simple_tag
def rated_note(game) -> str:
    return ratings.rated_note(game)


@register.inclusion_tag("games/rating_changes.html")
def rating_changes(game) -> dict:
    return {"game": game, "changes": ratings.game_rating_changes(game)}
