# The bot in a container (docs/deploy.md, "Operating it" -> "A container").
# A first stage builds the virtual environment from pyproject.toml; the final stage holds that environment and the
# code only (no compiler, no pip cache, no tests), and runs as a user without privileges. Nothing secret is in the
# image: the token and the database's password come from the environment when the container starts.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1
RUN python -m venv /opt/venv
WORKDIR /build
# Only what the dependencies need: a change to the code does not rebuild this layer.
COPY pyproject.toml README.md ./
RUN /opt/venv/bin/pip install .

FROM ${PYTHON_IMAGE}
# The SQLite file (and the backups beside it) live in the /data volume, outside the image, and are the only place
# the bot writes; with DATABASE_URL set (PostgreSQL, as compose.yaml runs it) the volume holds the backups only.
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/westeros.sqlite3 \
    BACKUP_DIR=/data/backups
RUN useradd --system --uid 10001 --user-group --home-dir /app --no-create-home --shell /usr/sbin/nologin westeros \
    && mkdir -p /data/backups \
    && chown -R westeros:westeros /data
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
# The code stays owned by root: the bot's user may read it, not change it.
COPY bot.py i18n.py ./
COPY app ./app
COPY cogs ./cogs
COPY engine ./engine
COPY render ./render
COPY data ./data
COPY locales ./locales
USER westeros
VOLUME ["/data"]
CMD ["python", "bot.py"]
