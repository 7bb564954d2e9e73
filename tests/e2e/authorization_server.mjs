// A real OAuth 2.1 / OpenID authorization server for the tests: oidc-provider (a certified
// OpenID provider, from npm) on a free loopback port, issuing ES256-signed JWT access tokens for
// resource indicators (RFC 8707), opaque ones for the resources named opaque, and answering
// token introspection (RFC 7662). Logins and consents are granted at once to "alice": the
// interaction endpoint finishes every interaction it is sent to, so a test "browser" only has to
// follow redirects (see authorize()). With `tls` ({cert, key}, PEM) it serves HTTPS.
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { randomUUID } from 'node:crypto';

import Provider from 'oidc-provider';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

import { freePort } from './helpers.mjs';

export const SCOPES = ['notes:read', 'notes:write'];
export const INTROSPECTION_CLIENT = { id: 'mcp-server', secret: 'introspection-secret' };
export const SERVICE_CLIENT = { id: 'service', secret: 'service-secret' };

async function signingKey(kid) {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    return { privateKey, jwk: { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' } };
}

export class AuthorizationServer {
    // opaqueResources: resource indicators whose access tokens are opaque (introspected);
    // accessTokenTtl: seconds an access token lives (a test of expiry makes it short).
    static async start({ port, opaqueResources = [], tls, accessTokenTtl = 300 } = {}) {
        const as = new AuthorizationServer(port ?? (await freePort()), opaqueResources, tls);
        as.accessTokenTtl = accessTokenTtl;
        as.keys = [await signingKey('k1')];
        await as.listen();
        return as;
    }

    constructor(port, opaqueResources, tls) {
        this.port = port;
        this.tls = tls;
        this.issuer = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
        this.opaqueResources = new Set(opaqueResources);
    }

    get signing() {
        return this.keys[0];
    }

    #provider() {
        const opaque = this.opaqueResources;
        const provider = new Provider(this.issuer, {
            clients: [
                {
                    client_id: SERVICE_CLIENT.id,
                    client_secret: SERVICE_CLIENT.secret,
                    grant_types: ['client_credentials'],
                    redirect_uris: [],
                    response_types: [],
                },
                {
                    client_id: INTROSPECTION_CLIENT.id,
                    client_secret: INTROSPECTION_CLIENT.secret,
                    grant_types: [],
                    redirect_uris: [],
                    response_types: [],
                },
            ],
            jwks: { keys: this.keys.map((k) => k.jwk) },
            clientDefaults: { id_token_signed_response_alg: 'ES256' },
            // The SDKs register with the scope of the first challenge; a client must still be able
            // to ask for more later (step-up), so registrations keep no scope restriction.
            extraClientMetadata: {
                properties: ['mcp_e2e'],
                validator: (_ctx, _key, _value, metadata) => {
                    metadata.scope = undefined;
                },
            },
            findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
            interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
            // The resource's scopes too, or dynamic registration refuses clients that name them.
            scopes: ['openid', 'offline_access', ...SCOPES],
            features: {
                devInteractions: { enabled: false },
                clientCredentials: { enabled: true },
                introspection: { enabled: true, allowedPolicy: () => true },
                registration: { enabled: true },
                resourceIndicators: {
                    enabled: true,
                    defaultResource: (_ctx, _client, oneOf) => oneOf,
                    useGrantedResource: () => true,
                    getResourceServerInfo: (_ctx, resource) => ({
                        scope: SCOPES.join(' '),
                        audience: resource,
                        accessTokenTTL: this.accessTokenTtl,
                        accessTokenFormat: opaque.has(resource) ? 'opaque' : 'jwt',
                        jwt: { sign: { alg: 'ES256' } },
                    }),
                },
            },
            pkce: { required: () => true },
            ttl: { AccessToken: this.accessTokenTtl, AuthorizationCode: 60, ClientCredentials: this.accessTokenTtl, Grant: 600, Interaction: 600, Session: 600 },
        });
        provider.on('server_error', (_ctx, e) => console.error('authorization server error:', e));
        return provider;
    }

    async listen() {
        this.provider = this.#provider();
        const callback = this.provider.callback();
        const serve = (req, res) => {
            // No keep-alive: a test's pooled connection must not outlive a restart (rotate()).
            res.setHeader('connection', 'close');
            if (req.url.startsWith('/interaction/')) return this.#grant(req, res);
            return callback(req, res);
        };
        this.server = this.tls ? createHttpsServer(this.tls, serve) : createServer(serve);
        await new Promise((resolve, reject) => {
            this.server.once('error', reject);
            this.server.listen(this.port, '127.0.0.1', resolve);
        });
    }

    // Logs "alice" in and grants every scope and resource asked for.
    async #grant(req, res) {
        try {
            const details = await this.provider.interactionDetails(req, res);
            if (details.prompt.name === 'login') {
                await this.provider.interactionFinished(req, res, { login: { accountId: 'alice' } });
                return;
            }
            const grant = details.grantId
                ? await this.provider.Grant.find(details.grantId)
                : new this.provider.Grant({ accountId: 'alice', clientId: details.params.client_id });
            const missing = details.prompt.details;
            if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
            for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
                grant.addResourceScope(resource, scopes.join(' '));
            }
            await this.provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, {
                mergeWithLastSubmission: true,
            });
        } catch (e) {
            res.statusCode = 500;
            res.end(String(e));
        }
    }

    async close() {
        if (!this.server) return;
        this.server.closeAllConnections();
        await new Promise((resolve) => this.server.close(resolve));
        this.server = undefined;
    }

    // Publishes a new signing key first (tokens signed with the old one stay valid).
    async rotate() {
        this.keys.unshift(await signingKey(`k${this.keys.length + 1}`));
        await this.close();
        await this.listen();
    }

    // A client-credentials token for `resource` (RFC 8707), as the service client.
    async serviceToken(resource, scope = SCOPES.join(' ')) {
        const response = await fetch(`${this.issuer}/token`, {
            method: 'POST',
            headers: {
                'content-type': 'application/x-www-form-urlencoded',
                authorization: `Basic ${Buffer.from(`${SERVICE_CLIENT.id}:${SERVICE_CLIENT.secret}`).toString('base64')}`,
            },
            body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
        });
        const body = await response.json();
        if (!response.ok) throw new Error(`token request failed: ${JSON.stringify(body)}`);
        return body.access_token;
    }

    // A JWT signed with the server's current key, with whatever claims a test needs (hostile
    // ones included); `header` may override alg, kid and typ.
    async forge(claims, header = {}) {
        const now = Math.floor(Date.now() / 1000);
        return new SignJWT({ iss: this.issuer, sub: 'alice', iat: now, exp: now + 300, scope: SCOPES.join(' '), ...claims })
            .setProtectedHeader({ alg: 'ES256', kid: this.signing.jwk.kid, typ: 'at+jwt', ...header })
            .sign(this.signing.privateKey);
    }
}

// Plays the user's browser for an authorization request: follows the redirects through the
// interaction (cookies kept) until the authorization server sends it to `redirectUri`; returns
// the code, and the iss of RFC 9207 when the server sends one.
export async function authorize(url, redirectUri) {
    const cookies = new Map();
    let next = new URL(url);
    for (let hop = 0; hop < 20; hop++) {
        const response = await fetch(next, {
            redirect: 'manual',
            headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const line of response.headers.getSetCookie()) {
            const [pair] = line.split(';');
            const at = pair.indexOf('=');
            cookies.set(pair.slice(0, at), pair.slice(at + 1));
        }
        const location = response.headers.get('location');
        if (!location) throw new Error(`authorization stopped at ${next} with ${response.status}: ${await response.text()}`);
        next = new URL(location, next);
        if (next.href.startsWith(redirectUri)) {
            const code = next.searchParams.get('code');
            if (!code) throw new Error(`authorization refused: ${next.search}`);
            return { code, iss: next.searchParams.get('iss') ?? undefined };
        }
    }
    throw new Error('too many redirects during authorization');
}

// The OAuthClientProvider the SDKs' auth() drives: a public client registered dynamically,
// PKCE, and the "browser" above.
export class TestOAuthClient {
    constructor() {
        this.redirectUri = `http://127.0.0.1:9/callback/${randomUUID()}`;
        this.codes = [];
    }
    get redirectUrl() {
        return this.redirectUri;
    }
    get clientMetadata() {
        return {
            client_name: 'mcp-cpp e2e',
            redirect_uris: [this.redirectUri],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
        };
    }
    clientInformation() {
        return this.client;
    }
    saveClientInformation(client) {
        this.client = client;
    }
    tokens() {
        return this.saved;
    }
    saveTokens(tokens) {
        this.saved = tokens;
    }
    async redirectToAuthorization(url) {
        this.requestedScopes = url.searchParams.get('scope');
        this.codes.push(await authorize(url, this.redirectUri));
    }
    saveCodeVerifier(verifier) {
        this.verifier = verifier;
    }
    codeVerifier() {
        return this.verifier;
    }
}
