"""What an image worker builds before its first picture. ``warm_renderer`` runs in each worker as it starts (the
image pool's initializer) and again when a game needs more (cogs/warm.py). It lives here, not beside the bot, so a
worker that runs it imports the renderer only, never discord.py and the application."""

from __future__ import annotations


def warm_renderer(boards: tuple[str, ...] = (), story: bool = False) -> None:
    """The renderer's static layers, fonts and stamps of the base board, built once per process. With ``boards``, the
    same for those boards (each whole: the board with Essos has its Essos half built too) and, with ``story``, the
    end-of-game story's charts."""
    from render import warm_up

    warm_up()
    if boards:
        from render.api import compose_whole
        from render.data import board_named

        for name in boards:
            for lang in ("en", "ru"):
                compose_whole(board_named(name), {"viewer": None, "areas": {}, "options": {"board": name}}, lang)
    if story:
        from render.story import warm

        warm()
