#!/bin/sh
# Uploads an image to the example service as a new photo: a multipart/related create whose first part is
# the photo (JSON) and whose second is the image it points at (`"image": "cid:image"`). `curl -F` builds
# multipart/form-data, not multipart/related, so the body is written to a temporary file with printf and
# cat (byte for byte: the image is never read by the shell) and sent with --data-binary.
#
#   examples/upload.sh <image file> <title> [JPEG|PNG|GIF|...]
#
# The service: BASE_URL, else http://127.0.0.1:$PORT (default 8080). Prints the created photo: status
# PENDING and processingJob, the id of the job that processes the image (GET /jobs/<id>).
set -eu
if [ $# -lt 2 ]; then
  echo "usage: $0 <image file> <title> [format]" >&2
  exit 2
fi
image=$1
format=${3:-JPEG}
base=${BASE_URL:-http://127.0.0.1:${PORT:-8080}}
# the title as a JSON string: backslashes and double quotes escaped
title=$(printf '%s' "$2" | sed 's/\\/\\\\/g; s/"/\\"/g')
# a boundary that cannot occur in the image by chance
boundary="svc-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
body=$(mktemp "${TMPDIR:-/tmp}/svc-upload-XXXXXX")
trap 'rm -f "$body"' EXIT
{
  printf -- '--%s\r\nContent-Type: application/json\r\n\r\n' "$boundary"
  printf '{"title":"%s","format":"%s","image":"cid:image"}' "$title" "$format"
  printf -- '\r\n--%s\r\nContent-ID: <image>\r\nContent-Type: application/octet-stream\r\n\r\n' "$boundary"
  cat "$image"
  printf -- '\r\n--%s--\r\n' "$boundary"
} >"$body"
curl -sS --fail-with-body -X POST \
  -H 'X-Svc-Protocol-Version: 2.0.0' \
  -H "Content-Type: multipart/related; boundary=$boundary" \
  --data-binary @"$body" "$base/photos"
echo
