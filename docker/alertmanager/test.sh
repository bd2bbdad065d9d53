#!/usr/bin/env bash
# Tests docker/alertmanager/alertmanager.yml: every alert of gateway-rules.yml reaches the receiver its
# severity names (`amtool config routes test`), and one fault pages once: a real Alertmanager is given
# the alerts a fault raises and reports the follow-on ones inhibited by their cause.
# Needs amtool and prometheus-alertmanager (Debian: apt-get install prometheus-alertmanager).
set -euo pipefail
cd "$(dirname "$0")/../.."
config=docker/alertmanager/alertmanager.yml
rules=docker/prometheus/gateway-rules.yml
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

amtool check-config "$config" >/dev/null

# ---- routes: critical pages, warning opens a ticket, for every alert in the rules ----
declare -A receiver_of=([critical]=pager [warning]=tickets)
alerts=0
while read -r alert severity; do
  alerts=$((alerts + 1))
  expected=${receiver_of[$severity]:-}
  [ -n "$expected" ] || { fail "$alert: severity '$severity' has no receiver"; continue; }
  amtool config routes test --config.file="$config" --verify.receivers="$expected" \
    alertname="$alert" job=gateway instance=gateway-a:9464 severity="$severity" >/dev/null 2>&1 ||
    fail "$alert ($severity) is not routed to $expected"
done < <(awk '/- alert:/ { alert = $3 } /severity:/ && alert { print alert, $2; alert = "" }' "$rules")
[ "$alerts" -ge 10 ] || fail "found only $alerts alerts in $rules"
# an alert without a severity is a ticket, never a page
amtool config routes test --config.file="$config" --verify.receivers=tickets alertname=Unlabelled >/dev/null 2>&1 ||
  fail "an alert without severity is not a ticket"

# ---- inhibition, against a real Alertmanager ----
# written as plain text: console.log would colour the number under npm test's FORCE_COLOR
port=$(node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close() })")
work=$(mktemp -d)
prometheus-alertmanager --config.file="$config" --storage.path="$work" \
  --web.listen-address="127.0.0.1:$port" --cluster.listen-address= >"$work/log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$work"' EXIT
am=(amtool --alertmanager.url="http://127.0.0.1:$port")
for _ in $(seq 1 300); do
  "${am[@]}" config show >/dev/null 2>&1 && break
  sleep 0.1
done
"${am[@]}" config show >/dev/null || { cat "$work/log" >&2; exit 1; }

# alert NAME SEVERITY [LABEL=VALUE...]: raise an alert as Prometheus would
alert() {
  local name=$1 severity=$2
  shift 2
  "${am[@]}" alert add "alertname=$name" "severity=$severity" job=gateway "$@" \
    --annotation=runbook_url="https://runbooks.example/docs/operations.md#${name,,}" >/dev/null
}
# state NAME [LABEL=VALUE...]: "inhibited" or "active", as Alertmanager reports the alert
state() {
  local inhibited
  inhibited=$("${am[@]}" alert query --inhibited -o simple "alertname=$1" "${@:2}" | tail -n +2 | wc -l)
  if [ "$inhibited" -gt 0 ]; then echo inhibited; else echo active; fi
}
expect_state() {
  local want=$1
  shift
  local got
  got=$(state "$@")
  [ "$got" = "$want" ] || fail "$* is $got, expected $want"
}

# an upstream freeze: the cause pages, everything that follows from it is silenced
alert GatewayUpstreamDown critical
alert GatewayHighErrorRatio critical
alert GatewayFeedSilent critical
alert GatewayUpstreamSlow warning route=/api/common/getCoinList
alert GatewayInstanceNotReady warning instance=gateway-a:9464
expect_state active GatewayUpstreamDown
expect_state inhibited GatewayHighErrorRatio
expect_state inhibited GatewayFeedSilent
expect_state inhibited GatewayUpstreamSlow
expect_state inhibited GatewayInstanceNotReady
# the same alerts of another job are not this fault's
alert GatewayHighErrorRatio critical job=other
expect_state active GatewayHighErrorRatio job=other

# Redis down on two gateways: the lease's and the bus's consequences are silenced
alert GatewayRedisDown critical instance=gateway-a:9464
alert GatewayRedisDown critical instance=gateway-b:9464
alert GatewayFeedNoLeader critical
alert GatewayRedisMasterDown critical instance=gateway-a:9464
alert GatewaySocketsStarved critical
expect_state active GatewayRedisDown instance=gateway-b:9464
expect_state inhibited GatewayFeedNoLeader
expect_state inhibited GatewayRedisMasterDown
expect_state inhibited GatewaySocketsStarved
# and the channels of the lost master's shard, silent meanwhile
alert GatewayTopicsSilent critical
expect_state inhibited GatewayTopicsSilent
# silent topics with no cause firing (a stuck leader, a bus that drops a shard unnoticed) page
alert GatewayTopicsSilent critical job=other
expect_state active GatewayTopicsSilent job=other

# a fault with no cause above it still pages
alert GatewaySocketFlood warning
expect_state active GatewaySocketFlood

if [ "$failures" -gt 0 ]; then
  echo "$failures alertmanager check(s) failed" >&2
  exit 1
fi
echo "alertmanager: $alerts alerts routed by severity; inhibition holds"
