// A local HTTP server that speaks the parts of the Stripe API Canto's stripe provider uses
// (API 2026-10-28: periods on subscription items, invoices' parent.subscription_details),
// so PAYMENTS=stripe is tested through the real `stripe` package with no network. It keeps
// what it was sent, so tests can assert what reached "Stripe"; tests set the subscriptions
// it answers, as Stripe would have them after each change. Webhooks are signed with the
// package's own test-header helper.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export const STRIPE_TEST_ENV = {
  PAYMENTS: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_canto_fake',
  STRIPE_WEBHOOK_SECRET: 'whsec_canto_fake_secret',
  STRIPE_PRICE_ID: 'price_canto_premium',
} as const;

export type StripeRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The form body, keys as Stripe's encoding writes them (`line_items[0][price]`). */
  form: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
};

type Json = Record<string, unknown>;

export type FakeStripe = {
  url: string;
  requests: StripeRequest[];
  customers: Map<string, Json>;
  subscriptions: Map<string, Json>;
  /** Connected accounts (Connect), by id; tests set `capabilities.transfers` as onboarding would. */
  accounts: Map<string, Json>;
  /** Transfers created, by id. */
  transfers: Map<string, Json>;
  /** Checkout Sessions created, by id, as Stripe returned them. */
  sessions: Map<string, Json>;
  /** Paths (method and path prefix, e.g. 'POST /v1/checkout/sessions') that answer 500. */
  failing: Set<string>;
  /** The requests made so far to a method and path prefix. */
  sent(method: string, pathPrefix: string): StripeRequest[];
  close(): Promise<void>;
};

const unix = (d: Date) => Math.floor(d.getTime() / 1000);
let seq = 0;
const nextId = (prefix: string) =>
  `${prefix}_${(++seq).toString(36)}${crypto.randomBytes(6).toString('hex')}`;

/** A Stripe subscription object as the API returns it. */
export function stripeSubscription(s: {
  id: string;
  customer: string;
  userId?: string | null;
  status?: string;
  start: Date;
  end: Date;
  cancelAtPeriodEnd?: boolean;
  canceledAt?: Date | null;
}): Json {
  return {
    id: s.id,
    object: 'subscription',
    customer: s.customer,
    status: s.status ?? 'active',
    cancel_at_period_end: s.cancelAtPeriodEnd ?? false,
    cancel_at: s.cancelAtPeriodEnd ? unix(s.end) : null,
    canceled_at: s.canceledAt ? unix(s.canceledAt) : null,
    ended_at: s.status === 'canceled' ? unix(s.canceledAt ?? s.end) : null,
    created: unix(s.start),
    livemode: false,
    metadata: s.userId ? { canto_user_id: s.userId } : {},
    items: {
      object: 'list',
      data: [
        {
          id: `si_${s.id}`,
          object: 'subscription_item',
          current_period_start: unix(s.start),
          current_period_end: unix(s.end),
          price: { id: STRIPE_TEST_ENV.STRIPE_PRICE_ID, object: 'price', unit_amount: 999 },
          quantity: 1,
        },
      ],
      has_more: false,
      url: `/v1/subscription_items?subscription=${s.id}`,
    },
  };
}

/** The data.object of each event kind Canto handles, naming the subscription as Stripe does. */
export function eventObject(type: string, subscription: Json, extra: Json = {}): Json {
  if (type.startsWith('checkout.session.'))
    return {
      id: nextId('cs_test'),
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      customer: subscription.customer,
      subscription: subscription.id,
      client_reference_id: null,
      metadata: {},
      ...extra,
    };
  if (type.startsWith('invoice.'))
    return {
      id: nextId('in'),
      object: 'invoice',
      customer: subscription.customer,
      status: type === 'invoice.paid' ? 'paid' : 'open',
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { metadata: {}, subscription: subscription.id },
      },
      ...extra,
    };
  return { ...subscription, ...extra };
}

/**
 * A one-time Checkout Session as the webhook's data.object carries it once the payer has paid
 * (`checkout.session.completed`), or as it expired (`checkout.session.expired`).
 */
export function completedSession(session: Json, over: Json = {}): Json {
  return {
    ...session,
    status: 'complete',
    payment_status: 'paid',
    payment_intent: nextId('pi'),
    url: null,
    ...over,
  };
}

/** A webhook delivery: the exact body and its Stripe-Signature header (at `at`). */
export function signedEvent(
  type: string,
  object: Json,
  at: Date,
  options: { id?: string; secret?: string } = {},
) {
  const id = options.id ?? nextId('evt');
  const payload = JSON.stringify(
    {
      id,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: unix(at),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    },
    null,
    2,
  );
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
    timestamp: unix(at),
  });
  return { id, payload, signature };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: StripeRequest[] = [];
  const customers = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const accounts = new Map<string, Json>();
  const transfers = new Map<string, Json>();
  const failing = new Set<string>();
  // Stripe answers a repeated idempotency key with the first answer.
  const replies = new Map<string, { status: number; body: Json }>();

  function route(r: StripeRequest): { status: number; body: Json } {
    const missing = (what: string) => ({
      status: 404,
      body: {
        error: {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such ${what}`,
        },
      },
    });
    if (r.method === 'POST' && r.path === '/v1/customers') {
      const metadata: Json = {};
      for (const [k, v] of Object.entries(r.form)) {
        const m = /^metadata\[(.+)\]$/.exec(k);
        if (m) metadata[m[1]!] = v;
      }
      const customer = {
        id: nextId('cus'),
        object: 'customer',
        email: r.form.email ?? null,
        metadata,
      };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (r.method === 'GET' && r.path === '/v1/customers/search') {
      const m = /^metadata\['([^']+)'\]:'([^']*)'$/.exec(r.query.get('query') ?? '');
      const data = m
        ? [...customers.values()].filter((c) => (c.metadata as Json)[m[1]!] === m[2])
        : [];
      return {
        status: 200,
        body: { object: 'search_result', data, has_more: false, next_page: null, url: r.path },
      };
    }
    const customer = /^\/v1\/customers\/([^/]+)$/.exec(r.path);
    if (r.method === 'GET' && customer) {
      const found = customers.get(customer[1]!);
      return found ? { status: 200, body: found } : missing('customer');
    }
    if (r.method === 'POST' && r.path === '/v1/checkout/sessions') {
      const id = nextId('cs_test');
      const metadata: Json = {};
      for (const [k, v] of Object.entries(r.form)) {
        const m = /^metadata\[(.+)\]$/.exec(k);
        if (m) metadata[m[1]!] = v;
      }
      // A one-time payment's total is its price_data line; a subscription's is the price's.
      const unit = r.form['line_items[0][price_data][unit_amount]'];
      const quantity = Number(r.form['line_items[0][quantity]'] ?? '1');
      const session: Json = {
        id,
        object: 'checkout.session',
        mode: r.form.mode,
        customer: r.form.customer ?? null,
        client_reference_id: r.form.client_reference_id ?? null,
        metadata,
        currency: r.form['line_items[0][price_data][currency]'] ?? 'usd',
        amount_total: unit === undefined ? 999 * quantity : Number(unit) * quantity,
        payment_status: 'unpaid',
        payment_intent: null,
        subscription: null,
        success_url: r.form.success_url,
        cancel_url: r.form.cancel_url,
        status: 'open',
        url: `https://checkout.stripe.test/c/pay/${id}`,
      };
      sessions.set(id, session);
      return { status: 200, body: session };
    }
    if (r.method === 'POST' && r.path === '/v1/billing_portal/sessions') {
      const id = nextId('bps');
      return {
        status: 200,
        body: {
          id,
          object: 'billing_portal.session',
          customer: r.form.customer,
          return_url: r.form.return_url,
          url: `https://billing.stripe.test/p/session/${id}`,
        },
      };
    }
    const formMetadata = () => {
      const metadata: Json = {};
      for (const [k, v] of Object.entries(r.form)) {
        const m = /^metadata\[(.+)\]$/.exec(k);
        if (m) metadata[m[1]!] = v;
      }
      return metadata;
    };
    if (r.method === 'POST' && r.path === '/v1/accounts') {
      // Until onboarding is done, an Express account's transfers capability is inactive.
      const account: Json = {
        id: nextId('acct'),
        object: 'account',
        type: r.form.type ?? 'express',
        email: r.form.email ?? null,
        metadata: formMetadata(),
        capabilities: { transfers: 'inactive' },
        charges_enabled: false,
        payouts_enabled: false,
        details_submitted: false,
      };
      accounts.set(account.id as string, account);
      return { status: 200, body: account };
    }
    const account = /^\/v1\/accounts\/([^/]+)$/.exec(r.path);
    if (r.method === 'GET' && account) {
      const found = accounts.get(account[1]!);
      return found ? { status: 200, body: found } : missing('account');
    }
    if (r.method === 'POST' && r.path === '/v1/account_links') {
      if (!accounts.has(r.form.account ?? '')) return missing('account');
      return {
        status: 200,
        body: {
          object: 'account_link',
          created: unix(new Date()),
          expires_at: unix(new Date()) + 300,
          url: `https://connect.stripe.test/setup/e/${r.form.account}/${nextId('link')}`,
        },
      };
    }
    if (r.method === 'POST' && r.path === '/v1/transfers') {
      const destination = accounts.get(r.form.destination ?? '');
      if (!destination) return missing('account');
      if ((destination.capabilities as Json).transfers !== 'active')
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              code: 'insufficient_capabilities_for_transfer',
              message: 'Your destination account needs to have the transfers capability enabled.',
            },
          },
        };
      const transfer: Json = {
        id: nextId('tr'),
        object: 'transfer',
        amount: Number(r.form.amount),
        amount_reversed: 0,
        currency: r.form.currency,
        destination: r.form.destination,
        transfer_group: r.form.transfer_group ?? null,
        metadata: formMetadata(),
        reversed: false,
        created: unix(new Date()),
        livemode: false,
      };
      transfers.set(transfer.id as string, transfer);
      return { status: 200, body: transfer };
    }
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(r.path);
    if (r.method === 'GET' && sub) {
      const found = subscriptions.get(sub[1]!);
      return found ? { status: 200, body: found } : missing('subscription');
    }
    return missing(`route ${r.method} ${r.path}`);
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake-stripe');
    const raw = await readBody(req);
    const request: StripeRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      form: Object.fromEntries(new URLSearchParams(raw)),
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      authorization: req.headers.authorization,
    };
    requests.push(request);
    const send = (status: number, body: Json) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': nextId('req'),
        // A failure the tests inject is final: no retries by the package.
        'stripe-should-retry': 'false',
      });
      res.end(JSON.stringify(body));
    };
    if ([...failing].some((f) => `${request.method} ${request.path}`.startsWith(f)))
      return send(500, { error: { type: 'api_error', message: 'Injected failure' } });
    const key =
      request.idempotencyKey && `${request.method} ${request.path} ${request.idempotencyKey}`;
    const reply = (key && replies.get(key)) || route(request);
    if (key) replies.set(key, reply);
    send(reply.status, reply.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    customers,
    subscriptions,
    sessions,
    accounts,
    transfers,
    failing,
    sent: (method, prefix) =>
      requests.filter((r) => r.method === method && r.path.startsWith(prefix)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
