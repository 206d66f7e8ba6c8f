# The Provena server image (one image, three roles: `provena serve`, `provena work`, or the
# embedded default `npm start`). Built by compose.yaml; see docs/deploy.md.
FROM node:24-bookworm-slim
# Certificate fonts (CJK TrueType; see docs/proof-format.md) and git for source-code projects.
RUN apt-get update \
 && apt-get install -y --no-install-recommends fonts-arphic-gbsn00lp fonts-wqy-zenhei git ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
RUN mkdir -p /var/lib/provena && chown node:node /var/lib/provena
ENV NODE_ENV=production DATA_DIR=/var/lib/provena APP_DIR=/app/dist/app HOST=0.0.0.0 PORT=8080
USER node
EXPOSE 8080
ENTRYPOINT ["node", "bin/provena.ts"]
CMD ["serve"]
