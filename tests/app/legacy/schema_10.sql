-- The schema of a database made before Alembic, at PRAGMA user_version = 10 (the hand-kept migrations 1 to 10),
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
        at REAL NOT NULL, events TEXT NOT NULL DEFAULT '[]', command_key TEXT,
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
CREATE TRIGGER games_ended_prune_snapshots AFTER UPDATE OF status ON games
    WHEN NEW.status = 'ended' BEGIN
        DELETE FROM snapshots WHERE game_id = NEW.id
            AND version > (SELECT MIN(version) FROM snapshots WHERE game_id = NEW.id)
            AND version < NEW.version
            AND version NOT IN (SELECT version FROM answers WHERE game_id = NEW.id AND prompt_id = 'repair');
    END;
CREATE TABLE outbox (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        version INTEGER NOT NULL,
        kind TEXT NOT NULL DEFAULT 'step',
        sent TEXT NOT NULL DEFAULT '',
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, version, kind)
    );
CREATE UNIQUE INDEX answers_by_command_key ON answers (game_id, command_key) WHERE command_key IS NOT NULL;
CREATE VIEW answer_commits AS SELECT
        NULL AS game_id, NULL AS expected_version, NULL AS new_version, NULL AS state, NULL AS status,
        NULL AS house, NULL AS user_id, NULL AS prompt_id, NULL AS answer, NULL AS source, NULL AS at,
        NULL AS events, NULL AS snapshot, NULL AS ends_run_of, NULL AS command_key
    WHERE 0;
CREATE TRIGGER answer_commits_insert INSTEAD OF INSERT ON answer_commits BEGIN
        SELECT RAISE(ABORT, 'version-conflict')
            WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = NEW.game_id AND version = NEW.expected_version);
        UPDATE games SET state = NEW.state, version = NEW.new_version, updated_at = NEW.at,
            status = COALESCE(NEW.status, status)
            WHERE id = NEW.game_id;
        INSERT INTO answers (game_id, version, house, user_id, prompt_id, answer, source, at, events, command_key)
            VALUES (NEW.game_id, NEW.new_version, NEW.house, NEW.user_id, NEW.prompt_id, NEW.answer, NEW.source,
                NEW.at, NEW.events, NEW.command_key);
        INSERT OR REPLACE INTO snapshots (game_id, version, state)
            SELECT NEW.game_id, NEW.new_version, NEW.state WHERE NEW.snapshot;
        DELETE FROM missed_deadlines WHERE game_id = NEW.game_id AND house = NEW.ends_run_of;
        INSERT OR REPLACE INTO outbox (game_id, version, created_at) VALUES (NEW.game_id, NEW.new_version, NEW.at);
    END;
CREATE TABLE commands (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        name TEXT NOT NULL,
        by_user INTEGER,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, key)
    );
CREATE TABLE notices (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        after_version INTEGER NOT NULL,
        payload TEXT NOT NULL,
        created_at REAL NOT NULL
    );
CREATE INDEX notices_by_game ON notices (game_id, id);
CREATE TABLE lobby_picks (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        house TEXT NOT NULL,
        picked_at REAL NOT NULL,
        PRIMARY KEY (game_id, user_id),
        UNIQUE (game_id, house),
        FOREIGN KEY (game_id, user_id) REFERENCES lobby (game_id, user_id) ON DELETE CASCADE
    );
