# syntax=docker/dockerfile:1
# The console as a container: built and packaged by the same commands CI runs outside Docker
# (npm ci, npm run build, npm run package), run by the compiled server as an unprivileged user.
# Node.js is the release CI tests (.nvmrc), on Debian 13 (trixie), named by its exact version so
# that a rebuild takes the same runtime; apps/server/test/unit/packaging/container.test.ts holds these rules.

FROM node:24.21.0-trixie-slim AS build
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund \
 && npm run build \
 && npm run package -- /app

FROM node:24.21.0-trixie-slim
# tini is PID 1: it passes SIGTERM on to node and reaps orphans. PostgreSQL's client tools 17
# make npm run db:backup and db:restore work against a PostgreSQL server of version 17 or older
# (pg_dump must be at least the server's version).
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini postgresql-client-17 \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir /data && chown 1000:1000 /data && chmod 700 /data
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
# The installation belongs to root and is only read by the server: a compromised process cannot
# change the code it runs. The embedded database's folder /data is the one place it writes; mount
# a volume there to keep it (docs/operations.md); with DATABASE_URL nothing is written there.
COPY --from=build /app /app
WORKDIR /app
# A numeric user and group (the image's "node"): Kubernetes' runAsNonRoot can only verify a number.
USER 1000:1000
EXPOSE 3000
# A first start on a new embedded database creates and migrates it before it is ready: 6 s on a
# two-core machine, far longer on a starved one (docs/operations.md). Failures count only after
# 5 minutes; until then the check runs every 5 s, so a quick start is healthy within seconds.
HEALTHCHECK --interval=30s --timeout=5s --start-period=300s --start-interval=5s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/api/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
