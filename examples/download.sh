#!/bin/sh
# Downloads the image of a photo of the example service: a GET that accepts multipart/related answers the
# photo (JSON) as the first part and its image as the second (with the Content-Type processing found);
# the image part's bytes are cut out of the response with grep -abo (byte offsets of the boundaries),
# tail -c and head -c, so they pass through no text tool.
#
#   examples/download.sh <photo id> <output file>
#
# The service: BASE_URL, else http://127.0.0.1:$PORT (default 8080). Prints the photo's JSON. Fails (exit
# 1) when the photo has no image yet: it gets one once its job has processed the upload (status READY).
set -eu
if [ $# -lt 2 ]; then
  echo "usage: $0 <photo id> <output file>" >&2
  exit 2
fi
id=$1
output=$2
base=${BASE_URL:-http://127.0.0.1:${PORT:-8080}}
dir=$(mktemp -d "${TMPDIR:-/tmp}/svc-download-XXXXXX")
trap 'rm -rf "$dir"' EXIT
curl -sS --fail-with-body -D "$dir/headers" -o "$dir/body" \
  -H 'X-Svc-Protocol-Version: 2.0.0' -H 'Accept: multipart/related' "$base/photos/$id"
boundary=$(sed -n 's/^[Cc]ontent-[Tt]ype: *multipart\/related;.*boundary="\{0,1\}\([^";[:space:]]*\).*/\1/p' "$dir/headers")
if [ -z "$boundary" ]; then
  echo "photo $id has no image to download (yet): $(cat "$dir/body")" >&2
  exit 1
fi
# byte offsets of the delimiters: the photo's part, the image's part, the end
set -- $(grep -abo -- "--$boundary" "$dir/body" | cut -d: -f1)
if [ $# -lt 3 ]; then
  echo "unexpected response: fewer than two parts" >&2
  exit 1
fi
photo_start=$1
image_start=$2
end=$3
# the photo's JSON: after its part's header lines and the blank line, up to the CRLF before the next delimiter
tail -c +$((photo_start + 1)) "$dir/body" | head -c $((image_start - photo_start - 2)) | sed '1,/^\r$/d'
echo
# the image part's header lines (delimiter line, Content-ID, Content-Type, blank line) are text
header=$(tail -c +$((image_start + 1)) "$dir/body" | sed -n '1,/^\r$/p' | wc -c)
tail -c +$((image_start + header + 1)) "$dir/body" | head -c $((end - image_start - header - 2)) >"$output"
