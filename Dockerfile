# syntax=docker/dockerfile:1
# The console as a container: built and packaged by the same commands CI runs outside Docker
# (npm ci, npm run build, npm run package), run by the compiled server as an unprivileged user.

FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund \
 && npm run build \
 && npm run package -- /app

FROM node:20-bookworm-slim
# tini is PID 1: it passes SIGTERM on to node and reaps orphans. The PostgreSQL client tools make
# npm run db:backup and db:restore work against a PostgreSQL server (their version must be at
# least the server's).
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini postgresql-client \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir /data && chown node:node /data
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
COPY --from=build --chown=node:node /app /app
WORKDIR /app
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/api/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
