# syntax=docker/dockerfile:1

# The base image of every stage, pinned by digest: `node:24-slim` alone is a moving tag, so two
# builds of one commit could run different Node or Debian patches. Refresh it deliberately:
#   docker buildx imagetools inspect node:24-slim   (the index digest, all platforms)
# and check the image in a build before committing. This digest was taken from public projects
# pinning node:24-slim (2025-08), not looked up in the registry from the machine that wrote it;
# a wrong digest fails the build loudly. test/deploy checks every FROM carries @sha256.
ARG NODE_IMAGE=node:24-slim@sha256:a9f5f7c91a432850b2a8a7797adf5eadb6c733ceed61167806cee7ea7fbc29df

# Build stage: full dependencies (the Nest CLI and TypeScript) to compile src/ into dist/.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
RUN npm run build

# Production dependencies, in a stage of their own: the runtime stage takes node_modules and
# nothing of npm's cache or logs. --omit=optional leaves out TypeScript (23 MB), an optional peer
# of viem, abitype and ox that npm installs otherwise and the service never loads, and
# msgpackr-extract, the optional native encoder of BullMQ's msgpackr (it encodes in JavaScript
# without it); no production
# package needs its install script (@scarf/scarf's only reports the install to its vendor).
# test/deploy/image.e2e-spec.ts checks both, and that nothing else is left out.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund

# Runtime stage: production dependencies and the compiled output only, owned by root and run as
# the unprivileged `node` user (uid 1000) of the official image.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# NFT_STORAGE_DIR's default, the one place the service writes; mount a volume there to keep the
# files (the root filesystem can then be read-only).
RUN mkdir -p /app/nft-storage /app/.node-compile-cache \
  && chown node:node /app/nft-storage /app/.node-compile-cache
USER node
# The V8 code of the modules a boot loads, compiled once here and read back at every start
# (src/compile-cache.ts): about 120 ms less boot. Filled as `node`, since Node keys the cache
# by user; a read-only root filesystem only stops it taking modules first loaded later.
ENV NODE_COMPILE_CACHE=/app/.node-compile-cache
RUN node -e "require('./dist/bootstrap')"
EXPOSE 3000
# Liveness through the service's own GET /health; node does the request (slim has no curl).
HEALTHCHECK --interval=10s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "require('http').get({host:'127.0.0.1',port:process.env.PORT||3000,path:'/health',timeout:4000},r=>process.exit(r.statusCode===200?0:1)).on('timeout',()=>process.exit(1)).on('error',()=>process.exit(1))"]
# The same command .ci/run smoke-tests (npm run start:prod, the one place it is written; the image
# spec checks they agree). Node is PID 1 and handles SIGTERM: it finishes accepted requests,
# closes Redis and exits 0 within SHUTDOWN_TIMEOUT_MS. --max-semi-space-size=16 sizes V8's young
# generation so that a request's objects die in it: less CPU and memory after load, lower p99
# (docs/performance.md).
CMD ["node", "--max-semi-space-size=16", "dist/main.js"]
