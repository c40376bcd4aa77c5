#!/usr/bin/env bash
# Refreshes the documentation UIs' assets in this folder from the npm registry
# (`make docs-assets`). The files are committed, so that the docs pages work offline,
# in the container image and from a plain `pip install`; this script is only for an
# update: change a version below, run it, check the pages, commit.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

# package@version  then the files taken from it (paths inside the package)
take() {
  local spec="$1" name="$2"; shift 2
  local tarball
  tarball="$(npm pack --silent "$spec" | tail -n1)"
  mkdir -p "$name" && tar xzf "$tarball" -C "$name"
  mkdir -p "$here/$name"
  for f in "$@"; do cp "$name/package/$f" "$here/$name/$(basename "$f")"; done
  echo "$spec $(sha512sum "$tarball" | cut -c1-32)…" >> "$work/sources"
}

take swagger-ui-dist@5.35.0 swagger LICENSE NOTICE swagger-ui-bundle.js swagger-ui.css \
  swagger-ui-standalone-preset.js
take redoc@2.5.0 redoc LICENSE bundles/redoc.standalone.js
take @stoplight/elements@9.0.25 elements LICENSE web-components.min.js styles.min.css
take rapidoc@9.3.8 rapidoc LICENSE.txt dist/rapidoc-min.js
# Redoc's sidebar credit loads Redocly's logo from its CDN: a request to another host,
# refused by the docs' CSP (and reported as a violation). An empty data: URL instead
# fails to decode and Redoc hides the image (its onError); the credit's text stays.
sed -i 's#https://cdn.redoc.ly/redoc/logo-mini.svg#data:,#' "$here/redoc/redoc.standalone.js"
grep -q 'cdn.redoc.ly' "$here/redoc/redoc.standalone.js" && { echo "redoc: CDN logo left" >&2; exit 1; }

cd "$here"
{
  echo "# npm packages these files were taken from (name@version, start of the tarball's sha512)"
  cat "$work/sources"
  echo "# redoc/redoc.standalone.js: its CDN logo URL replaced (see fetch.sh)"
  echo
  echo "# sha256 of each file"
  find swagger redoc elements rapidoc -type f | sort | xargs sha256sum
} > SOURCES.txt
