# The storefront service image used by docker-compose.yml.
# The runtime stage copies every folder the server reads at run time (src/web/paths.ts);
# test/deploy/docker-image.spec.ts checks that, and starts the server from exactly these copies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
# npm 11 honours package.json's allowScripts (approved and refused install scripts) and .npmrc's strict mode.
RUN npm install -g npm@11.19.1
COPY package.json package-lock.json .npmrc ./
# The install's preinstall step (it refuses an npm that would ignore allowScripts).
COPY scripts/check-npm.js scripts/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/views ./views
COPY --from=build /app/public ./public
COPY --from=build /app/locales ./locales
COPY package.json ./
# DATA_DIR defaults to ./data (the SQLite file, unsent mail): the server's user must be able to write it.
RUN mkdir data && chown node:node data
USER node
EXPOSE 3000
# The heap limits keep the server within its memory budget (README, "Memory").
CMD ["node", "--max-old-space-size=160", "--max-semi-space-size=8", "dist/src/main.js"]
