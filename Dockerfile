# ScopaBot: the Discord bot for Scopa and Scopone.
#   docker build -t scopabot .
#   docker run -d --name scopabot --restart unless-stopped \
#       --env-file .env -v scopabot-data:/data scopabot
# (or `docker compose up -d --build` with compose.yaml). The token comes from .env, never the
# command line. The database lives on the /data volume, so an upgrade (a new image) keeps
# every game; leave SCOPABOT_DB out of .env here.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    SCOPABOT_DB=/data/scopabot.db \
    LOG_LEVEL=INFO

# FriBiDi (about 100 KB): Pillow's complex text layout loads it to shape Indic, Thai and Arabic
# names and draw flags as one glyph in the pictures (docs/pictures.md); without it they are
# drawn letter by letter.
RUN apt-get update && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY scopabot ./scopabot
COPY migrations ./migrations
COPY bot.py ./
RUN pip install --no-cache-dir '.[postgres]' \
    && useradd --create-home --uid 10001 scopa \
    && mkdir -p /data && chown scopa /data

USER scopa
VOLUME ["/data"]
# Back up while it runs: docker exec scopabot scopabot backup /data/scopabot.db /data/backups/
CMD ["python", "bot.py"]
