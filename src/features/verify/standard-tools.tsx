import { Code, Stack, Text, Title } from '@mantine/core';
import { Trans } from '@lingui/react/macro';
import { AUDIT_PATH } from './standard-tool-snippets.ts';

const COMMANDS = `pdfdetach -save 1 proof.pdf            # → provena-proof.json.gz
gunzip -c provena-proof.json.gz > pkg.json
sha256sum original.ext ; jq -r .file_hash pkg.json
(printf 'provena-commitment-v1\\0'; jq -j .salt pkg.json | xxd -r -p;
 sha256sum original.ext | cut -c1-64 | xxd -r -p) | sha256sum
jq -r .record pkg.json | jq -r .commitment
jq -cj .block.header pkg.json > header.json
sha256sum header.json ; jq -r .block.hash pkg.json
jq -j .platform_key.spki pkg.json | base64 -d > key.der
openssl pkey -pubin -inform DER -in key.der -out key.pem
jq -j .block.signature pkg.json | base64 -d > sig.der
openssl dgst -sha256 -verify key.pem -signature sig.der header.json`;

const CHAIN = `jq -r '.platform_certificates[0]' pkg.json | base64 -d | openssl x509 -inform DER -out signer.pem
jq -r '.platform_certificates[1]' pkg.json | base64 -d > root.der ; sha256sum root.der
openssl x509 -inform DER -in root.der -out root.pem
openssl verify -x509_strict -CAfile root.pem signer.pem
openssl x509 -in signer.pem -noout -pubkey | openssl pkey -pubin -outform DER | sha256sum`;



/** For a technical reader: the same checks with standard tools only (docs/proof-format.md has them all). */
export function StandardToolsExplainer() {
  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        <Trans>Verify without this website</Trans>
      </Title>
      <Text size="sm">
        <Trans>
          The PDF embeds a file named provena-proof.json.gz: gzip-compressed JSON holding the registration record, the salt that opens its commitment to the file hash, the
          Merkle audit path (RFC 6962) to a block root, the block header with the platform's ECDSA P-256 signature, and the signed issue and expiry times. This is a
          hash commitment in a signed append-only log, not a zero-knowledge proof.
        </Trans>
      </Text>
      <Text size="sm">
        <Trans>With poppler-utils, jq, coreutils, xxd and OpenSSL, each pair of lines below must print the same value, and OpenSSL must print "Verified OK":</Trans>
      </Text>
      <Code block>{COMMANDS}</Code>
      <Text size="sm">
        <Trans>The audit path in Python 3 (standard library only) must print True:</Trans>
      </Text>
      <Code block>{AUDIT_PATH}</Code>
      <Text size="sm">
        <Trans>
          The platform's X.509 root certifies the signing key: OpenSSL must print "signer.pem: OK", and the last line must print the key id (sha256sum key.der):
        </Trans>
      </Text>
      <Code block>{CHAIN}</Code>
      <Text size="sm">
        <Trans>
          Compare the root's fingerprint (sha256sum root.der) with the platform's published roots at /api/v1/ledger/platform-roots — or the key id with
          /api/v1/ledger/platform-keys — and check expires_at in pkg.json.
        </Trans>
      </Text>
    </Stack>
  );
}
