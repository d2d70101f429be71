"""Moved to the top-level ``i18n`` module (the catalogs sit below app and render); kept while callers move."""

from i18n import LANGUAGES, LOCALES_DIR, catalog, has, language_of, t, tn, translations

__all__ = ["LANGUAGES", "LOCALES_DIR", "catalog", "has", "language_of", "t", "tn", "translations"]
