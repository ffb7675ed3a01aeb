#!/bin/sh
# The bytes the table page's files cost on the wire, sent plain and gzipped (docs/server.md, "HTTP"),
# from a running `skitgubbe serve`: sh benchmarks/static_bytes.sh [http://127.0.0.1:8000]
B=${1:-http://127.0.0.1:8000}
for enc in identity gzip; do
  total=0
  for f in / /static/table.js /static/render.js /static/motion.js /static/builder.js /static/cards.js \
           /static/replay.js /static/taps.js /static/i18n.js /static/lobby.js /static/howto.js /static/coach.js \
           /static/lessons.js /static/table.css /static/favicon.svg /static/manifest.webmanifest \
           /api/catalog/sv; do
    n=$(curl -s -o /dev/null -w '%{size_download}' -H "Accept-Encoding: $enc" "$B$f")
    total=$((total + n))
  done
  echo "$enc: $total bytes"
done
