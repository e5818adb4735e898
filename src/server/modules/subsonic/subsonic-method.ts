// One OpenSubsonic method as the /rest router calls it: the caller (already authenticated) and
// the query or form parameters in, the response's payload out, or a SubsonicError.

/** The standard Subsonic error codes. */
export const SubsonicCode = {
  generic: 0,
  missingParameter: 10,
  clientTooOld: 20,
  serverTooOld: 30,
  wrongCredentials: 40,
  tokenAuthNotSupported: 41,
  unsupportedAuth: 42,
  conflictingAuth: 43,
  invalidApiKey: 44,
  notAuthorized: 50,
  trialOver: 60,
  notFound: 70,
} as const;
export type SubsonicCode = (typeof SubsonicCode)[keyof typeof SubsonicCode];

export class SubsonicError extends Error {
  constructor(
    readonly code: SubsonicCode,
    message: string,
  ) {
    super(message);
  }
}

export type SubsonicCaller = {
  userId: string;
  username: string;
  roles: readonly string[];
};

/** Parameters as received: a name may repeat (id=…&id=…). */
export type SubsonicParams = {
  /** The first value, or undefined. */
  get(name: string): string | undefined;
  /** Every value, in order. */
  all(name: string): string[];
};

/**
 * A method's answer: the payload keyed as the OpenSubsonic response names it (for example
 * `{ artists: { ignoredArticles, index: [...] } }`), merged into the envelope beside status
 * and version; `{}` for an empty success (ping). Attribute-like fields are plain scalars;
 * arrays are repeated elements in XML and arrays in JSON.
 */
export type SubsonicPayload = Record<string, unknown>;

/** A binary answer (stream, download, getCoverArt) instead of an envelope. */
export type SubsonicBinary = {
  binary: true;
  /** Sends the bytes itself (ranges, headers) on Fastify's raw reply. */
  send(
    request: import('fastify').FastifyRequest,
    reply: import('fastify').FastifyReply,
  ): Promise<unknown>;
};

export type SubsonicHandler = (
  caller: SubsonicCaller,
  params: SubsonicParams,
) => Promise<SubsonicPayload | SubsonicBinary>;

/** Methods by name (without `.view`). */
export type SubsonicMethods = Record<string, SubsonicHandler>;

/** Parses an integer parameter within [min, max]; absent → fallback; bad → error 10/0. */
export function intParam(
  params: SubsonicParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = params.get(name);
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw)) throw new SubsonicError(SubsonicCode.generic, `Invalid ${name}`);
  const n = Number(raw);
  if (n < min || n > max)
    throw new SubsonicError(SubsonicCode.generic, `${name} must be between ${min} and ${max}`);
  return n;
}

/** Error 10 for the parameter `name`. */
export const missingParameter = (name: string) =>
  new SubsonicError(SubsonicCode.missingParameter, `Required parameter is missing: ${name}`);

/** Error 70: '<what> not found'. */
export const notFound = (what: string) =>
  new SubsonicError(SubsonicCode.notFound, `${what} not found`);

/** A required parameter, or error 10. */
export function required(params: SubsonicParams, name: string): string {
  const value = params.get(name);
  if (value === undefined || value === '') throw missingParameter(name);
  return value;
}
