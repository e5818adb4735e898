import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../core/errors.ts';
import { partsOf, type IncomingPart, type MultipartLimits } from '../http/multipart-parts.ts';
import {
  audioInvalid,
  receiveAudio,
  receiveImage,
  type AudioIntakeRules,
  type ImageIntakeRules,
  type ReceivedAudio,
  type ReceivedImage,
} from './media-intake.ts';

/*
 * The upload forms (songs, covers, podcast shows and episodes, ads, avatars), each declared
 * once: its text fields (the contract's zod object, which checks them and documents them),
 * its file fields with what each is (audio with its intake rules, an image with its own),
 * and the parser's ceilings. From that one declaration come the OpenAPI body of the route
 * (`doc`) and the reading of a request into typed `{ fields, files }` at the route's edge
 * (`withUpload`), so no service walks multipart parts. Files are streamed, never buffered
 * by the HTTP layer: audio to a temp file while counted and sniffed (a non-audio body fails
 * after a few bytes, an oversized one at the byte that breaks the limit), images into
 * memory up to their few MB. Every check happens as its part arrives, in whatever order the
 * parts come.
 */

/** An audio file field: streamed to a temp file while counted and sniffed (media-intake.ts). */
export type AudioField = {
  kind: 'audio';
  /** Its limit and messages; the field's name is its key in the form. */
  rules: Omit<AudioIntakeRules, 'field'>;
  /** A part whose declared type is not audio/* is refused before a byte is read (415 'type'). */
  declaredAudio?: true;
  /** The 400's message when the form has none; without it the file is optional. */
  required?: string;
  description: string;
};

/** An image file field: read into memory, then decoded by the service (processImage). */
export type ImageField = {
  kind: 'image';
  rules: Omit<ImageIntakeRules, 'field'>;
  required?: string;
  description: string;
};

export type FileField = AudioField | ImageField;

export type UploadFormSpec<
  T extends z.ZodObject = z.ZodObject,
  F extends Record<string, FileField> = Record<string, FileField>,
> = {
  /** The text fields; a field the object requires that is not sent is judged as empty. */
  text: T;
  /**
   * Unknown text fields are ignored and a repeated one's last value counts (the song forms,
   * as they have always been); otherwise either is refused (400).
   */
  lenientText?: true;
  files: F;
  /**
   * The parser's own ceilings (busboy's); a file part may reach its field's limit + 1 byte
   * there, so that the intake sees the byte that breaks the limit and answers in its words.
   */
  limits: Pick<MultipartLimits, 'files' | 'fields' | 'parts' | 'fieldSize'>;
};

/** A form as routes and services use it: its declaration, its parser limits and its doc. */
export type UploadForm<S extends UploadFormSpec = UploadFormSpec> = S & {
  multipartLimits: MultipartLimits;
  /** The text fields the object requires (an absent one is judged as empty). */
  requiredText: string[];
  /**
   * The route schema's OpenAPI body (platform-plugins.ts documents `multipartBody`), made
   * when the document is, not at start.
   */
  doc: { consumes: string[]; multipartBody: () => Record<string, unknown> };
};

/** An audio file as the form received it: in its temp file, counted and sniffed. */
export type UploadedAudio = ReceivedAudio & { filename: string };

type Received<F extends FileField> = F extends AudioField ? UploadedAudio : ReceivedImage;
type RequiredFiles<F> = { [K in keyof F]: F[K] extends { required: string } ? K : never }[keyof F];

/** The form's files by field: a required one is there, an optional one may be missing. */
export type UploadFiles<F extends Record<string, FileField>> = {
  [K in RequiredFiles<F>]: Received<F[K]>;
} & { [K in Exclude<keyof F, RequiredFiles<F>>]?: Received<F[K]> };

export type UploadValues<S extends UploadFormSpec> = {
  fields: z.output<S['text']>;
  files: UploadFiles<S['files']>;
};

/**
 * A request's upload, read when the service asks (after its own checks, so a caller with no
 * rights over the row never has a byte of the body read).
 */
export type IncomingUpload<S extends UploadFormSpec> = { read(): Promise<UploadValues<S>> };

/** Declares an upload form (see the top of this file). */
export function uploadForm<const T extends z.ZodObject, const F extends Record<string, FileField>>(
  spec: UploadFormSpec<T, F>,
): UploadForm<UploadFormSpec<T, F>> {
  const files = Object.entries(spec.files);
  let body: Record<string, unknown> | undefined;
  const multipartBody = () => {
    const text = z.toJSONSchema(spec.text, { io: 'input', unrepresentable: 'any' });
    const required = [
      ...files.filter(([, f]) => f.required).map(([name]) => name),
      ...(text.required ?? []),
    ];
    return {
      type: 'object',
      // OpenAPI 3.0 wants a non-empty list or none (an edit form may require nothing).
      ...(required.length > 0 ? { required } : {}),
      properties: {
        ...Object.fromEntries(
          files.map(([name, f]) => [
            name,
            { type: 'string', format: 'binary', description: f.description },
          ]),
        ),
        ...text.properties,
      },
    };
  };
  return {
    ...spec,
    requiredText: Object.entries(spec.text.shape)
      .filter(([, field]) => !(field as z.ZodType).safeParse(undefined).success)
      .map(([name]) => name),
    multipartLimits: {
      ...spec.limits,
      fileSize: Math.max(0, ...files.map(([, f]) => f.rules.maxBytes)) + 1,
      fieldNameSize: 64,
      headerPairs: 20,
    },
    doc: { consumes: ['multipart/form-data'], multipartBody: () => (body ??= multipartBody()) },
  };
}

/**
 * The multipart parser, for one scope: only routes that take upload forms parse multipart
 * bodies. Each read passes its own form's limits; these are the scope's defaults.
 */
export async function acceptUploads(app: FastifyInstance, form: UploadForm): Promise<void> {
  await app.register(multipart, { limits: form.multipartLimits, throwFileSizeLimit: true });
}

type TempDir<S extends UploadFormSpec> = [
  Extract<S['files'][keyof S['files']], AudioField>,
] extends [never]
  ? { tempDir?: undefined }
  : { tempDir: string };

/**
 * Runs `use` with the request's upload as `form` declares it, audio spooled in `tempDir`
 * (`<uuid>.upload`, which the media reconciler sweeps after a crash). Every temp file the
 * read made is gone once `use` has settled, whether it stored the file or failed.
 */
export async function withUpload<S extends UploadFormSpec, T>(
  request: FastifyRequest,
  form: UploadForm<S>,
  where: TempDir<S>,
  use: (upload: IncomingUpload<S>) => Promise<T>,
): Promise<T> {
  const temps: string[] = [];
  let reading: Promise<UploadValues<S>> | undefined;
  try {
    return await use({
      read: () => (reading ??= readUpload(request, form, where.tempDir, temps)),
    });
  } finally {
    // A read still streaming would write its temp file after the removal.
    await reading?.catch(() => {});
    await Promise.all(temps.map((file) => fsp.rm(file, { force: true })));
  }
}

const validation = (message: string, field?: string) =>
  new AppError(ErrorCode.validation, message, field ? { field } : undefined);

/** The fields as `schema` reads them, or the first issue as a 400 naming its field. */
function parseFields<S extends z.ZodType>(schema: S, fields: Record<string, string>): z.output<S> {
  const result = schema.safeParse(fields);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw validation(issue.message, issue.path.map(String).join('.') || undefined);
}

/** A part the form does not take: its bytes are drained, then it is refused by name. */
function refused(part: IncomingPart, message: (name: string) => string): AppError {
  if (part.kind === 'file') part.stream.resume();
  const name = part.name.slice(0, 50);
  return validation(message(name), name);
}

async function readUpload<S extends UploadFormSpec>(
  request: FastifyRequest,
  form: UploadForm<S>,
  tempDir: string | undefined,
  temps: string[],
): Promise<UploadValues<S>> {
  const shape = form.text.shape;
  // One field at a time, as it arrives: a bad one fails before a large file is read.
  const one = form.text.partial();
  // A value the parser cut at its field-size limit is longer than any rule allows: it is
  // judged as the longest value, so its rule answers with its own "too long".
  const cut = 'x'.repeat(form.limits.fieldSize + 1);
  const raw: Record<string, string> = {};
  const files: Record<string, UploadedAudio | ReceivedImage> = {};
  const seen = new Set<string>();
  for await (const part of partsOf(request, form.multipartLimits)) {
    if (part.kind === 'field') {
      if (!Object.hasOwn(shape, part.name)) {
        if (form.lenientText) continue;
        throw refused(part, (name) => `Unknown field "${name}"`);
      }
      if (!form.lenientText && Object.hasOwn(raw, part.name))
        throw refused(part, (name) => `The field "${name}" was sent more than once`);
      raw[part.name] = part.value;
      parseFields(one, { [part.name]: part.truncated ? cut : part.value });
      continue;
    }
    const field = Object.hasOwn(form.files, part.name) ? form.files[part.name]! : null;
    if (!field || seen.has(part.name))
      throw refused(part, (name) => `Unexpected file field "${name}"`);
    seen.add(part.name);
    // A form whose file input was left empty sends a nameless, empty part.
    if (part.filename === '') {
      part.stream.resume();
      continue;
    }
    const rules = { ...field.rules, field: part.name };
    if (field.kind === 'image') {
      const image = await receiveImage(part.stream, part.truncated, rules);
      if (image) files[part.name] = image;
      continue;
    }
    if (field.declaredAudio && !part.mimeType.toLowerCase().startsWith('audio/')) {
      part.stream.resume();
      throw audioInvalid(rules, 'type');
    }
    if (!tempDir) throw new Error(`the form's audio field "${part.name}" has no temp directory`);
    await fsp.mkdir(tempDir, { recursive: true });
    const tempPath = path.join(tempDir, `${crypto.randomUUID()}.upload`);
    temps.push(tempPath);
    const audio = await receiveAudio(part.stream, tempPath, part.truncated, rules);
    if (audio) files[part.name] = { ...audio, filename: part.filename };
  }
  const absent = Object.fromEntries(form.requiredText.map((name) => [name, '']));
  const fields = parseFields(form.text, { ...absent, ...raw });
  for (const [name, field] of Object.entries(form.files))
    if (field.required && !files[name]) throw validation(field.required, name);
  return { fields, files } as UploadValues<S>;
}
