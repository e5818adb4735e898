/**
 * What server code logs through: the app's logger (Fastify's pino, `ctx.log`) or a test's
 * stand-in. Details first, then a message, as pino takes them.
 */
export type Log = {
  debug(details: object, message: string): void;
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
};
