// Ordinary developer text the guard must leave byte-for-byte unchanged: code that names secrets
// without holding one, shell sessions, git output with commit ids, UUIDs, URLs, lockfile
// integrity hashes, public keys and certificates, base64 of prose. Random-looking public values
// are generated (see fake-values.ts) so the corpus stays realistic.
import { ALPHABETS, FakeValues, toBase64 } from './fake-values.js';

export interface OrdinarySample {
  readonly name: string;
  readonly text: string;
}

const fake = new FakeValues('ordinary corpus');
const commit = (): string => fake.hex(40);
const short = (): string => fake.hex(7);

const SAMPLES: Readonly<Record<string, string>> = {
  'typescript service': `import { inject, injectable } from 'inversify';
import type { CancellationToken } from 'vscode';
import { SecretStorage } from './secret-storage.js';

export interface ConnectionOptions {
  readonly endpoint: string;
  readonly apiKey?: string;
  password: string;
  token: CancellationToken;
}

@injectable()
export class AuthenticationService {
  constructor(@inject(SecretStorage) private readonly secrets: SecretStorage) {}

  async login(username: string, password: string, token: CancellationToken): Promise<boolean> {
    const apiKey = await this.secrets.get('graphitiMemory.apiKey');
    const accessToken = await getToken();
    const headers = { Authorization: \`Bearer \${accessToken}\`, 'X-Api-Key': apiKey ?? '' };
    const options = { password: password, token: token, apiKey: config.apiKey, secret: undefined };
    if (password === '' || token.isCancellationRequested) return false;
    return this.send({ username, password, headers, options });
  }
}
`,
  'typescript without semicolons': `const settings = {
  password: process.env.DB_PASSWORD,
  token: options.token,
  secret: readSecret(),
  apiKey: env['API_KEY'],
}
export function createClient({ apiKey, token }: { apiKey: string; token: string }) {
  return new Client({ apiKey, token })
}
`,
  'python': `import os
import getpass

api_key = os.environ["OPENAI_API_KEY"]
password = getpass.getpass("Password: ")
token: str | None = None
secret_key = settings.SECRET_KEY

def connect(user: str, password: str) -> Connection:
    if password == "":
        raise ValueError("password must not be empty")
    return Connection(user=user, password=password)
`,
  'shell session': `$ pnpm install --frozen-lockfile
Lockfile is up to date, resolution step is skipped
Packages: +812
$ export NODE_ENV=production
$ docker run -e POSTGRES_PASSWORD=$POSTGRES_PASSWORD -p 5432:5432 postgres:16
$ curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user
$ gh auth login --with-token < token.txt
$ ls -la /usr/local/lib/node_modules/@vscode/vsce/out/
total 412
-rw-r--r--  1 dev  staff  18231 Nov  2 10:14 package.js
`,
  'git log': `commit ${commit()}
Merge: ${short()} ${short()}
Author: Ada Lovelace <ada@example.com>
Date:   Tue Nov 3 14:02:11 2026 +0100

    fix(outbox): recover from a torn journal tail

    Change-Id: I${fake.hex(40)}
    Signed-off-by: Ada Lovelace <ada@example.com>

commit ${commit()}
Author: Charles Babbage <charles@example.com>
Date:   Mon Nov 2 09:41:55 2026 +0100

    feat(recall): merge scopes in a stable order

diff --git a/packages/memory-core/src/recall/recall-service.ts b/packages/memory-core/src/recall/recall-service.ts
index ${short()}..${short()} 100644
`,
  'git oneline and rebase': `${short()} (HEAD -> main, origin/main) chore: bump turbo
${short()} docs: explain the secret guard
${short()} test: cover the splice semantics
Successfully rebased and updated refs/heads/feature/${fake.hex(8)}.
`,
  'uuids': `session ${fake.uuid()} resumed
request_${fake.uuid()} finished in 1.2s
{"sessionId":"${fake.uuid()}","parentUuid":"${fake.uuid()}","uuid":"${fake.uuid()}"}
`,
  'urls': `See https://github.com/acme/graphiti-memory/commit/${commit()} and
https://github.com/acme/graphiti-memory/blob/${commit()}/packages/memory-core/README.md#secret-guard,
the design doc https://docs.google.com/document/d/${fake.chars(ALPHABETS.base64url, 44)}/edit?usp=sharing,
the registry https://registry.npmjs.org/@secretlint/core/-/core-11.7.1.tgz and
http://localhost:8000/search?group_ids=workspace-abc&query=zod&max_facts=10.
`,
  'package-lock integrity': `    "node_modules/zod": {
      "version": "4.1.12",
      "resolved": "https://registry.npmjs.org/zod/-/zod-4.1.12.tgz",
      "integrity": "sha512-${fake.chars(ALPHABETS.base64, 86)}==",
      "license": "MIT"
    },
    "node_modules/inversify": {
      "integrity": "sha1-${fake.chars(ALPHABETS.base64, 27)}="
    }
`,
  'pnpm lock and go sum': `  /undici@6.21.0:
    resolution: {integrity: sha512-${fake.chars(ALPHABETS.base64, 86)}==}
golang.org/x/text v0.14.0 h1:${fake.chars(ALPHABETS.base64, 43)}=
golang.org/x/text v0.14.0/go.mod h1:${fake.chars(ALPHABETS.base64, 43)}=
`,
  'html with subresource integrity': `<script src="https://cdn.example.com/lib.min.js" integrity="sha384-${fake.chars(ALPHABETS.base64, 64)}" crossorigin="anonymous"></script>
<img src="data:image/png;base64,iVBORw0KGgo${fake.chars(ALPHABETS.base64, 120)}=" alt="logo">
`,
  'docker digests and hashes': `FROM node:20-alpine@sha256:${fake.hex(64)}
RUN echo "${fake.hex(64)}  archive.tar.gz" | sha256sum -c -
cargo checksum = "${fake.hex(64)}"
`,
  'ssh public key and certificate': `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${fake.chars(ALPHABETS.base64, 43)} ada@laptop
ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ${fake.chars(ALPHABETS.base64, 200)} ci@build
-----BEGIN CERTIFICATE-----
${fake.pemBody(5).join('\n')}
${fake.chars(ALPHABETS.base64, 32)}==
-----END CERTIFICATE-----
-----BEGIN PGP SIGNATURE-----

${fake.pemBody(3).join('\n')}
=${fake.chars(ALPHABETS.base64, 4)}
-----END PGP SIGNATURE-----
`,
  'base64 of prose': `The fixture body is ${toBase64('The quick brown fox jumps over the lazy dog, twice, before breakfast.')}
and the second one ${toBase64('Memory is recalled under a hard deadline and never blocks the chat.')}
`,
  'markdown prose': `# Graphiti Memory

Set your API key with **Graphiti Memory: Set API Key**; it is kept in SecretStorage, never in settings.
Token: the unit a language model reads. Password: use the one from the team vault.
The secret guard replaces credentials with markers such as [REDACTED:github-token].

| Setting | Default |
| --- | --- |
| graphitiMemory.timeoutMs | 5000 |
| graphitiMemory.recall.maxFacts | 10 |

Use \`Authorization: Bearer <token>\` or \`Bearer YOUR_ACCESS_TOKEN\`; the bearer authentication scheme is described in RFC 6750.
`,
  'github actions workflow': `name: release
on: { push: { branches: [main] } }
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@${commit()}
      - run: pnpm publish -r
        env:
          NPM_TOKEN: \${{ secrets.NPM_TOKEN }}
          GITHUB_TOKEN: \${{ secrets.GITHUB_TOKEN }}
      - with:
          token: \${{ secrets.GITHUB_TOKEN }}
          password: \${{ secrets.REGISTRY_PASSWORD }}
`,
  'env example with placeholders': `# Copy to .env and fill in
GRAPHITI_ENDPOINT=http://localhost:8000
API_KEY=<your-api-key>
DB_PASSWORD=
SECRET_KEY=\${SECRET_KEY}
OPENAI_API_KEY=sk-...
TOKEN=***
`,
  'tokenizer and model config': `{
  "bos_token": "<s>",
  "eos_token": "</s>",
  "pad_token": "<pad>",
  "max_tokens": 4096,
  "token_type": "bearer",
  "password_min_length": 12,
  "secretName": "graphiti-api-key",
  "tokenizer_class": "LlamaTokenizer"
}
`,
  'i18n and json schema': `export const labels = {
  password: 'Password',
  forgotPassword: 'Forgot your password?',
  token: 'Access token',
  apiKey: 'API key',
};
const schema = { "password": { "type": "string", "minLength": 12 }, "token": { "type": "string" } };
`,
  'kubernetes manifest': `apiVersion: v1
kind: Pod
spec:
  containers:
    - name: api
      image: ghcr.io/acme/api:1.4.2
      env:
        - name: DB_PASSWORD
          valueFrom:
            secretKeyRef:
              name: db-credentials
              key: password
`,
  'long identifiers and paths': `packages/memory-node-storage/src/transcripts/claude-code-transcript-watcher.ts
C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\workspaceStorage\\${fake.hex(32)}\\chatSessions\\
createTranscriptReaderFromFormatOptionsWithDefaults
ThisIsAVeryLongIdentifierNameForTesting123
test_should_return_404_when_user_not_found_in_database
EXPERIMENTAL_FEATURE_FLAG_FOR_SOMETHING_VERY_LONG
com/example/project/service/impl/UserServiceImplementation
`,
  'chat transcript ids': `toolu_01${fake.alphanumeric(22)} returned 120 lines
msg_01${fake.alphanumeric(22)} stop_reason end_turn
req_011C${fake.alphanumeric(20)}
`,
  'ordinary urls with user but no password': `git clone git@github.com:acme/graphiti-memory.git
ssh://git@gitlab.example.com:2222/acme/app.git
postgres://localhost:5432/app
mailto:ada@example.com
`,
  'already redacted text': `GITHUB_TOKEN=[REDACTED:github-token]
password: [REDACTED:password]
"apiKey": "[REDACTED:secret]"
-H "Authorization: Bearer [REDACTED:bearer-token]"
postgres: [REDACTED:connection-string]
`,
};

export function buildOrdinaryCorpus(): OrdinarySample[] {
  return Object.entries(SAMPLES).map(([name, text]) => ({ name, text }));
}
