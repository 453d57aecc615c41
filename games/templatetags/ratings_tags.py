"""``{% rated_note game %}``: whether a game is or will be rated, in words."""
from django import template

from games.selectors import ratings

register = template.Library()


@register.simple_tag
def rated_note(game) -> str:
    return ratings.rated_note(game)
