# syntax=docker/dockerfile:1
# ERP lookups in Slack, for production. Two stages: `build` compiles src/ to dist/ with the
# dev dependencies; the final image holds only the production dependencies and dist/, and
# runs as the unprivileged `node` user. Configuration comes from the environment (see
# .env.example); no secret is baked into the image.
#
#   docker build -t erp-lookups-slack .
#   docker run --env-file .env -p 3000:3000 -v erp-lookups-data:/app/data erp-lookups-slack
#
# The volume keeps the embedded watches database (DATA_DIR) across containers; with
# DATABASE_URL set the watches live in PostgreSQL and the volume stays empty.

ARG NODE_IMAGE=node:24-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the build below is explicit (no `prepare` hook needed here).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npx tsc -p tsconfig.build.json

FROM ${NODE_IMAGE}
ENV NODE_ENV=production PORT=3000 MALLOC_ARENA_MAX=2
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only; dist/ comes from the build stage, so no script needs to run.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# Files stay owned by root: the app can read its code but not change it. The one exception is
# DATA_DIR (./data, so /app/data), where the embedded watches database keeps its file: owned by
# `node`, and a volume, so that watches are writable and outlive the container even in a plain
# `docker run` (mount a named volume there to keep them across images: see the top).
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME /app/data
USER node
EXPOSE 3000
# Liveness only (/healthz); orchestrators route on GET /readyz (docs/operations.md, "Health endpoints").
# HOST is left unset: the app listens on every address, as it must to be reached in a container.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The same entry point as `npm start`; SIGTERM drains in-flight answers, then exits.
CMD ["node", "--max-semi-space-size=2", "--heap-growing-percent=10", "--optimize-for-size", "--v8-pool-size=1", "--liftoff-only", "--enable-source-maps", "dist/main.js"]
