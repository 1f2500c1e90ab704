# The wargames Discord bot. Build: docker build --build-arg COMMIT=$(git rev-parse HEAD) -t wargames .
# Run:   docker run -d --env-file .env -v wargames-data:/data wargames
# First run (push the slash commands): docker run --rm --env-file .env -v wargames-data:/data wargames python bot.py --sync
FROM python:3.11.7-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATA_DIR=/data \
    DATA_DIR_DEFAULT=/data

WORKDIR /app

# Runtime dependencies only: the list in pyproject.toml, pinned by the constraints file the tests use.
COPY pyproject.toml constraints.txt ./
COPY scripts/requirements.py ./scripts/
RUN python scripts/requirements.py > /tmp/requirements.txt \
    && pip install -c constraints.txt -r /tmp/requirements.txt

# A user without a login shell or root rights owns the data directory.
RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin wargames \
    && mkdir -p /data && chown wargames:wargames /data

COPY bot.py settings.py ./
COPY cogs ./cogs
COPY console ./console
COPY play ./play
COPY data ./data
COPY engine ./engine
COPY render ./render

# The commit this image was built from: the image has no .git, and each record of a game against the
# AI names the program its AI ran (engine/program.py, docs/fairness.md). Left out: "an unknown commit".
ARG COMMIT=""
RUN printf '%s\n' "$COMMIT" > COMMIT

USER wargames
VOLUME ["/data"]

# Healthy means connected to Discord: the bot notes it every 20 s beside its database.
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 CMD ["python", "bot.py", "--health"]

# No token here: pass DISCORD_TOKEN at run time (--env-file .env or -e DISCORD_TOKEN=...).
CMD ["python", "bot.py"]
