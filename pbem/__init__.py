"""pbem: a play-by-e-mail adjudicator for the Island War board wargames."""

__version__ = "0.1.0"
