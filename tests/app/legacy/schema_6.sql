-- The schema of a database made before Alembic, at PRAGMA user_version = 6 (the hand-kept migrations 1 to 6),
-- read back from such a file (sqlite_master, in the order it was made).
CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        created_by INTEGER NOT NULL,
        created_at REAL NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'paused', 'ended')),
        settings TEXT NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        updated_at REAL NOT NULL
    , status_message_id INTEGER);
CREATE INDEX games_by_channel ON games (channel_id, status);
CREATE TABLE lobby (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        joined_at REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        house TEXT NOT NULL,
        user_id INTEGER,
        PRIMARY KEY (game_id, house)
    );
CREATE INDEX seats_by_user ON seats (user_id);
CREATE TABLE answers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        house TEXT NOT NULL,
        user_id INTEGER,
        prompt_id TEXT NOT NULL,
        answer TEXT NOT NULL,
        source TEXT NOT NULL,
        at REAL NOT NULL, events TEXT NOT NULL DEFAULT '[]',
        UNIQUE (game_id, version)
    );
CREATE TABLE snapshots (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (game_id, version)
    );
CREATE TABLE dm_status (
        user_id INTEGER PRIMARY KEY,
        closed INTEGER NOT NULL,
        updated_at REAL NOT NULL
    );
CREATE TABLE deadlines (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        step_key TEXT NOT NULL,
        category TEXT NOT NULL,
        opened_at REAL NOT NULL,
        due_at REAL NOT NULL,
        paused_remaining REAL
    );
CREATE TABLE missed_deadlines (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        house TEXT NOT NULL,
        in_a_row INTEGER NOT NULL,
        PRIMARY KEY (game_id, house)
    );
CREATE TABLE vacations (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        house TEXT NOT NULL,
        until REAL NOT NULL,
        days_used REAL NOT NULL,
        PRIMARY KEY (game_id, house)
    );
CREATE TABLE user_locales (
        user_id INTEGER PRIMARY KEY,
        locale TEXT NOT NULL,
        updated_at REAL NOT NULL
    );
