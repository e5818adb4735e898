export * from './auth.schema.ts';
export * from './catalogue.schema.ts';
export * from './library.schema.ts';
export * from './listening.schema.ts';
export * from './money.schema.ts';
export * from './notifications.schema.ts';
export * from './jobs.schema.ts';
export * from './media.schema.ts';
