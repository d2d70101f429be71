"""Words drawn on the images, in English and Russian."""

from __future__ import annotations

from render.data import house_cards, houses, westeros_cards

TEXT: dict[str, dict[str, str]] = {
    "round": {"en": "Round {n} of {total}", "ru": "Раунд {n} из {total}"},
    "phase.westeros": {"en": "Westeros phase", "ru": "Фаза Вестероса"},
    "phase.planning": {"en": "Planning phase", "ru": "Фаза замыслов"},
    "phase.action": {"en": "Action phase", "ru": "Фаза действий"},
    "phase.ended": {"en": "Game over", "ru": "Игра окончена"},
    "waiting": {"en": "Waiting for", "ru": "Ждём ходов"},
    "round_short": {"en": "Round {n}/{total}", "ru": "Раунд {n}/{total}"},
    "wildlings_short": {"en": "Wildlings {n}/12", "ru": "Одичалые {n}/12"},
    "westeros_short": {"en": "Westeros", "ru": "Вестерос"},
    "forbidden_short": {"en": "Forbidden", "ru": "Запрещено"},
    "castles": {"en": "Castles", "ru": "Замки"},
    "supply": {"en": "Supply", "ru": "Снабжение"},
    "armies": {"en": "Armies allowed", "ru": "Армии (макс.)"},
    "power_col": {"en": "Power", "ru": "Власть"},
    "legend.home": {"en": "home area (house crest)", "ru": "родная земля (герб)"},
    "legend.pieces": {"en": "Pieces", "ru": "Фишки"},
    "legend.board": {"en": "Board", "ru": "Поле"},
    "winner": {"en": "Winner: {house}", "ru": "Победитель: {house}"},
    "private": {"en": "PRIVATE: {house} only", "ru": "ЛИЧНОЕ: только {house}"},
    "private.note": {"en": "your own orders are shown face up", "ru": "ваши приказы показаны открытыми"},
    "westeros": {"en": "Westeros cards this round", "ru": "Карты Вестероса в этом раунде"},
    "restricted": {"en": "Forbidden this round:", "ru": "Запрещено в этом раунде:"},
    "wildlings": {"en": "Wildling threat", "ru": "Угроза одичалых"},
    "tracks": {"en": "Influence tracks", "ru": "Треки влияния"},
    "track.iron_throne": {"en": "Iron Throne", "ru": "Железный трон"},
    "track.fiefdoms": {"en": "Fiefdoms", "ru": "Вотчины"},
    "track.kings_court": {"en": "King's Court", "ru": "Королевский двор"},
    "dom.iron_throne": {"en": "Iron Throne", "ru": "Железный трон"},
    "dom.valyrian_steel_blade": {"en": "Valyrian Steel Blade", "ru": "Валирийский меч"},
    "dom.messenger_raven": {"en": "Messenger Raven", "ru": "Посыльный ворон"},
    "used": {"en": "used", "ru": "использован"},
    "ready": {"en": "ready", "ru": "готов"},
    "stars": {"en": "star orders", "ru": "особые приказы"},
    "houses": {"en": "Houses", "ru": "Дома"},
    "col.power": {"en": "Power", "ru": "Власть"},
    "col.supply": {"en": "Supply", "ru": "Снабж."},
    "col.castles": {"en": "Castles", "ru": "Замки"},
    "col.cards": {"en": "Cards", "ru": "Карты"},
    "hidden": {"en": "?", "ru": "?"},
    "hands": {"en": "House cards in hand", "ru": "Карты домов на руке"},
    "legend": {"en": "Legend", "ru": "Обозначения"},
    "routed": {"en": "routed (lying down)", "ru": "разбит (лежит)"},
    "hidden_order": {"en": "order, face down", "ru": "скрытый приказ"},
    "sea_order": {"en": "sea order (Mother of Dragons)", "ru": "морской приказ («Мать драконов»)"},
    "power_token": {"en": "power token", "ru": "жетон власти"},
    "garrison": {"en": "garrison", "ru": "гарнизон"},
    "neutral": {"en": "neutral force", "ru": "нейтральное войско"},
    "impassable": {"en": "impassable", "ru": "непроходимо"},
    "river": {"en": "river: no passage", "ru": "река: прохода нет"},
    "castle": {"en": "castle", "ru": "замок"},
    "stronghold": {"en": "stronghold", "ru": "крепость"},
    "barrel": {"en": "supply", "ru": "снабжение"},
    "crown": {"en": "power", "ru": "власть"},
    "star": {"en": "star order", "ru": "особый приказ"},
    "order.march": {"en": "March", "ru": "Поход"},
    "order.defense": {"en": "Defense", "ru": "Оборона"},
    "order.support": {"en": "Support", "ru": "Подмога"},
    "order.raid": {"en": "Raid", "ru": "Набег"},
    "order.consolidate": {"en": "Consolidate Power", "ru": "Сбор власти"},
    "unit.footman": {"en": "Footman", "ru": "Пехотинец"},
    "unit.knight": {"en": "Knight", "ru": "Рыцарь"},
    "unit.ship": {"en": "Ship", "ru": "Корабль"},
    "unit.siege-engine": {"en": "Siege engine", "ru": "Осадная башня"},
    "battle": {"en": "Battle for {area}", "ru": "Битва за {area}"},
    "attacker": {"en": "Attacker", "ru": "Нападающий"},
    "defender": {"en": "Defender", "ru": "Защитник"},
    "neutral_side": {"en": "Neutral force", "ru": "Нейтральное войско"},
    "b.units": {"en": "Units", "ru": "Войска"},
    "b.from": {"en": "from {area}", "ru": "из: {area}"},
    "b.support": {"en": "Support", "ru": "Подмога"},
    "b.undecided": {"en": "Support not yet decided: {areas}", "ru": "Подмога ещё не решена: {areas}"},
    "b.card": {"en": "House card", "ru": "Карта дома"},
    "b.card_hidden": {"en": "not revealed", "ru": "не вскрыта"},
    "b.garrison": {"en": "Garrison", "ru": "Гарнизон"},
    "b.defense": {"en": "Defense order", "ru": "Приказ обороны"},
    "b.march": {"en": "March order", "ru": "Приказ похода"},
    "b.blade": {"en": "Valyrian Steel Blade", "ru": "Валирийский меч"},
    "b.tides": {"en": "Tides of Battle", "ru": "Превратности войны"},
    "b.total": {"en": "Total", "ru": "Итого"},
    "b.winner": {"en": "Winner: {side}", "ru": "Победил: {side}"},
    "b.none": {"en": "none", "ru": "нет"},
    # Mother of Dragons vassals (render/vassals.py)
    "vassal": {"en": "vassal", "ru": "вассал"},
    "vassal_of": {"en": "vassal of {house}", "ru": "вассал дома {house}"},
    "vassal_row": {"en": "Vassal of", "ru": "Вассал дома"},
    "vassal.unclaimed": {"en": "unclaimed", "ru": "ничей"},
    "leaving": {"en": "leaving", "ru": "уходит"},
    "legend.vassal": {"en": "vassal, in its liege's colour", "ru": "вассал, в цвете сюзерена"},
}

# Every step a view may name (engine/views.py: the top frame's type, or the Action phase's stage). A step that says
# nothing more than its phase ("planning" in the Planning phase) is left out by phase_line.
STEP_NAMES: dict[str, dict[str, str]] = {
    "planning": {"en": "assign orders", "ru": "отдача приказов"},
    "raven": {"en": "messenger raven", "ru": "посыльный ворон"},
    "raid": {"en": "raids", "ru": "набеги"},
    "march": {"en": "marches", "ru": "походы"},
    "combat": {"en": "combat", "ru": "битва"},
    "card-ability": {"en": "combat", "ru": "битва"},
    "consolidate": {"en": "consolidate power", "ru": "сбор власти"},
    "consolidate-choice": {"en": "consolidate power", "ru": "сбор власти"},
    "cleanup": {"en": "end of the phase", "ru": "завершение"},
    "bidding": {"en": "bidding", "ru": "торги"},
    "clash": {"en": "clash of kings", "ru": "битва королей"},
    "muster": {"en": "mustering", "ru": "сбор войск"},
    "reconcile": {"en": "supply", "ru": "снабжение"},
    "westeros": {"en": "Westeros cards", "ru": "карты Вестероса"},
    "westeros-choice": {"en": "Westeros cards", "ru": "карты Вестероса"},
    "wildlings": {"en": "wildling attack", "ru": "нашествие одичалых"},
    "wildling-choice": {"en": "wildling attack", "ru": "нашествие одичалых"},
    "wildling-units": {"en": "wildling attack", "ru": "нашествие одичалых"},
}

# Russian titles of the Westeros cards the data files give only in English.
WESTEROS_RU: dict[str, str] = {
    "last-days-of-summer": "Последние дни лета",
    "a-throne-of-blades": "Трон из клинков",
    "winter-is-coming": "Зима близко",
    "dark-wings-dark-words": "Тёмные крылья, тёмные слова",
    "put-to-the-sword": "Предать мечу",
    "storm-of-swords": "Буря мечей",
    "rains-of-autumn": "Осенние дожди",
    "sea-of-storms": "Море штормов",
    "web-of-lies": "Паутина лжи",
    "feast-for-crows": "Пир для воронов",
}


def t(key: str, lang: str, **kw: object) -> str:
    entry = TEXT[key]
    return (entry.get(lang) or entry["en"]).format(**kw)


def house_name(house: str, lang: str) -> str:
    h = houses().get(house)
    if h is None:
        return house.replace("-", " ").title()
    names: dict[str, str] = h["names"]
    return names.get(lang) or names["en"]


def step_name(step: str, lang: str) -> str:
    """The step in the reader's language; an unknown step is not shown at all (never its id)."""
    entry = STEP_NAMES.get(step)
    return (entry.get(lang) or entry["en"]) if entry else ""


def westeros_card_name(card: str, lang: str) -> str:
    c = westeros_cards().get(card)
    if c is None:
        return card.replace("-", " ").capitalize()
    names: dict[str, str] = c["names"]
    if lang == "ru":
        return names.get("ru") or WESTEROS_RU.get(card) or names["en"]
    return names["en"]


def house_card_name(card: str, lang: str) -> str:
    c = house_cards().get(card)
    if c is None:
        return card.replace("-", " ").title()
    names: dict[str, str] = c["names"]
    return names.get(lang) or names["en"]
