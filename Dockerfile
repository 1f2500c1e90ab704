# Block Wars Discord bot. Build: docker build -t blockwars .
# Run:   docker run -d --env-file .env -v blockwars-data:/data blockwars
# First run (push the slash commands): docker run --rm --env-file .env -v blockwars-data:/data blockwars python bot.py --sync
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/blockwars.db

WORKDIR /app

# Runtime dependencies only, pinned by the same constraints file the tests use.
COPY constraints.txt ./
RUN pip install -c constraints.txt "discord.py" aiosqlite pillow python-dotenv orjson

# A user without a login shell or root rights owns the data directory.
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin blockwars \
    && mkdir -p /data && chown blockwars:blockwars /data

COPY bot.py settings.py ./
COPY cogs ./cogs
COPY console ./console
COPY play ./play
COPY data ./data
COPY engine ./engine
COPY render ./render

USER blockwars
VOLUME ["/data"]

# No token here: pass DISCORD_TOKEN at run time (--env-file .env or -e DISCORD_TOKEN=...).
CMD ["python", "bot.py"]
