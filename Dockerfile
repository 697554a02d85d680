# syntax=docker/dockerfile:1
# Node 24 is the current LTS; the code also runs on Node 20.19 and later (CI tests it on the
# machine's Node).
# Build stage: compile TypeScript with the dev dependencies, then bundle the command line
# (dist/cli, which the launcher loads in place of ~40 modules; see scripts/bundle.ts).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts/bundle.ts ./scripts/bundle.ts
RUN npm ci --ignore-scripts && npx tsc -p tsconfig.build.json && node --import tsx scripts/bundle.ts

# Runtime stage: production dependencies, the compiled daemon and its bundle only.
FROM node:24-bookworm-slim
# The release it is (package.json's version; a test keeps them equal): tag the image the same.
LABEL org.opencontainers.image.title="coherency-exporter" \
      org.opencontainers.image.version="0.2.0" \
      org.opencontainers.image.licenses="Apache-2.0"
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/dist/cli ./dist/cli
COPY bin ./bin
# No config/coherency.yaml: the image probes what you mount there (or name with
# COHERENCY_CONFIG, or OPENAI_BASE_URL), never the simulator demo by accident. Without one,
# serve says where to put it and exits 2; `serve --demo` runs the demo, from config/demo.yaml.
COPY config/example.yaml config/coherency.schema.json ./config/
COPY config/coherency.yaml ./config/demo.yaml
COPY grafana ./grafana
COPY LICENSE ./
# Stored runs (storage.dir, when the config leaves it out): a volume owned by node, so failing
# runs outlive the container. Mount your own there (-v coherency-runs:/var/lib/coherency) to
# keep them across `docker rm` and image upgrades.
RUN mkdir -p /var/lib/coherency && chown node:node /var/lib/coherency && chmod 700 /var/lib/coherency
ENV COHERENCY_STORAGE_DIR=/var/lib/coherency
VOLUME ["/var/lib/coherency"]
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
