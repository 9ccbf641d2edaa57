# One image for both processes and the operators' commands (docs/operating.md); docker-compose.yml
# picks the command. Base images are pinned to exact versions, so rebuilding the image changes nothing
# that the commit did not.
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
# client/ (an npm workspace, the typed client package) stays out: npm ci skips a workspace that
# is not there, and nothing in the image uses it.
COPY package.json package-lock.json .npmrc ./
RUN npm ci --loglevel=error
COPY tsconfig.json tsconfig.build.json ./
COPY services services
COPY schemas schemas
COPY projector projector
COPY api api
COPY generator generator
COPY infra infra
COPY scripts scripts
RUN npx tsc -p tsconfig.build.json && npm prune --omit=dev

FROM node:24.21.0-bookworm-slim
ENV NODE_ENV=production API_HOST=0.0.0.0 OPS_HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY package.json ./
COPY scripts/api.node-flags scripts/projector.node-flags scripts/
USER node
EXPOSE 8080 9464 9465
# The API's heap cap, read from its one file (api/memoryBound.ts); the projector's service reads its own.
# `exec` leaves node as the container's main process, so it gets the stop signal.
CMD ["sh", "-c", "exec node $(cat scripts/api.node-flags) dist/api/main.js"]
