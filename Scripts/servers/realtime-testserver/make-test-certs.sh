#!/bin/sh
# Creates a throwaway test CA and two server certificates in DIR with the openssl CLI:
#   ca.pem               the CA certificate (give it to the client as a trust root)
#   good.pem / good.key  for localhost and 127.0.0.1
#   wrong.pem / wrong.key  for wrong.example only (must be refused when connecting to localhost)
# Usage: make-test-certs.sh DIR
set -eu
dir=$1
mkdir -p "$dir"
cd "$dir"
curve="-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
openssl req -x509 $curve -keyout ca.key -out ca.pem -days 2 -subj "/CN=OpenAIRealtime Test CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
for name in good wrong; do
    if [ "$name" = good ]; then san="DNS:localhost,IP:127.0.0.1"; cn=localhost; else san="DNS:wrong.example"; cn=wrong.example; fi
    openssl req $curve -keyout "$name.key" -out "$name.csr" -subj "/CN=$cn" 2>/dev/null
    printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' "$san" > "$name.ext"
    openssl x509 -req -in "$name.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -out "$name.pem" -days 2 \
        -extfile "$name.ext" 2>/dev/null
done
