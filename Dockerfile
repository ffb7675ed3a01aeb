# skitgubbe serve in a container (docs/server.md, "Running it as a service").
#
#   docker build -t skitgubbe .
#   docker run -p 8000:8000 -v skitgubbe-data:/data skitgubbe      # SQLite in the volume /data
#   docker compose up                                               # with PostgreSQL: compose.yaml
#
# Two stages: the first compiles the optional engine in ./native (g++ and cmake, as `make` does, via
# scikit-build-core and nanobind) and installs the package with its 'server' extra into a virtual
# environment; the second copies that environment onto the same base image, without the compilers.

FROM python:3.11-slim-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends g++ cmake make \
 && rm -rf /var/lib/apt/lists/*
RUN python -m venv /opt/skitgubbe
ENV PATH=/opt/skitgubbe/bin:$PATH PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY src ./src
COPY native ./native
# not editable (-e): the environment is copied on its own into the next stage
RUN pip install '.[server]' && pip install ./native \
 && python -c "import skitgubbe_native"

FROM python:3.11-slim-bookworm
COPY --from=build /opt/skitgubbe /opt/skitgubbe
ENV PATH=/opt/skitgubbe/bin:$PATH PYTHONUNBUFFERED=1
# a user of its own, not root; /data holds the SQLite file when no --db is given
RUN useradd --system --uid 10001 --user-group --home-dir /data --create-home skitgubbe
USER skitgubbe
WORKDIR /data
VOLUME /data
EXPOSE 8000
# 200 while the database answers and this server holds its lease, else 503 (or no answer): unhealthy.
# The slim image has no curl; Python's own urllib raises for a 503, so the check exits non-zero.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4)"]
# --host 0.0.0.0: inside a container 127.0.0.1 is the container's own loopback, which the published
# port does not reach.  --public-url: the address people open the site at; the server answers only
# requests whose Host header is an IP address, localhost or a --public-url host, and the page's
# websocket only from its own origin (docs/server.md, "The Origin check").  http://localhost:8000 is
# right for `docker run -p 8000:8000` on this machine; give your own address (and --trust-proxy for
# the reverse proxy in front) by overriding the command, as compose.yaml does.  SIGTERM (docker stop)
# stops the server cleanly and gives the database's lease back, so the next start is immediate.
CMD ["skitgubbe", "serve", "--host", "0.0.0.0", "--port", "8000", "--db", "sqlite:////data/skitgubbe-server.db", "--public-url", "http://localhost:8000"]
