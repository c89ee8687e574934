# hubwatch: one image for every role (migrate, scheduler, worker, serve, run); the command picks it.
# Build: docker build -t hubwatch .   Run: see docker-compose.yml and docs/OPERATIONS.md.

# Stage 1: production dependencies only (the patch-package postinstall needs patches/ and scripts/).
FROM node:22-alpine AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
COPY scripts ./scripts
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# Stage 2: the runtime, as the unprivileged `node` user; sources run through tsx (no build step).
FROM node:22-alpine
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    HUBWATCH_DATA_DIR=/data
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --chown=node:node package.json ./
COPY --chown=node:node bin ./bin
COPY --chown=node:node src ./src
COPY --chown=node:node jobs ./jobs
COPY --chown=node:node migrations ./migrations
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080 9464
# /healthz of `serve` (PORT) or of a worker/scheduler with HUBWATCH_HEALTH_PORT set.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.HUBWATCH_HEALTH_PORT || process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "bin/hubwatch.js"]
CMD ["serve"]
