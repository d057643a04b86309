# syntax=docker/dockerfile:1

# Build stage: full dependencies (the Nest CLI and TypeScript) to compile src/ into dist/.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
RUN npm run build

# Production dependencies, in a stage of their own: the runtime stage takes node_modules and
# nothing of npm's cache or logs. --omit=optional leaves out TypeScript (23 MB), an optional peer
# of viem, abitype and ox that npm installs otherwise and the service never loads; no production
# package needs its install script (@scarf/scarf's only reports the install to its vendor).
# test/deploy/image.e2e-spec.ts checks both, and that nothing else is left out.
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund

# Runtime stage: production dependencies and the compiled output only, owned by root and run as
# the unprivileged `node` user (uid 1000) of the official image.
FROM node:24-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# NFT_STORAGE_DIR's default, the one place the service writes; mount a volume there to keep the
# files (the root filesystem can then be read-only).
RUN mkdir -p /app/nft-storage && chown node:node /app/nft-storage
USER node
EXPOSE 3000
# Liveness through the service's own GET /health; node does the request (slim has no curl).
HEALTHCHECK --interval=10s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "require('http').get({host:'127.0.0.1',port:process.env.PORT||3000,path:'/health',timeout:4000},r=>process.exit(r.statusCode===200?0:1)).on('timeout',()=>process.exit(1)).on('error',()=>process.exit(1))"]
# The same command .ci/run smoke-tests (npm run start:prod). Node is PID 1 and handles SIGTERM:
# it finishes accepted requests, closes Redis and exits 0 within SHUTDOWN_TIMEOUT_MS.
CMD ["node", "dist/main.js"]
