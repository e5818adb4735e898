import fs from 'node:fs';
import { Readable } from 'node:stream';
import type {
  AdImpressionBody,
  AdImpressionResult,
  AdminAdDto,
  AdminAdListItem,
  AdShowingResponse,
} from '../../../contracts/ads.contract.ts';
import type { Clock } from '../../../core/clock.ts';
import { AppError, ErrorCode } from '../../../core/errors.ts';
import { adLimits, adMessages } from '../../../core/validation/ad.rules.ts';
import type { Db } from '../../db/client.ts';
import type { Ffmpeg } from '../../media/ffmpeg.ts';
import { loudnessDto, renditionDtos, type MediaUrls } from '../../media/media-dto.ts';
import {
  probeAudio,
  processImage,
  type ReceivedAudio,
  type ReceivedImage,
} from '../../media/media-intake.ts';
import type { IncomingUpload } from '../../media/upload-form.ts';
import { MEDIA_TYPES, newKey, type Bucket, type Storage } from '../../storage/storage.ts';
import { discardStored, locateStored } from '../../storage/stored-objects.ts';
import type { adEditForm, adForm } from './ads.forms.ts';
import { rateRules, type RateLimiter } from '../../security/rate-limit.ts';
import {
  CURRENT_PLAY_GRACE_MS,
  impressionRefusal,
  nextShowingAt,
  SHOWING_TTL_MS,
  type ImpressionRefusal,
} from './ad-showing.ts';
import type {
  AdFileChange,
  AdMediaRepository,
  AdPatch,
  AdRenditionRow,
  AdRow,
  AdsRepository,
  StoredFile,
} from './ads.repository.ts';
import type { Log } from '../../log.ts';

export type AdsServiceDeps = {
  ads: AdsRepository;
  /** The audio's renditions (the media job's rows). */
  media: Pick<AdMediaRepository, 'renditionsOf'>;
  storage: Storage;
  /** Measures uploaded audio by decoding it (the app's one ffmpeg). */
  ffmpeg: Ffmpeg;
  log: Log;
  clock: Clock;
  /** The URL clients get for a stored media URL (signed for audio): the media module's. */
  publicUrl: MediaUrls;
  /** The frequency cap: one showing per listener this often (0: none). */
  showingIntervalSeconds: number;
  /** The asking rule's limit per listener and minute. */
  showingAsksPerMinute: number;
  limiter: Pick<RateLimiter, 'hit'>;
  /** The premium module's check: subscribers are never handed an ad. */
  isSubscribed: (userId: string) => Promise<boolean>;
  /** Enqueues the media job of a stored audio file in `tx`, the transaction that keeps it. */
  enqueueMedia: (audioKey: string, tx: Db) => Promise<unknown>;
};

export type AdsService = ReturnType<typeof createAdsService>;

const notFound = () => new AppError(ErrorCode.notFound, adMessages.adNotFound);
/** Each reason an impression is not counted, as its own stable code. */
function refusalError(why: ImpressionRefusal): AppError {
  const field = { field: 'showing_id' };
  switch (why) {
    case 'ad-inactive':
      return new AppError(ErrorCode.adInactive, adMessages.adInactive, field);
    case 'premium':
      return new AppError(ErrorCode.adListenerPremium, adMessages.listenerPremium, field);
    case 'expired':
      return new AppError(ErrorCode.adShowingExpired, adMessages.showingExpired, field);
    case 'too-early':
      return new AppError(ErrorCode.adShowingTooEarly, adMessages.showingTooEarly, field);
  }
}

const bothGiven = (field: string) =>
  new AppError(ErrorCode.validation, adMessages.replaceOrRemove, { field });

/**
 * Showings are pruned as they are issued, like the rate limiter's rows: at most once a minute
 * per process, a batch at a time, in the background. A showing is of use for its hour
 * (SHOWING_TTL_MS) and, as a listener's latest, for the frequency cap: a day, or twice the cap.
 */
const PRUNE_EVERY_MS = 60_000;
const PRUNE_BATCH = 500;
const SHOWINGS_KEPT_MS = 24 * 3600_000;

/**
 * The ad inventory (admins), get-active-ads and track-ad-impression
 * (docs/decisions/0023). Uploads are all or nothing: every check first (the form's as its
 * parts arrive, ads.forms.ts), then the files are stored, then one transaction writes the row
 * and the audio's media job; any failure deletes what was stored, and the route removes the
 * temp file.
 */
export function createAdsService(deps: AdsServiceDeps) {
  const { ads, storage, log } = deps;
  let lastPrune = -Infinity;
  function pruneShowings(now: Date) {
    if (now.getTime() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now.getTime();
    const keptMs = Math.max(
      SHOWINGS_KEPT_MS,
      SHOWING_TTL_MS,
      2 * deps.showingIntervalSeconds * 1000,
    );
    ads.pruneShowings(new Date(now.getTime() - keptMs), PRUNE_BATCH).then(
      // A full batch means a backlog: the next showing prunes again.
      (n) => {
        if (n === PRUNE_BATCH) lastPrune = -Infinity;
      },
      (err: unknown) =>
        log.warn(
          { err: err instanceof Error ? err.message : String(err) },
          'ad showings prune failed',
        ),
    );
  }
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
    const renditions = await deps.media.renditionsOf(rows.map((r) => r.id));
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
   * Checks the form's files for real (the image decoded and re-encoded, the audio parsed and
   * decoded), then stores them; what was stored is pushed to `stored` as it lands.
   */
  async function storeFiles(
    form: { image?: ReceivedImage; audio?: ReceivedAudio },
    stored: Array<[Bucket, string]>,
  ): Promise<{ image: StoredFile | null; audio: (StoredFile & { durationMs: number }) | null }> {
    const facts = form.audio ? await probeAudio(form.audio, deps.ffmpeg, log) : null;
    const webp = form.image ? await processImage(form.image) : null;
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

  /** Runs an upload's storing; what it stored goes again if it fails. */
  async function storing<T>(work: (stored: Array<[Bucket, string]>) => Promise<T>): Promise<T> {
    const stored: Array<[Bucket, string]> = [];
    try {
      return await work(stored);
    } catch (error) {
      await discard(stored);
      throw error;
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
    async create(upload: IncomingUpload<typeof adForm>): Promise<AdminAdDto> {
      const form = await upload.read();
      return storing(async (stored) => {
        const { image, audio } = await storeFiles(form.files, stored);
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
    async update(id: string, upload: IncomingUpload<typeof adEditForm>): Promise<AdminAdDto> {
      if (!(await ads.findById(id))) throw notFound();
      const { fields, files } = await upload.read();
      if (fields.remove_image && files.image) throw bothGiven('remove_image');
      if (fields.remove_audio && files.audio) throw bothGiven('remove_audio');
      const result = await storing(async (stored) => {
        const { image, audio } = await storeFiles(files, stored);
        const patch: AdPatch = {};
        if (fields.title !== undefined) patch.title = fields.title;
        if (fields.description !== undefined) patch.description = fields.description || null;
        if (fields.target_url !== undefined) patch.targetUrl = fields.target_url || null;
        if (fields.duration !== undefined) patch.durationMs = fields.duration * 1000;
        const change: AdFileChange = {};
        if (image) change.image = image;
        else if (fields.remove_image) change.image = null;
        if (audio) change.audio = audio;
        else if (fields.remove_audio) change.audio = null;
        const updated = await ads.update(id, patch, change, async (_row, tx) => {
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
     * get-active-ads: the next active ad in rotation in a new showing for this listener; none
     * for subscribers (403: the web app never asks). `ad: null` when no ad is active, or when
     * the listener's last showing is more recent than the frequency cap allows (then
     * `next_showing_at` says when). Asking is rate limited per listener (429).
     */
    async issueShowing(userId: string): Promise<AdShowingResponse> {
      await deps.limiter.hit({
        rule: { ...rateRules.adShowingPerUser, limit: deps.showingAsksPerMinute },
        subject: userId,
      });
      if (await deps.isSubscribed(userId))
        throw new AppError(ErrorCode.forbidden, adMessages.subscriberNoAds);
      const row = await ads.nextActive();
      if (!row) return { ad: null, next_showing_at: null };
      const now = deps.clock.now();
      pruneShowings(now);
      const interval = deps.showingIntervalSeconds;
      const result = await ads.issueShowing({
        adId: row.id,
        userId,
        durationMs: row.durationMs,
        at: now,
        notAfter: interval > 0 ? new Date(now.getTime() - interval * 1000) : null,
        graceMs: CURRENT_PLAY_GRACE_MS,
      });
      if ('lastAt' in result)
        return {
          ad: null,
          next_showing_at: nextShowingAt(result.lastAt, interval).toISOString(),
        };
      const renditions = row.mediaStatus === 'ready' ? await deps.media.renditionsOf([row.id]) : [];
      return {
        ad: { ...mediaOf(row, renditions), showing_id: result.issued.id },
        next_showing_at: null,
      };
    },

    /**
     * track-ad-impression: one per showing the server issued to this listener, counted only
     * when impressionRefusal allows (ad active, listener free, the ad's whole duration past,
     * the showing not expired); each refusal is its own 4xx and writes nothing. A replay
     * answers `recorded: false`. Rate limited per listener (429).
     */
    async recordImpression(userId: string, body: AdImpressionBody): Promise<AdImpressionResult> {
      await deps.limiter.hit({ rule: rateRules.adImpressionPerUser, subject: userId });
      const premium = await deps.isSubscribed(userId);
      const now = deps.clock.now();
      const result = await ads.recordImpression(body.showing_id, userId, now, (showing) => {
        const why = impressionRefusal(
          {
            issuedAt: showing.createdAt,
            durationMs: showing.durationMs,
            adActive: showing.adActive,
            premium,
          },
          now,
        );
        return why ? refusalError(why) : null;
      });
      if (result.outcome === 'not-found')
        throw new AppError(ErrorCode.adShowingNotFound, adMessages.showingNotFound, {
          field: 'showing_id',
        });
      return {
        recorded: result.outcome === 'recorded',
        song_id: result.showing.songId,
        podcast_episode_id: result.showing.podcastEpisodeId,
      };
    },
  };
}
