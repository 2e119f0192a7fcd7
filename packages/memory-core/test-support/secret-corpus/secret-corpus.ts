// Secrets the guard must redact completely, each in the context it is usually pasted in. Every
// value is generated (see fake-values.ts): format-valid, random, never a real credential.
import { ALPHABETS, FakeValues, toBase64, toBase64Url } from './fake-values.js';

export interface SecretSample {
  /** The format, unique within the corpus. */
  readonly format: string;
  /** The text as a user might paste it. */
  readonly text: string;
  /** Secret values that must not appear in the redacted text, not even in part. */
  readonly secrets: readonly string[];
  /** A marker kind the redacted text must contain. */
  readonly kind: string;
}

type SampleBuilder = (fake: FakeValues) => Omit<SecretSample, 'format'>;

function pem(label: string, fake: FakeValues, lines = 6): { block: string; body: string[] } {
  const body = fake.pemBody(lines);
  return { block: `-----BEGIN ${label}-----\n${body.join('\n')}\n${fake.chars(ALPHABETS.base64, 20)}==\n-----END ${label}-----`, body };
}

const BUILDERS: Readonly<Record<string, SampleBuilder>> = {
  'aws access key id': (fake) => {
    const secret = `AKIA${fake.chars(ALPHABETS.upperAlphanumeric, 16)}`;
    return { text: `[default]\naws_access_key_id = ${secret}\nregion = eu-west-1`, secrets: [secret], kind: 'aws-access-key' };
  },
  'aws secret access key': (fake) => {
    const secret = fake.chars(ALPHABETS.base64, 40);
    return { text: `aws_secret_access_key = ${secret}`, secrets: [secret], kind: 'aws-secret-key' };
  },
  'aws secret access key in env': (fake) => {
    const secret = fake.chars(ALPHABETS.base64, 40);
    return { text: `export AWS_SECRET_ACCESS_KEY="${secret}"`, secrets: [secret], kind: 'aws-secret-key' };
  },
  'aws session key id': (fake) => {
    const secret = `ASIA${fake.chars(ALPHABETS.upperAlphanumeric, 16)}`;
    return { text: `The temporary key ${secret} expires in an hour.`, secrets: [secret], kind: 'aws-access-key' };
  },
  'github classic token': (fake) => {
    const secret = `ghp_${fake.alphanumeric(36)}`;
    return { text: `git clone https://github.com/acme/app.git # token ${secret}`, secrets: [secret], kind: 'github-token' };
  },
  'github fine-grained token': (fake) => {
    const secret = `github_pat_${fake.alphanumeric(22)}_${fake.alphanumeric(59)}`;
    return { text: `GH_TOKEN=${secret} gh pr list`, secrets: [secret], kind: 'github-token' };
  },
  'github oauth token': (fake) => {
    const secret = `gho_${fake.alphanumeric(36)}`;
    return { text: `oauth_token: ${secret}`, secrets: [secret], kind: 'github-token' };
  },
  'github app installation token': (fake) => {
    const secret = `ghs_${fake.alphanumeric(36)}`;
    return { text: `curl -H "Authorization: token ${secret}" https://api.github.com/repos/acme/app`, secrets: [secret], kind: 'github-token' };
  },
  'github user-to-server and refresh tokens': (fake) => {
    const user = `ghu_${fake.alphanumeric(36)}`;
    const refresh = `ghr_${fake.alphanumeric(76)}`;
    return { text: `access ${user}\nrefresh ${refresh}`, secrets: [user, refresh], kind: 'github-token' };
  },
  'gitlab personal access token': (fake) => {
    const secret = `glpat-${fake.chars(ALPHABETS.base64url, 20)}`;
    return { text: `GITLAB_TOKEN=${secret}`, secrets: [secret], kind: 'gitlab-token' };
  },
  'gitlab runner token': (fake) => {
    const secret = `glrt-${fake.chars(ALPHABETS.base64url, 20)}`;
    return { text: `gitlab-runner register --token ${secret}`, secrets: [secret], kind: 'gitlab-token' };
  },
  'slack bot token': (fake) => {
    const secret = `xoxb-${fake.chars(ALPHABETS.digits, 12)}-${fake.chars(ALPHABETS.digits, 13)}-${fake.alphanumeric(24)}`;
    return { text: `SLACK_BOT_TOKEN=${secret}`, secrets: [secret], kind: 'slack-token' };
  },
  'slack user token': (fake) => {
    const secret = `xoxp-${fake.chars(ALPHABETS.digits, 12)}-${fake.chars(ALPHABETS.digits, 12)}-${fake.chars(ALPHABETS.digits, 13)}-${fake.hex(32)}`;
    return { text: `my slack token is ${secret}`, secrets: [secret], kind: 'slack-token' };
  },
  'slack incoming webhook': (fake) => {
    const secret = `https://hooks.slack.com/services/T${fake.chars(ALPHABETS.upperAlphanumeric, 10)}/B${fake.chars(ALPHABETS.upperAlphanumeric, 10)}/${fake.alphanumeric(24)}`;
    return { text: `Post alerts to ${secret} please`, secrets: [secret], kind: 'slack-webhook' };
  },
  'slack app token': (fake) => {
    const secret = `xapp-1-A${fake.chars(ALPHABETS.upperAlphanumeric, 10)}-${fake.chars(ALPHABETS.digits, 13)}-${fake.hex(64)}`;
    return { text: `SLACK_APP_TOKEN: ${secret}`, secrets: [secret], kind: 'slack-token' };
  },
  'stripe secret key': (fake) => {
    const secret = `sk_live_${fake.alphanumeric(24)}`;
    return { text: `const stripe = new Stripe('${secret}');`, secrets: [secret], kind: 'stripe-key' };
  },
  'stripe restricted key and webhook secret': (fake) => {
    const restricted = `rk_test_${fake.alphanumeric(24)}`;
    const webhook = `whsec_${fake.alphanumeric(32)}`;
    return { text: `STRIPE_KEY=${restricted}\nSTRIPE_WEBHOOK=${webhook}`, secrets: [restricted, webhook], kind: 'stripe-key' };
  },
  'openai legacy key': (fake) => {
    const secret = `sk-${fake.alphanumeric(20)}T3BlbkFJ${fake.alphanumeric(20)}`;
    return { text: `openai.api_key = "${secret}"`, secrets: [secret], kind: 'openai-key' };
  },
  'openai project key': (fake) => {
    const secret = `sk-proj-${fake.chars(ALPHABETS.base64url, 74)}T3BlbkFJ${fake.chars(ALPHABETS.base64url, 74)}`;
    return { text: `OPENAI_API_KEY=${secret}`, secrets: [secret], kind: 'openai-key' };
  },
  'anthropic api key': (fake) => {
    const secret = `sk-ant-api03-${fake.chars(ALPHABETS.base64url, 93)}AA`;
    return { text: `Here is my key: ${secret} — why does it fail?`, secrets: [secret], kind: 'anthropic-key' };
  },
  'google api key': (fake) => {
    const secret = `AIza${fake.chars(ALPHABETS.base64url, 35)}`;
    return { text: `<script src="https://maps.googleapis.com/maps/api/js?key=${secret}"></script>`, secrets: [secret], kind: 'google-api-key' };
  },
  'google oauth client secret': (fake) => {
    const secret = `GOCSPX-${fake.chars(ALPHABETS.base64url, 28)}`;
    return { text: `"client_secret": "${secret}",`, secrets: [secret], kind: 'google-oauth' };
  },
  'gcp service account json': (fake) => {
    const key = fake.pemBody(8);
    const text = JSON.stringify(
      {
        type: 'service_account',
        project_id: 'demo-project',
        private_key_id: fake.hex(40),
        private_key: `-----BEGIN PRIVATE KEY-----\n${key.join('\n')}\n-----END PRIVATE KEY-----\n`,
        client_email: 'builder@demo-project.iam.gserviceaccount.com',
      },
      null,
      2,
    );
    return { text, secrets: key, kind: 'private-key' };
  },
  'azure storage connection string': (fake) => {
    const secret = `${fake.chars(ALPHABETS.base64, 86)}==`;
    return {
      text: `DefaultEndpointsProtocol=https;AccountName=demostore;AccountKey=${secret};EndpointSuffix=core.windows.net`,
      secrets: [secret.slice(0, 86)],
      kind: 'secret',
    };
  },
  'azure ad client secret': (fake) => {
    const secret = `${fake.alphanumeric(3)}8Q~${fake.chars(ALPHABETS.base64url, 34)}`;
    return { text: `The app registration secret is ${secret}`, secrets: [secret], kind: 'azure-client-secret' };
  },
  'npm automation token': (fake) => {
    const secret = `npm_${fake.alphanumeric(36)}`;
    return { text: `//registry.npmjs.org/:_authToken=${secret}`, secrets: [secret], kind: 'npm-token' };
  },
  'npm legacy uuid token': (fake) => {
    const secret = fake.uuid();
    return { text: `//registry.example.com/:_authToken=${secret}`, secrets: [secret], kind: 'secret' };
  },
  'pypi upload token': (fake) => {
    const secret = `pypi-AgEIcHlwaS5vcmc${fake.chars(ALPHABETS.base64url, 70)}`;
    return { text: `[pypi]\nusername = __token__\npassword = ${secret}`, secrets: [secret], kind: 'pypi-token' };
  },
  'twilio api key and auth token': (fake) => {
    const keySid = `SK${fake.hex(32)}`;
    const authToken = fake.hex(32);
    return { text: `TWILIO_API_KEY=${keySid}\nTWILIO_AUTH_TOKEN=${authToken}`, secrets: [keySid, authToken], kind: 'twilio-key' };
  },
  'sendgrid api key': (fake) => {
    const secret = `SG.${fake.chars(ALPHABETS.base64url, 22)}.${fake.chars(ALPHABETS.base64url, 43)}`;
    return { text: `sendgrid.setApiKey("${secret}")`, secrets: [secret], kind: 'sendgrid-key' };
  },
  'mailgun api key': (fake) => {
    const secret = `key-${fake.hex(32)}`;
    return { text: `curl -s --user 'api:${secret}' https://api.mailgun.net/v3/demo.example/messages`, secrets: [secret], kind: 'mailgun-key' };
  },
  'discord bot token': (fake) => {
    const secret = `M${fake.alphanumeric(25)}.${fake.chars(ALPHABETS.base64url, 6)}.${fake.chars(ALPHABETS.base64url, 38)}`;
    return { text: `client.login('${secret}')`, secrets: [secret], kind: 'discord-token' };
  },
  'discord webhook': (fake) => {
    const secret = `https://discord.com/api/webhooks/${fake.chars(ALPHABETS.digits, 18)}/${fake.chars(ALPHABETS.base64url, 68)}`;
    return { text: `webhook: ${secret}`, secrets: [secret], kind: 'discord-webhook' };
  },
  'telegram bot token': (fake) => {
    const secret = `${fake.chars(ALPHABETS.digits, 10)}:AA${fake.chars(ALPHABETS.base64url, 33)}`;
    return { text: `bot = telebot.TeleBot("${secret}")`, secrets: [secret], kind: 'telegram-bot-token' };
  },
  'shopify admin token': (fake) => {
    const secret = `shpat_${fake.hex(32)}`;
    return { text: `X-Shopify-Access-Token: ${secret}`, secrets: [secret], kind: 'shopify-token' };
  },
  'heroku api key': (fake) => {
    const platform = `HRKU-AA${fake.chars(ALPHABETS.base64url, 58)}`;
    const legacy = fake.uuid();
    return { text: `HEROKU_API_KEY=${legacy}\nheroku auth:token -> ${platform}`, secrets: [platform, legacy], kind: 'heroku-key' };
  },
  'digitalocean token': (fake) => {
    const secret = `dop_v1_${fake.hex(64)}`;
    return { text: `doctl auth init -t ${secret}`, secrets: [secret], kind: 'digitalocean-token' };
  },
  'hugging face token': (fake) => {
    const secret = `hf_${fake.chars(ALPHABETS.letters, 34)}`;
    return { text: `huggingface-cli login --token ${secret}`, secrets: [secret], kind: 'huggingface-token' };
  },
  'databricks token': (fake) => {
    const secret = `dapi${fake.hex(32)}`;
    return { text: `DATABRICKS_HOST=https://adb-1.azuredatabricks.net\nDATABRICKS_TOKEN=${secret}`, secrets: [secret], kind: 'databricks-token' };
  },
  'json web token': (fake) => {
    const header = toBase64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const payload = toBase64Url(JSON.stringify({ sub: fake.uuid(), name: 'Demo User', iat: 1_700_000_000 }));
    const secret = `${header}.${payload}.${fake.chars(ALPHABETS.base64url, 43)}`;
    return { text: `the session cookie was ${secret}; it expired`, secrets: [secret], kind: 'jwt' };
  },
  'rsa private key': (fake) => {
    const key = pem('RSA PRIVATE KEY', fake, 10);
    return { text: `Why does ssh reject this key?\n\n${key.block}\n`, secrets: key.body, kind: 'private-key' };
  },
  'ec private key': (fake) => {
    const key = pem('EC PRIVATE KEY', fake, 3);
    return { text: key.block, secrets: key.body, kind: 'private-key' };
  },
  'openssh private key': (fake) => {
    const key = pem('OPENSSH PRIVATE KEY', fake, 7);
    return { text: `cat ~/.ssh/id_ed25519\n${key.block}`, secrets: key.body, kind: 'private-key' };
  },
  'pgp private key block': (fake) => {
    const key = pem('PGP PRIVATE KEY BLOCK', fake, 12);
    return { text: key.block.replace('\n', '\nVersion: GnuPG v2\n\n'), secrets: key.body, kind: 'private-key' };
  },
  'encrypted pkcs8 private key, truncated': (fake) => {
    const body = fake.pemBody(4);
    return {
      text: `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${body.join('\n')}\n\nThat is all I could copy.`,
      secrets: body,
      kind: 'private-key',
    };
  },
  'base64 encoded private key in kubeconfig': (fake) => {
    const key = pem('RSA PRIVATE KEY', fake, 4);
    const encoded = toBase64(key.block);
    return { text: `users:\n- name: admin\n  user:\n    client-key-data: ${encoded}`, secrets: [encoded], kind: 'private-key' };
  },
  'postgres url with password': (fake) => {
    const password = fake.alphanumeric(16);
    return { text: `DATABASE_URL=postgres://app_user:${password}@db.internal.example:5432/app?sslmode=require`, secrets: [password], kind: 'connection-string' };
  },
  'mysql url with password': (fake) => {
    const password = `${fake.alphanumeric(10)}!x`;
    return { text: `mysql://root:${password}@127.0.0.1:3306/shop`, secrets: [password], kind: 'connection-string' };
  },
  'mongodb srv url with password': (fake) => {
    const password = fake.alphanumeric(20);
    return { text: `const uri = "mongodb+srv://admin:${password}@cluster0.ab1cd.mongodb.net/?retryWrites=true";`, secrets: [password], kind: 'connection-string' };
  },
  'redis url with password only': (fake) => {
    const password = fake.alphanumeric(24);
    return { text: `REDIS_URL=rediss://:${password}@cache.example.com:6380/0`, secrets: [password], kind: 'connection-string' };
  },
  'amqp url with password': (fake) => {
    const password = fake.alphanumeric(12);
    return { text: `broker_url = "amqp://guest:${password}@rabbit:5672//"`, secrets: [password], kind: 'connection-string' };
  },
  'basic auth in https url': (fake) => {
    const password = fake.alphanumeric(14);
    return { text: `pip install --index-url https://deploy:${password}@pypi.internal.example/simple pkg`, secrets: [password], kind: 'basic-auth' };
  },
  'sql server connection string': (fake) => {
    const password = `${fake.alphanumeric(12)}#1`;
    return { text: `Server=tcp:sql.example.net,1433;Database=app;User Id=sa;Password=${password};Encrypt=True;`, secrets: [password], kind: 'password' };
  },
  'bearer authorization header': (fake) => {
    const token = fake.chars(ALPHABETS.base64url, 40);
    return { text: `curl -H "Authorization: Bearer ${token}" https://api.example.com/v1/me`, secrets: [token], kind: 'bearer-token' };
  },
  'basic authorization header': (fake) => {
    const password = fake.alphanumeric(16);
    const encoded = toBase64(`deploy:${password}`);
    return { text: `Authorization: Basic ${encoded}`, secrets: [encoded], kind: 'basic-auth' };
  },
  'password in dotenv': (fake) => {
    const password = `${fake.alphanumeric(14)}$%`;
    return { text: `DB_HOST=localhost\nDB_PASSWORD=${password}\nDB_USER=app`, secrets: [password], kind: 'password' };
  },
  'password in yaml': (fake) => {
    const password = fake.alphanumeric(18);
    return { text: `database:\n  user: app\n  password: ${password}\n  pool: 5`, secrets: [password], kind: 'password' };
  },
  'api key in json': (fake) => {
    const secret = fake.alphanumeric(32);
    return { text: `{\n  "endpoint": "https://api.example.com",\n  "apiKey": "${secret}"\n}`, secrets: [secret], kind: 'secret' };
  },
  'client secret in toml': (fake) => {
    const secret = fake.chars(ALPHABETS.base64url, 30);
    return { text: `[auth]\nclient_id = "demo"\nclient_secret = "${secret}"`, secrets: [secret], kind: 'secret' };
  },
  'password keyword argument in python': (fake) => {
    const password = fake.alphanumeric(12);
    return { text: `conn = psycopg2.connect(host="db", user="app", password="${password}")`, secrets: [password], kind: 'password' };
  },
  'password on the command line': (fake) => {
    const password = fake.alphanumeric(12);
    return { text: `docker login registry.example.com --username ci --password ${password}`, secrets: [password], kind: 'password' };
  },
  'curl user and password': (fake) => {
    const password = fake.alphanumeric(12);
    return { text: `curl -u admin:${password} https://jenkins.example.com/api/json`, secrets: [password], kind: 'basic-auth' };
  },
  'access token in query string': (fake) => {
    const token = fake.alphanumeric(28);
    return { text: `GET https://graph.example.com/v2/me?fields=id&access_token=${token}`, secrets: [token], kind: 'secret' };
  },
  'password in chat prose': (fake) => {
    const password = `${fake.alphanumeric(9)}7`;
    return { text: `the staging db password: ${password}`, secrets: [password], kind: 'password' };
  },
  'linear api key': (fake) => {
    const secret = `lin_api_${fake.alphanumeric(40)}`;
    return { text: `LINEAR_API_KEY=${secret}`, secrets: [secret], kind: 'linear-key' };
  },
  'age secret key': (fake) => {
    const secret = `AGE-SECRET-KEY-1${fake.chars(ALPHABETS.upperAlphanumeric, 58)}`;
    return { text: `# created: 2026-01-01\n${secret}`, secrets: [secret], kind: 'age-secret-key' };
  },
  'hashicorp vault token': (fake) => {
    const secret = `hvs.${fake.chars(ALPHABETS.base64url, 90)}`;
    return { text: `VAULT_TOKEN=${secret} vault kv get secret/app`, secrets: [secret], kind: 'vault-token' };
  },
  'grafana service account token': (fake) => {
    const secret = `glsa_${fake.alphanumeric(32)}_${fake.hex(8)}`;
    return { text: `grafana token ${secret}`, secrets: [secret], kind: 'grafana-token' };
  },
  'docker hub access token': (fake) => {
    const secret = `dckr_pat_${fake.chars(ALPHABETS.base64url, 27)}`;
    return { text: `echo ${secret} | docker login -u demo --password-stdin`, secrets: [secret], kind: 'docker-token' };
  },
  'doppler service token': (fake) => {
    const secret = `dp.st.prd.${fake.alphanumeric(43)}`;
    return { text: `DOPPLER_TOKEN="${secret}"`, secrets: [secret], kind: 'doppler-token' };
  },
  'new relic user key': (fake) => {
    const secret = `NRAK-${fake.chars(ALPHABETS.upperAlphanumeric, 27)}`;
    return { text: `newrelic: ${secret}`, secrets: [secret], kind: 'newrelic-key' };
  },
  '1password service account token': (fake) => {
    const secret = `ops_eyJ${fake.chars(ALPHABETS.base64, 180)}`;
    return { text: `OP_SERVICE_ACCOUNT_TOKEN=${secret}`, secrets: [secret], kind: 'onepassword-token' };
  },
  'square access token': (fake) => {
    const secret = `sq0atp-${fake.chars(ALPHABETS.base64url, 22)}`;
    return { text: `square token: ${secret}`, secrets: [secret], kind: 'square-token' };
  },
  'postman api key': (fake) => {
    const secret = `PMAK-${fake.hex(24)}-${fake.hex(34)}`;
    return { text: `x-api-key: ${secret}`, secrets: [secret], kind: 'postman-key' };
  },
  'planetscale password': (fake) => {
    const secret = `pscale_pw_${fake.chars(ALPHABETS.base64url, 43)}`;
    return { text: `pscale password: ${secret}`, secrets: [secret], kind: 'planetscale-token' };
  },
  'unlabeled random token': (fake) => {
    const secret = fake.alphanumeric(48);
    return { text: `It worked after I pasted ${secret} into the config.`, secrets: [secret], kind: 'high-entropy' };
  },
  'unlabeled random base64 secret': (fake) => {
    const secret = fake.chars(ALPHABETS.base64, 64);
    return { text: `signing secret\n${secret}\n`, secrets: [secret], kind: 'high-entropy' };
  },
  // Written so a check of the typed text misses them, yet read (and folded back by recall) whole.
  'aws access key with a zero-width space inside': (fake) => {
    const secret = `AKIA${fake.chars(ALPHABETS.upperAlphanumeric, 16)}`;
    const typed = `${secret.slice(0, 10)}\u200b${secret.slice(10)}`;
    return { text: `use ${typed} for the deploy user`, secrets: [typed], kind: 'aws-access-key' };
  },
  'github token in full-width letters': (fake) => {
    const typed = fullWidth(`ghp_${fake.alphanumeric(36)}`);
    return { text: `my token is ${typed} for now`, secrets: [typed], kind: 'github-token' };
  },
  'aws access key split by a newline': (fake) => {
    const secret = `AKIA${fake.chars(ALPHABETS.upperAlphanumeric, 16)}`;
    const typed = `${secret.slice(0, 12)}\n${secret.slice(12)}`;
    return { text: `the key is ${typed} and it works`, secrets: [typed], kind: 'aws-access-key' };
  },
  'stripe key with a soft hyphen and bidi controls': (fake) => {
    const secret = `sk_live_${fake.alphanumeric(24)}`;
    const typed = `${secret.slice(0, 9)}\u00ad${secret.slice(9, 20)}\u202e\u202c${secret.slice(20)}`;
    return { text: `stripe: ${typed}`, secrets: [typed], kind: 'stripe-key' };
  },
  'password in plain words': (fake) => {
    const secret = `hunter2-${fake.alphanumeric(8)}`;
    return { text: `btw the staging password is ${secret}, do not share it`, secrets: [secret], kind: 'password' };
  },
  'pwd in plain words': (fake) => {
    const secret = `${fake.alphanumeric(6)}!${fake.alphanumeric(3)}`;
    return { text: `ssh in as deploy, pwd: ${secret}`, secrets: [secret], kind: 'password' };
  },
  'password for a host in plain words': (fake) => {
    const secret = `Tr0ub4dor&${fake.alphanumeric(4)}`;
    return { text: `The password for db.internal is now ${secret}.`, secrets: [secret], kind: 'password' };
  },
};

/** ASCII letters, digits and punctuation as their full-width forms (`Ａ`), which NFKC folds back. */
export function fullWidth(text: string): string {
  return text.replace(/[!-~]/g, (character) => String.fromCharCode(character.charCodeAt(0) + 0xfee0));
}

/** The corpus: one sample per format, the same values on every run. */
export function buildSecretCorpus(): SecretSample[] {
  return Object.entries(BUILDERS).map(([format, build]) => ({ format, ...build(new FakeValues(format)) }));
}
