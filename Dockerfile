# syntax=docker/dockerfile:1
# Build stage: compile TypeScript with the dev dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
COPY src ./src
COPY test ./test
COPY bench ./bench
RUN npm ci --ignore-scripts && npx tsc -p tsconfig.json

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
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:9464/-/healthy').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "bin/coherency-exporter.js"]
CMD ["serve", "--host", "0.0.0.0"]
