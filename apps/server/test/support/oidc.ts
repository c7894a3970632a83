/// <reference path="./oidc-provider.d.ts" />
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Provider from 'oidc-provider';

/*
 * A real OpenID provider (the `oidc-provider` package) on a local port, for the single sign-on
 * tests: discovery, keys, the authorization endpoint with PKCE, the token endpoint and signed ID
 * tokens are all its own. Only the interaction (its login and consent pages) is answered by code
 * here, which signs in whoever `signInAs` names.
 */

export const CLIENT_ID = 'workforce-console';
export const CLIENT_SECRET = 'a-client-secret-for-the-tests-only';

/**
 * An account at the provider: its subject (`sub`, never reassigned), the name it goes by now
 * (`preferred_username`, which its owner may change), and how the sign-in was checked.
 */
export interface ProviderAccount {
  sub: string;
  username: string;
  /** Authentication methods (`amr`, RFC 8176) the provider says it used. */
  amr?: string[];
  /** Authentication context class (`acr`). */
  acr?: string;
}

/** `acr` values the test provider may assert. */
export const TEST_ACR_VALUES = ['urn:example:mfa', 'urn:example:password'];

export interface TestProvider {
  issuer: string;
  /**
   * The provider's account the next sign-in is made as: a name alone is an account whose subject
   * is that name.
   */
  signInAs: string | ProviderAccount;
  /** Moves the provider's clock by this much while it answers at its token endpoint. */
  clockOffsetMs: number;
  close(): Promise<void>;
}

/**
 * `redirectUri` is read when the provider first answers: a browser test knows the console's
 * address only once the console listens, which is after the provider's address is needed.
 */
export async function startProvider(redirectUri: string | (() => string)): Promise<TestProvider> {
  const state: ProviderState = {
    signInAs: { sub: 'admin', username: 'admin' },
    clockOffsetMs: 0,
    names: new Map(),
  };
  let handler: RequestListener | undefined;
  const server = createServer((req, res) => handler?.(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Loaded on demand: every browser test imports the harness, few start a provider.
  const { default: OidcProvider } = await import('oidc-provider');
  const build = () =>
    new OidcProvider(issuer, {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: [typeof redirectUri === 'string' ? redirectUri : redirectUri()],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false } },
      interactions: {
        url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
      },
      // With `openid`, the ID token carries how the login was checked (`acr`, `amr`), as providers do.
      claims: { openid: ['sub', 'acr', 'amr'], profile: ['preferred_username', 'name'], email: ['email'] },
      acrValues: TEST_ACR_VALUES,
      findAccount: async (_ctx: unknown, sub: string) => {
        // The name the account goes by now: a rename at the provider shows in its next tokens.
        const name = state.names.get(sub) ?? sub;
        return {
          accountId: sub,
          claims: async () => ({ sub, preferred_username: name, name, email: `${sub}@idp.example.com` }),
        };
      },
      cookies: { keys: ['test-cookie-key-0123456789'] },
    });
  let provider: Provider | undefined;
  let callback: RequestListener | undefined;
  const realNow = Date.now;
  handler = (req, res) => {
    provider ??= build();
    callback ??= provider.callback();
    const url = req.url ?? '';
    if (url.startsWith('/interaction/')) {
      void interact(provider, state, req, res);
      return;
    }
    if (state.clockOffsetMs !== 0 && url.startsWith('/token')) {
      const offset = state.clockOffsetMs;
      Date.now = () => realNow() + offset;
      res.once('finish', () => {
        Date.now = realNow;
      });
    }
    callback(req, res);
  };
  return {
    issuer,
    get signInAs() {
      return state.signInAs;
    },
    set signInAs(value: string | ProviderAccount) {
      state.signInAs = typeof value === 'string' ? { sub: value, username: value } : value;
      state.names.set(state.signInAs.sub, state.signInAs.username);
    },
    get clockOffsetMs() {
      return state.clockOffsetMs;
    },
    set clockOffsetMs(value: number) {
      state.clockOffsetMs = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface ProviderState {
  signInAs: ProviderAccount;
  clockOffsetMs: number;
  /** Each subject's current name. */
  names: Map<string, string>;
}

/** The provider's login, then consent: the account named by `signInAs`, every scope asked for. */
async function interact(provider: Provider, state: ProviderState, req: IncomingMessage, res: ServerResponse) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    const { sub, amr, acr } = state.signInAs;
    await provider.interactionFinished(req, res, { login: { accountId: sub, amr, acr } });
    return;
  }
  const grant = new provider.Grant({
    accountId: details.session?.accountId ?? state.signInAs.sub,
    clientId: String(details.params.client_id),
  });
  grant.addOIDCScope(String(details.params.scope));
  await provider.interactionFinished(
    req,
    res,
    { consent: { grantId: await grant.save() } },
    {
      mergeWithLastSubmission: true,
    },
  );
}

/**
 * A browser at the provider: follows its redirects with its cookies until it sends the user back
 * to `redirectUri`, and returns that address.
 */
export async function throughProvider(authorizationUrl: string, redirectUri: string): Promise<URL> {
  const jar = new Map<string, string>();
  let next = new URL(authorizationUrl);
  for (let hop = 0; hop < 10; hop++) {
    if (next.href.startsWith(redirectUri)) return next;
    const res = await fetch(next, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (!location)
      throw new Error(`The provider answered ${res.status} without a redirect: ${await res.text()}`);
    next = new URL(location, next);
  }
  throw new Error('Too many redirects at the provider');
}
