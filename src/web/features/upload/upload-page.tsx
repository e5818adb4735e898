// Spec §2 Song upload: title, genre, audio file, optional cover art, back to home. One
// multipart request with a progress bar (product.md §3); the server re-checks everything.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ArrowLeft, FileAudio, ImageIcon, LoaderCircle, Upload } from 'lucide-react';
import { songUploadFields, type SongDto } from '@/contracts/songs.contract.ts';
import { toUserMessage } from '@/core/error-messages.ts';
import { songMessages } from '@/core/validation/song.rules.ts';
import { firstUploadProblem } from '@/web/features/upload/song-upload-check.ts';
import { errorMessage } from '@/web/lib/api-client.ts';
import { uploadForm } from '@/web/components/upload/upload.ts';
import { formatBytes } from '@/web/lib/format.ts';
import { Button } from '@/web/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/web/components/ui/card.tsx';
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { GenreInput } from '@/web/components/upload/genre-input.tsx';

// Spec §8: every failure of a song upload, client check or server answer, has this title.
const FAILED = 'Upload Failed';

function FileSummary({ file }: { file: File }) {
  return (
    <p className="truncate text-sm text-muted-foreground" aria-live="polite">
      <span className="font-medium text-foreground">{file.name}</span> · {formatBytes(file.size)}
    </p>
  );
}

function UploadProgressBar({ percent }: { percent: number }) {
  return (
    <div className="space-y-2">
      <div className="flex justify-between text-sm">
        <span id="upload-progress-label">Uploading...</span>
        <span className="tabular-nums text-muted-foreground">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-labelledby="upload-progress-label"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div
          className="brand-gradient h-full rounded-full transition-[width] duration-200"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

export default function UploadPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const ids = useId();
  const abortRef = useRef<AbortController | null>(null);
  const [title, setTitle] = useState('');
  const [genre, setGenre] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [cover, setCover] = useState<File | null>(null);
  const [coverPreview, setCoverPreview] = useState<string | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const uploading = percent !== null;

  // Leaving the screen stops a running upload; the server keeps nothing of it.
  useEffect(() => () => abortRef.current?.abort(), []);

  useEffect(() => {
    if (!cover) return setCoverPreview(null);
    const url = URL.createObjectURL(cover);
    setCoverPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [cover]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (uploading) return;
    const problem = firstUploadProblem({ file, cover, title, genre });
    if (problem || !file) {
      toast.error(FAILED, { description: problem ?? songMessages.fileRequired });
      return;
    }

    const body = new FormData();
    // Fields first: the server reads them before it streams the files.
    if (title.trim()) body.append(songUploadFields.title, title.trim());
    if (genre.trim()) body.append(songUploadFields.genre, genre.trim());
    body.append(songUploadFields.file, file);
    if (cover) body.append(songUploadFields.cover, cover);

    const abort = new AbortController();
    abortRef.current = abort;
    setPercent(0);
    try {
      const song = await uploadForm<SongDto>('/songs', body, {
        signal: abort.signal,
        onProgress: ({ loaded, total }) => setPercent(Math.round((loaded / total) * 100)),
      });
      if (!song?.file_url) {
        toast.error(FAILED, { description: 'Music upload failed - no URL returned' });
        return;
      }
      toast.success('Song uploaded successfully!');
      void queryClient.invalidateQueries({ queryKey: ['songs'] });
      void queryClient.invalidateQueries({ queryKey: ['search'] });
      navigate('/');
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return;
      toast.error(FAILED, { description: errorMessage(err, toUserMessage(err)) });
    } finally {
      if (abortRef.current === abort) abortRef.current = null;
      // Unmounted after success or a cancel: nothing to reset.
      if (!abort.signal.aborted) setPercent(null);
    }
  };

  const cancel = () => {
    abortRef.current?.abort();
    setPercent(null);
  };

  return (
    <div className="mx-auto max-w-2xl">
      <Button variant="ghost" className="-ml-3 mb-4" onClick={() => navigate('/')}>
        <ArrowLeft aria-hidden="true" />
        Back to Home
      </Button>

      <Card>
        <CardHeader>
          <CardTitle>Upload a song</CardTitle>
          <CardDescription>
            MP3, WAV, FLAC, Ogg or M4A up to 100 MB, with optional cover art up to 5 MB.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={onSubmit} className="space-y-6">
            <fieldset disabled={uploading} className="space-y-6">
              <div className="space-y-2">
                <Label htmlFor={`${ids}-title`}>Title</Label>
                <Input
                  id={`${ids}-title`}
                  name="title"
                  value={title}
                  onChange={(e) => setTitle(e.target.value)}
                  placeholder="Leave blank to use the file's own title"
                  autoComplete="off"
                />
              </div>

              <div className="space-y-2">
                <Label htmlFor={`${ids}-genre`}>Genre</Label>
                <GenreInput id={`${ids}-genre`} value={genre} onChange={setGenre} />
              </div>

              <div className="space-y-2">
                <Label htmlFor={`${ids}-file`}>
                  <FileAudio className="size-4 text-muted-foreground" aria-hidden="true" />
                  Audio file
                </Label>
                <Input
                  id={`${ids}-file`}
                  name="file"
                  type="file"
                  accept="audio/*"
                  onChange={(e) => setFile(e.target.files?.[0] ?? null)}
                  className="h-auto cursor-pointer py-2 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-secondary file:px-3 file:py-1 file:text-sm file:font-medium file:text-secondary-foreground"
                />
                {file && <FileSummary file={file} />}
              </div>

              <div className="space-y-2">
                <Label htmlFor={`${ids}-cover`}>
                  <ImageIcon className="size-4 text-muted-foreground" aria-hidden="true" />
                  Cover art (optional)
                </Label>
                <div className="flex items-center gap-4">
                  <Input
                    id={`${ids}-cover`}
                    name="cover"
                    type="file"
                    accept="image/*"
                    onChange={(e) => setCover(e.target.files?.[0] ?? null)}
                    className="h-auto cursor-pointer py-2 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-secondary file:px-3 file:py-1 file:text-sm file:font-medium file:text-secondary-foreground"
                  />
                  {coverPreview && (
                    <img
                      src={coverPreview}
                      alt="Chosen cover art"
                      className="size-14 shrink-0 rounded-md object-cover shadow"
                    />
                  )}
                </div>
                {cover && <FileSummary file={cover} />}
              </div>
            </fieldset>

            {uploading && <UploadProgressBar percent={percent} />}

            <div className="flex flex-wrap gap-3">
              <Button type="submit" variant="brand" size="lg" disabled={uploading}>
                {uploading ? (
                  <LoaderCircle className="animate-spin" aria-hidden="true" />
                ) : (
                  <Upload aria-hidden="true" />
                )}
                {uploading ? 'Uploading...' : 'Upload Song'}
              </Button>
              {uploading && (
                <Button variant="outline" size="lg" onClick={cancel}>
                  Cancel
                </Button>
              )}
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
