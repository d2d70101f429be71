"""Localised slash-command descriptions and choices, from the same catalogs as every other text.

Command and option *names* stay English (they are typed); their descriptions and choice labels show in the
user's Discord language. The key is ``cmd:`` + the English text.
"""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from i18n import catalog, language_of

TRANSLATED = {Where.command_description, Where.group_description, Where.parameter_description, Where.choice_name}


def command_text(text: str, lang: str) -> str | None:
    message = catalog(lang).get("cmd:" + text)
    return str(message.string) if message is not None and message.string else None


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self, string: app_commands.locale_str, locale: Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        if context.location not in TRANSLATED:
            return None
        lang = language_of(locale.value)
        if lang == "en":
            return None
        return command_text(string.message, lang)
