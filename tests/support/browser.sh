#!/bin/sh
# A "browser" for the OAuth tests: no person, no window. mcpctl runs it as
# $BROWSER with the authorization URL as $1. It GETs that URL without
# following redirects, then GETs the Location it was sent to (mcpctl's
# loopback listener), which completes the sign-in.
#
#   BROWSER=tests/support/browser.sh mcpctl login NAME
#   BROWSER_LOG=/tmp/urls  # optional: append each URL given, one a line
#
# Exits 0 once the redirect target answered (any status), 1 when the
# authorization server did not redirect (its answer goes to stderr), 2 on
# bad usage. python3 is one of the tools tests/run.sh requires.
[ $# -ge 1 ] || { echo "usage: browser.sh URL" >&2; exit 2; }
if [ -n "${BROWSER_LOG:-}" ]; then
  printf '%s\n' "$1" >>"$BROWSER_LOG"
fi
exec python3 - "$1" <<'PY'
import sys, urllib.error, urllib.parse, urllib.request

class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None

def get(url, follow):
    opener = urllib.request.build_opener() if follow else urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(url, timeout=30) as resp:
            return resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()

url = sys.argv[1]
if not url.startswith(("http://", "https://")):
    print(f"browser.sh: refusing to open a non-http URL: {url}", file=sys.stderr)
    sys.exit(1)
status, headers, body = get(url, False)
location = headers.get("Location") if headers else None
if status not in (301, 302, 303, 307, 308) or not location:
    print(f"browser.sh: no redirect from the authorization server (HTTP {status}): "
          f"{body.decode('utf-8', 'replace')[:500]}", file=sys.stderr)
    sys.exit(1)
get(urllib.parse.urljoin(url, location), True)
PY
