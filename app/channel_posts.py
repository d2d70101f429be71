"""What the game channel shows of each step: a table to read, not a log (issue U).

Each line a step narrates has a home:

- the message of its **phase**, opened by the phase's first line under its header and edited in place as the phase
  unfolds (an edit notifies nobody);
- the message of a **battle**, posted with the battle's image when the battle is decided; its lines are gathered from
  the attack on, and what follows the decision (casualties, retreat) is added to it until the battle ends;
- the message of a **bidding** (the Clash of Kings' tracks, the wildlings), posted when the bids are revealed, with
  what the bids decide;
- a message the table must look at: the orders revealed, with the board (it opens the Action phase's message), and
  the board at the end of the Action phase (or of the game), under which the next round's Westeros phase is told.

Per-house results in a row (supply, the Game of Thrones' Power, houses mustering nothing) read as one line. The full
step-by-step log is the publisher's business (a thread); this module only plans the channel, Discord-free: the
publisher sends the posts it returns as new and edits the ones it returns changed.
"""

from __future__ import annotations

import copy
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from app.labels import house_name
from app.narration import PHASE_OF_EVENT, Item, group_item, group_line, narrate, phase_header, with_attack
from i18n import t

MESSAGE_LIMIT = 2000  # Discord's limit on a message's content

BATTLE_STARTS = frozenset({"combat-started"})
BATTLE_DECIDED = frozenset({"combat-result", "neutral-attack"})
BATTLE_ENDS = frozenset({"combat-ended"})
BIDS_OPEN = frozenset({"bids-revealed"})
# What a bidding decides, told in the bidding's message while it is the latest one opened.
BIDS_FOLLOW = frozenset(
    {
        "bids-revealed",
        "track-set",
        "tie-broken",
        "bid-handout",
        "wildlings-result",
        "wildling-card",
        "wildling-bidder",
        "wildling-effect",
    }
)
# Results that belong to no phase: told where the step's other lines go (a bidding's, a battle's, a phase's).
ANY_PHASE = frozenset({"power-gained", "track-moved", "units-destroyed", "unit-upgraded", "power-lost"})
REVEAL = "orders-revealed"
BOARD_AFTER = frozenset({"action-cleanup", "game-over"})
# Told nowhere, between a battle's end and its vassal's reward.
QUIET_AFTER_BATTLE = frozenset({"vassal-cards-returned"})


@dataclass
class Entry:
    """One line, or one item of a line that gathers a per-house result (``item``: its group, its card)."""

    text: str
    group: str = ""
    item: Item | None = None


@dataclass
class Post:
    """One channel message: new until the publisher gives it its id."""

    kind: str  # "phase", "battle", "bids" or "board"
    entries: list[Entry] = field(default_factory=list)
    message_id: int | None = None
    area: str = ""  # a battle's area: its image is attached to it
    board: bool = False  # the whole board's image(s) are attached to it
    changed: bool = True  # its text is not what Discord shows yet

    def text(self, lang: str) -> str:
        return "\n".join(lines_of(self.entries, lang))


def lines_of(entries: list[Entry], lang: str) -> list[str]:
    """The entries as lines: consecutive items of one group make one line."""
    lines: list[str] = []
    items: list[Item] = []
    for i, entry in enumerate(entries):
        if not entry.group:
            lines.append(entry.text)
            continue
        items.append(entry.item or Item(entry.group, entry.text))
        following = entries[i + 1] if i + 1 < len(entries) else None
        if following is None or (following.group, _card(following)) != (entry.group, _card(entry)):
            lines.append(group_line(items, lang))
            items = []
    return lines


def _card(entry: Entry) -> str:
    return entry.item.card if entry.item else ""


def grouped(event: dict[str, Any], lang: str) -> Entry | None:
    """A per-house result said as an item of its group's line, or None when the event has a line of its own."""
    item = group_item(event, lang)  # the same groups as the log thread's (app.narration)
    if item is not None:
        return Entry(item.text, item.group, item)
    if event.get("type") == "power-gained" and event.get("reason") == "game-of-thrones":
        house = house_name(str(event.get("house")), lang) if event.get("house") else ""
        return Entry(t("channel.item.power", lang, house=house, count=int(event["gained"])), "game-of-thrones")
    return None


@dataclass
class Table:
    """What the channel shows of one game now: the messages still growing (stored with the rest of its ``Layout``)."""

    phase: str | None = None  # the phase whose header the channel has seen
    round: int = 0
    header_due: bool = False  # the next phase line opens a new message under the header
    phase_post: Post | None = None
    bids_post: Post | None = None
    battle: Post | None = None  # from the attack until the battle ends
    ended: Post | None = None  # the battle that just ended: a vassal's victory is rewarded after its end
    battle_shown: bool = False  # the battle's message is posted (it was decided)
    board_leads: bool = False  # the phase message is the board that ended a round: the next phase goes on in it

    def copy(self) -> Table:
        return copy.deepcopy(self)


@dataclass
class Layout:
    """What a game's channel and log thread show, as the publisher plans the next lines into them: the table of the
    channel's messages still growing, the phase whose header the log told last, the log thread's last message (its id
    and text: the next lines are added to it by an edit) and the items of the grouped line it ends with. Stored with
    each publication's channel part (``OutboxStore.channel_done``): a publisher that restarts, or another that takes
    over, goes on from it exactly as the one before would have."""

    table: Table = field(default_factory=Table)
    phase_shown: str | None = None
    open_text: tuple[int, str] | None = None
    log_carry: list[Item] = field(default_factory=list)

    def to_json(self) -> str:
        # A post the table names twice (none does now) stays one post: posts are stored once, named by place.
        posts: list[Post] = []

        def ref(post: Post | None) -> int | None:
            if post is None:
                return None
            for i, known in enumerate(posts):
                if known is post:
                    return i
            posts.append(post)
            return len(posts) - 1

        t_ = self.table
        table = {
            "phase": t_.phase,
            "round": t_.round,
            "header_due": t_.header_due,
            "battle_shown": t_.battle_shown,
            "board_leads": t_.board_leads,
            **{name: ref(getattr(t_, name)) for name in POST_SLOTS},
        }
        return json.dumps(
            {
                "table": table,
                "posts": [asdict(p) for p in posts],
                "phase_shown": self.phase_shown,
                "open_text": list(self.open_text) if self.open_text is not None else None,
                "log_carry": [asdict(i) for i in self.log_carry],
            },
            ensure_ascii=False,
            sort_keys=True,
        )

    @staticmethod
    def from_json(text: str) -> Layout:
        data = json.loads(text)
        posts = [_post(p) for p in data["posts"]]
        spec = data["table"]
        table = Table(
            phase=spec["phase"],
            round=int(spec["round"]),
            header_due=bool(spec["header_due"]),
            battle_shown=bool(spec["battle_shown"]),
            board_leads=bool(spec["board_leads"]),
            **{name: posts[spec[name]] if spec[name] is not None else None for name in POST_SLOTS},
        )
        open_text = data["open_text"]
        return Layout(
            table,
            data["phase_shown"],
            (int(open_text[0]), str(open_text[1])) if open_text is not None else None,
            [Item(**i) for i in data["log_carry"]],
        )


POST_SLOTS = ("phase_post", "bids_post", "battle", "ended")  # the table's messages still growing


def _post(spec: dict[str, Any]) -> Post:
    entries = [
        Entry(e["text"], e["group"], Item(**e["item"]) if e["item"] is not None else None) for e in spec["entries"]
    ]
    return Post(
        spec["kind"], entries, spec["message_id"], area=spec["area"], board=spec["board"], changed=spec["changed"]
    )


class Planner:
    """Routes one step's public events into the table's messages."""

    def __init__(self, table: Table, lang: str) -> None:
        self.table = table
        self.lang = lang
        self.touched: list[Post] = []  # in the order they were opened or changed
        self.phase_hint: str | None = None  # the game's phase after the step, for a table this process never saw

    def _touch(self, post: Post) -> None:
        post.changed = True
        if not any(p is post for p in self.touched):
            self.touched.append(post)

    def _add(self, post: Post, entry: Entry) -> Post:
        """``entry`` added to ``post``, or to a new post of its kind when ``post`` is full."""
        candidate = [*post.entries, entry]
        if post.entries and len("\n".join(lines_of(candidate, self.lang))) > MESSAGE_LIMIT:
            post = Post(post.kind, area=post.area)
        post.entries.append(entry)
        self._touch(post)
        return post

    def _header(self) -> list[Entry]:
        """The header of the phase being told; none when this process does not know it (a restart in mid-phase)."""
        phase = self.table.phase or self.phase_hint
        return [Entry(phase_header(self.table.round, phase, self.lang))] if phase and self.table.round else []

    def _to_phase(self, entry: Entry) -> None:
        table = self.table
        if table.phase_post is None or table.header_due:
            if table.phase_post is not None and table.board_leads:  # a round opens under the board ending the last
                for header in self._header():
                    table.phase_post = self._add(table.phase_post, header)
            else:
                table.phase_post = Post("phase", self._header())
            table.header_due = table.board_leads = False
        table.phase_post = self._add(table.phase_post, entry)

    def _open_phase(self, phase: str) -> None:
        # The raven is used after the orders are revealed: its lines belong to the Action phase's message.
        if self.table.phase == "action" and phase == "planning":
            return
        if phase != self.table.phase or self.table.phase_post is None:
            self.table.phase = phase
            self.table.header_due = True

    def step(self, events: list[dict[str, Any]], round_: int, phase_after: str | None) -> list[Post]:
        """Route a step's events (public ones; others are skipped) and return the posts it opened or changed."""
        table = self.table
        table.round = table.round or round_
        self.phase_hint = phase_after
        for event in with_attack(events):
            if "private_to" in event:
                continue
            self._event(event)
        if phase_after is not None and phase_after != table.phase and table.phase is not None:
            self._open_phase(phase_after)  # a phase that starts without an event of its own (planning)
        return self.touched

    def _event(self, event: dict[str, Any]) -> None:
        table = self.table
        kind = str(event.get("type"))
        if kind == "round-started":
            table.round = int(event["round"])
            table.phase = None
        event_phase = PHASE_OF_EVENT.get(kind)
        if event_phase is not None:
            self._open_phase(event_phase)
        entry = self._entry(event)
        if kind == REVEAL:
            table.phase, table.header_due, table.bids_post = "action", False, None
            table.phase_post = Post("phase", self._header(), board=True)
            if entry is not None:
                table.phase_post.entries.append(entry)
            self._touch(table.phase_post)
            return
        if kind in BOARD_AFTER:
            self._board(kind, entry)
            return
        if kind in BATTLE_STARTS:
            table.battle, table.battle_shown = Post("battle", area=str(event.get("area", ""))), False
        if table.battle is not None or kind in BATTLE_DECIDED:
            self._battle(event, kind, entry)
            return
        if kind == "power-gained" and event.get("reason") == "vassal-victory" and table.ended is not None:
            # The liege's Power for the battle its vassal won: told under that battle, not above it in the phase.
            if entry is not None:
                table.ended.entries.append(entry)
                self._touch(table.ended)
            return
        if kind not in QUIET_AFTER_BATTLE:
            table.ended = None
        if kind in BIDS_OPEN and table.bids_post is None:
            table.bids_post = Post("bids")
        if table.bids_post is not None and kind in BIDS_FOLLOW | ANY_PHASE:
            if entry is not None:
                table.bids_post = self._add(table.bids_post, entry)
            return
        if entry is not None:
            table.bids_post = None  # a line of another kind: the bidding is told
            self._to_phase(entry)

    def _entry(self, event: dict[str, Any]) -> Entry | None:
        group = grouped(event, self.lang)
        if group is not None:
            return group
        line = narrate(event, self.lang)
        return Entry(line) if line else None

    def _battle(self, event: dict[str, Any], kind: str, entry: Entry | None) -> None:
        table = self.table
        if table.battle is None:  # a neutral force attacked: a battle of one step
            table.battle, table.battle_shown = Post("battle", area=str(event.get("area", ""))), False
        battle = table.battle
        if kind in BATTLE_STARTS and entry is not None:
            self._to_phase(entry)  # the phase's message tells the attack; the battle's tells the rest
        if entry is not None:
            battle.entries.append(entry)
        if kind in BATTLE_DECIDED:
            battle.area = str(event.get("area", battle.area))
            table.battle_shown = True
        if table.battle_shown:
            self._touch(battle)
        if kind in BATTLE_ENDS or kind == "neutral-attack":
            table.battle, table.ended = None, battle

    def _board(self, kind: str, entry: Entry | None) -> None:
        """The end of the Action phase, or of the game (also in mid-phase, seven castles taken): a message with the
        whole board."""
        table = self.table
        post = next((p for p in self.touched if p.kind == "board" and p.message_id is None), None)
        if post is None:
            caption = [Entry(t("channel.round-ends", self.lang, round=table.round))] if kind == "action-cleanup" else []
            post = Post("board", caption, board=True)
            table.bids_post = None
        if entry is not None:
            post.entries.append(entry)
        self._touch(post)
        table.phase_post, table.board_leads = post, True


MAX_OUTCOME_LINES = 6  # under a battle's image: what a phone shows without scrolling past it


def battle_outcomes(events: list[dict[str, Any]], lang: str) -> dict[str, list[str]]:
    """By battle area, what followed each battle decided in the step, in the channel's words (losses, retreats, the
    cards' effects after the fight), for the battle's image."""
    out: dict[str, list[str]] = {}
    lines: list[str] | None = None
    for event in with_attack(events):
        kind = event.get("type")
        if kind in BATTLE_DECIDED:
            lines = out.setdefault(str(event.get("area")), [])
            continue
        if kind in BATTLE_ENDS or kind in BATTLE_STARTS:
            lines = None
        elif lines is not None and "private_to" not in event and len(lines) < MAX_OUTCOME_LINES:
            line = narrate(event, lang)
            if line:
                lines.append(line)
    return out


# Events saying only that a house answered a secret step (most answers of a game): nothing for the table.
SECRET_ANSWERS = frozenset({"orders-submitted", "bid-submitted", "house-card-chosen"})


def plan_step(
    table: Table, events: list[dict[str, Any]], lang: str, *, round_: int, phase_after: str | None
) -> tuple[Table, list[Post]]:
    """The table after a step and the posts the step opened or changed (new ones have no message id), in order. The
    table given is left as it was, so a step whose posting failed can be planned again."""
    if all(e.get("type") in SECRET_ANSWERS or "private_to" in e for e in events):
        return table, []  # most answers: no copy of the table
    after = table.copy()
    return after, Planner(after, lang).step(events, round_, phase_after)
