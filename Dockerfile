# syntax=docker/dockerfile:1
# Build stage: compile TypeScript with the dev dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm ci --ignore-scripts && npx tsc -p tsconfig.build.json

# Runtime stage: production dependencies and the compiled daemon only.
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist/src ./dist/src
COPY bin ./bin
COPY config ./config
COPY grafana ./grafana
USER node
EXPOSE 9464
# Asks /-/healthy on the port of the config serve picks ($COHERENCY_CONFIG or the default;
# set the config by COHERENCY_CONFIG rather than --config so both see the same file).
# A --port given to serve must be given here too: override HEALTHCHECK in that case.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "bin/coherency-exporter.js", "healthcheck", "--timeout", "3"]
# node is PID 1 (no npm, no shell): SIGTERM reaches the daemon, which stops its probes and
# exits within 10 s; SIGHUP reloads the config.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "bin/coherency-exporter.js"]
CMD ["serve", "--host", "0.0.0.0"]
