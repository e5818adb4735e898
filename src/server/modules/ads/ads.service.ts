import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  adFormFields,
  adPatchFields,
  type ActiveAdResponse,
  type AdImpressionBody,
  type AdImpressionResult,
  type AdminAdDto,
  type AdminAdListItem,
} from '../../../contracts/ads.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { adLimits, adMessages } from '../../../core/validation/ad.rules.ts';
import type { Db } from '../../db/client.ts';
import type { IncomingPart } from '../../http/multipart-parts.ts';
import type { Ffmpeg } from '../../media/ffmpeg.ts';
import { loudnessDto, renditionDtos, type MediaUrls } from '../../media/media-dto.ts';
import {
  probeAudio,
  processCover,
  receiveAudio,
  receiveCover,
  type AudioIntakeRules,
  type ReceivedAudio,
} from '../../media/media-intake.ts';
import { MEDIA_TYPES, newKey, type Bucket, type Storage } from '../../storage/storage.ts';
import { discardStored, locateStored } from '../../storage/stored-objects.ts';
import { keepField, parseFields, unexpectedFile, validation } from '../../http/multipart-fields.ts';
import { asAdImage } from './ad-form.ts';
import type { ShowingSigner } from './ad-showing.ts';
import type {
  AdFileChange,
  AdPatch,
  AdRenditionRow,
  AdRow,
  AdsRepository,
  StoredFile,
} from './ads.repository.ts';
import type { Log } from '../../log.ts';

/** An ad's audio: the form's `audio` field, checked as a song's with the episode form's words. */
const AD_AUDIO: AudioIntakeRules = {
  field: 'audio',
  maxBytes: adLimits.audioMaxBytes,
  messages: { tooLarge: adMessages.audioTooLarge, invalid: adMessages.audioType },
};

export type AdsServiceDeps = {
  ads: AdsRepository;
  storage: Storage;
  /** Measures uploaded audio by decoding it (the app's one ffmpeg). */
  ffmpeg: Ffmpeg;
  /** Where audio waits while it is checked: `${DATA_DIR}/tmp`. */
  tempDir: string;
  log: Log;
  clock: Clock;
  /** The URL clients get for a stored media URL (signed for audio): the media module's. */
  publicUrl: MediaUrls;
  showings: ShowingSigner;
  /** The premium module's check: subscribers are never handed an ad. */
  isSubscribed: (userId: string) => Promise<boolean>;
  /** Enqueues the media job of a stored audio file in `tx`, the transaction that keeps it. */
  enqueueMedia: (audioKey: string, tx: Db) => Promise<unknown>;
};

export type AdsService = ReturnType<typeof createAdsService>;

type AdForm<T> = { fields: T; image: Buffer | null; audio: ReceivedAudio | null };

/** One field of a new ad's form, checked as it arrives (the title may come later). */
const adCreateCheck = adFormFields.partial();

const notFound = () => new AppError(ErrorCode.notFound, adMessages.adNotFound);

/**
 * The ad inventory (admins), get-active-ads and track-ad-impression
 * (docs/decisions/0023). Uploads are all or nothing: every check first, then the files are
 * stored, then one transaction writes the row and the audio's media job; any failure deletes
 * what was stored, and the temp file always goes.
 */
export function createAdsService(deps: AdsServiceDeps) {
  const { ads, storage, log } = deps;
  let tempReady: Promise<unknown> | undefined;
  const discard = (objects: Array<[Bucket, string]>) => discardStored(storage, log, objects);

  function mediaOf(row: AdRow, renditions: AdRenditionRow[]) {
    return {
      id: row.id,
      title: row.title,
      description: row.description,
      image_url: deps.publicUrl(row.imageUrl),
      audio_url: deps.publicUrl(row.audioUrl),
      duration: row.durationMs / 1000,
      target_url: row.targetUrl,
      status: row.mediaStatus,
      // Until the job is done the player streams the original (docs/decisions/0014).
      renditions: row.mediaStatus === 'ready' ? renditionDtos(renditions, deps.publicUrl) : [],
      loudness: loudnessDto(row.loudnessLufs, row.truePeakDbtp),
    };
  }

  async function toAdminDtos(rows: AdRow[]): Promise<AdminAdDto[]> {
    const renditions = await ads.renditionsOf(rows.map((r) => r.id));
    return rows.map((row) => ({
      ...mediaOf(
        row,
        renditions.filter((r) => r.adId === row.id),
      ),
      active: row.active,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt?.toISOString() ?? null,
    }));
  }

  /**
   * An ad form's parts: text fields checked as they arrive (a bad one fails before a large
   * file is read), an `image` read into memory (≤ 5 MB) and an `audio` (declared audio/*)
   * streamed to `tempPath` while counted and sniffed. An empty file part is a file input
   * left empty.
   */
  async function readForm<T>(
    parts: AsyncIterable<IncomingPart>,
    tempPath: string,
    schema: typeof adCreateCheck | typeof adPatchFields,
    parse: (fields: Record<string, string>) => T,
  ): Promise<AdForm<T>> {
    const raw: Record<string, string> = {};
    let image: Buffer | null = null;
    let audio: ReceivedAudio | null = null;
    const seen = new Set<string>();
    for await (const part of parts) {
      if (part.kind === 'field') {
        keepField(raw, part.name, part.value);
        parseFields(schema, { [part.name]: part.value });
        continue;
      }
      if ((part.name !== 'image' && part.name !== 'audio') || seen.has(part.name))
        throw unexpectedFile(part);
      seen.add(part.name);
      if (part.filename === '') {
        part.stream.resume();
        continue;
      }
      if (part.name === 'image') {
        const bytes = await asAdImage(() => receiveCover(part.stream, part.truncated));
        image = bytes.length > 0 ? bytes : null;
        continue;
      }
      if (!part.mimeType.toLowerCase().startsWith('audio/')) {
        part.stream.resume();
        throw new AppError(ErrorCode.unsupportedMedia, adMessages.audioType, {
          field: 'audio',
          reason: 'type',
        });
      }
      audio = await receiveAudio(part.stream, tempPath, part.truncated, AD_AUDIO);
    }
    return { fields: parse(raw), image, audio };
  }

  /**
   * Checks the form's files for real (the image decoded and re-encoded, the audio parsed and
   * decoded), then stores them; what was stored is pushed to `stored` as it lands.
   */
  async function storeFiles(
    form: { image: Buffer | null; audio: ReceivedAudio | null },
    stored: Array<[Bucket, string]>,
  ): Promise<{ image: StoredFile | null; audio: (StoredFile & { durationMs: number }) | null }> {
    const facts = form.audio ? await probeAudio(form.audio, deps.ffmpeg, log, AD_AUDIO) : null;
    const webp = form.image ? await asAdImage(() => processCover(form.image!)) : null;
    let image: StoredFile | null = null;
    if (webp) {
      const key = newKey('webp');
      await storage.put('cover-art', key, Readable.from([webp]), {
        contentType: MEDIA_TYPES.webp,
        maxBytes: adLimits.imageMaxBytes * 4,
      });
      stored.push(['cover-art', key]);
      image = { url: `/media/cover-art/${key}`, key: `cover-art/${key}` };
    }
    let audio: (StoredFile & { durationMs: number }) | null = null;
    if (form.audio && facts) {
      const key = newKey(facts.extension);
      await storage.put('music', key, fs.createReadStream(form.audio.path), {
        contentType: MEDIA_TYPES[facts.extension],
        maxBytes: adLimits.audioMaxBytes,
      });
      stored.push(['music', key]);
      audio = { url: `/media/music/${key}`, key: `music/${key}`, durationMs: facts.durationMs };
    }
    return { image, audio };
  }

  /** Runs an upload with a temp file for its audio; stored files go again if it fails. */
  async function withUpload<T>(
    work: (tempPath: string, stored: Array<[Bucket, string]>) => Promise<T>,
  ): Promise<T> {
    await (tempReady ??= fsp.mkdir(deps.tempDir, { recursive: true }));
    const tempPath = path.join(deps.tempDir, `${crypto.randomUUID()}.upload`);
    const stored: Array<[Bucket, string]> = [];
    try {
      return await work(tempPath, stored);
    } catch (error) {
      await discard(stored);
      throw error;
    } finally {
      await fsp.rm(tempPath, { force: true });
    }
  }

  return {
    /**
     * Every ad, newest first, for the admin inventory, with its impressions: all time and
     * the last 30 days by the app's clock (so tests can move it).
     */
    async all(): Promise<AdminAdListItem[]> {
      const since = new Date(
        deps.clock.now().getTime() - adLimits.recentImpressionDays * 24 * 3600_000,
      );
      const rows = await ads.allWithCounts(since);
      const dtos = await toAdminDtos(rows.map((r) => r.ad));
      return dtos.map((dto, i) => ({
        ...dto,
        impressions: rows[i]!.impressions,
        impressions_30d: rows[i]!.impressionsSince,
      }));
    },

    /** A new ad (active at once). */
    async create(parts: AsyncIterable<IncomingPart>): Promise<AdminAdDto> {
      return withUpload(async (tempPath, stored) => {
        // No title field at all is the same as an empty one: 'Title is required'.
        const form = await readForm(parts, tempPath, adCreateCheck, (raw) =>
          parseFields(adFormFields, { title: '', ...raw }),
        );
        const { image, audio } = await storeFiles(form, stored);
        const { fields } = form;
        const row = await ads.insert(
          {
            title: fields.title,
            description: fields.description || null,
            targetUrl: fields.target_url || null,
            durationMs: audio
              ? audio.durationMs
              : (fields.duration ?? adLimits.defaultDurationSeconds) * 1000,
            imageUrl: image?.url ?? null,
            imageKey: image?.key ?? null,
            audioUrl: audio?.url ?? null,
            audioKey: audio?.key ?? null,
            mediaStatus: audio ? 'processing' : 'ready',
          },
          async (_row, tx) => {
            if (audio) await deps.enqueueMedia(audio.key, tx);
          },
        );
        return (await toAdminDtos([row]))[0]!;
      });
    },

    /**
     * Edits an ad (checked to exist before the body is read). New files are stored first;
     * the files they replace are deleted once the row points at the new ones.
     */
    async update(id: string, parts: AsyncIterable<IncomingPart>): Promise<AdminAdDto> {
      if (!(await ads.findById(id))) throw notFound();
      const result = await withUpload(async (tempPath, stored) => {
        const form = await readForm(parts, tempPath, adPatchFields, (raw) =>
          parseFields(adPatchFields, raw),
        );
        const { fields } = form;
        if (fields.remove_image && form.image)
          throw validation(adMessages.replaceOrRemove, 'remove_image');
        if (fields.remove_audio && form.audio)
          throw validation(adMessages.replaceOrRemove, 'remove_audio');
        const { image, audio } = await storeFiles(form, stored);
        const patch: AdPatch = {};
        if (fields.title !== undefined) patch.title = fields.title;
        if (fields.description !== undefined) patch.description = fields.description || null;
        if (fields.target_url !== undefined) patch.targetUrl = fields.target_url || null;
        if (fields.duration !== undefined) patch.durationMs = fields.duration * 1000;
        const files: AdFileChange = {};
        if (image) files.image = image;
        else if (fields.remove_image) files.image = null;
        if (audio) files.audio = audio;
        else if (fields.remove_audio) files.audio = null;
        const updated = await ads.update(id, patch, files, async (_row, tx) => {
          if (audio) await deps.enqueueMedia(audio.key, tx);
        });
        if (!updated) throw notFound();
        return updated;
      });
      await discard(
        result.discarded.map((key) =>
          locateStored(key, key.startsWith('cover-art/') ? 'cover-art' : 'music'),
        ),
      );
      return (await toAdminDtos([result.row]))[0]!;
    },

    /** Deactivates (no listener is handed it) or reactivates an ad. */
    async setActive(id: string, active: boolean): Promise<AdminAdDto> {
      const row = await ads.setActive(id, active);
      if (!row) throw notFound();
      return (await toAdminDtos([row]))[0]!;
    },

    /**
     * get-active-ads: the next active ad in rotation with a fresh showing for this listener;
     * none for subscribers (403: the web app never asks), null when no ad is active.
     */
    async next(userId: string): Promise<ActiveAdResponse> {
      if (await deps.isSubscribed(userId))
        throw new AppError(ErrorCode.forbidden, adMessages.subscriberNoAds);
      const row = await ads.nextActive();
      if (!row) return { ad: null };
      const renditions = row.mediaStatus === 'ready' ? await ads.renditionsOf([row.id]) : [];
      return {
        ad: { ...mediaOf(row, renditions), showing_id: deps.showings.issue(row.id, userId) },
      };
    },

    /**
     * track-ad-impression: one per showing. The ad must exist (404), and the showing must be
     * one handed to this listener for this ad and still live (403); a replay writes nothing.
     */
    async recordImpression(userId: string, body: AdImpressionBody): Promise<AdImpressionResult> {
      if (!(await ads.findById(body.ad_id))) throw notFound();
      const showing = deps.showings.check(body.showing_id, body.ad_id, userId);
      if (!showing.ok)
        throw new AppError(
          ErrorCode.forbidden,
          showing.why === 'expired' ? adMessages.showingExpired : adMessages.showingNotIssued,
          { field: 'showing_id' },
        );
      const recorded = await ads.recordImpression({
        adId: body.ad_id,
        userId,
        songId: body.song_id ?? null,
        episodeId: body.podcast_episode_id ?? null,
        showingId: showing.showingId,
        at: deps.clock.now(),
      });
      return { recorded };
    },
  };
}
