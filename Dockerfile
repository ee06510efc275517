# svc server image: `docker build -t svc . && docker run -p 9550:9550 -p 9551:9551 -v svc-data:/data svc`
FROM node:20-bookworm-slim AS build
# better-sqlite3 and re2 are native modules built from source.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ git ca-certificates \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# The client package is a workspace of this one: its manifest must be there for the install.
COPY clients/node/package.json ./clients/node/package.json
RUN npm ci --ignore-scripts && npm rebuild better-sqlite3 re2
COPY tsconfig.json ./
COPY proto ./proto
COPY scripts ./scripts
COPY bin ./bin
COPY clients/node ./clients/node
COPY src ./src
COPY test ./test
COPY bench ./bench
ARG SVC_COMMIT=unknown
RUN SVC_COMMIT=$SVC_COMMIT npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production SVC_DATA_DIR=/data SVC_PORT=9550 SVC_METRICS_PORT=9551
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY --from=build /app/proto ./proto
# node_modules/@svc/client links to the built client package.
COPY --from=build /app/clients/node/package.json ./clients/node/package.json
COPY --from=build /app/clients/node/dist ./clients/node/dist
COPY --from=build /app/clients/node/proto ./clients/node/proto
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 9550 9551
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s CMD ["node", "bin/svc.js", "wait", "--server", "127.0.0.1:9550", "--timeout", "2", "--quiet"]
CMD ["node", "bin/svc.js", "serve"]
