#!/usr/bin/env bash
# Checks the Prometheus alerting rules and runs their unit tests (and checks the example
# scrape config that loads them). CI calls it; it needs promtool on PATH
# (Debian/Ubuntu: apt-get install -y prometheus) or its path in $PROMTOOL.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

promtool="${PROMTOOL:-promtool}"
if ! command -v "$promtool" >/dev/null 2>&1; then
  echo "check-prometheus-rules: promtool not found; install Debian's prometheus package or set PROMTOOL" >&2
  exit 2
fi

"$promtool" check rules deploy/prometheus/rules.yml
"$promtool" test rules deploy/prometheus/rules.test.yml
"$promtool" check config deploy/prometheus/prometheus.example.yml
