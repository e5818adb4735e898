// Spec §2 Song upload: title, genre, audio file, optional cover art and lyrics, back to home. One
// multipart request with a progress bar (docs/decisions/0006); the server re-checks everything.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ArrowLeft } from 'lucide-react';
import { songsApi } from '@/contracts/api/songs.api.ts';
import { songUploadFields } from '@/contracts/songs.contract.ts';
import { songMessages } from '@/core/validation/song.rules.ts';
import { errorMessage } from '@/web/lib/api-client.ts';
import { Button } from '@/web/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/web/components/ui/card.tsx';
import { GenreField, LyricsField, TitleField } from '@/web/components/upload/field.tsx';
import { AudioField, CoverField } from '@/web/components/upload/file-field.tsx';
import { UploadButtons, UploadProgressBar } from '@/web/components/upload/form-submit.tsx';
import { isUploadStopped, useUpload } from '@/web/components/upload/use-upload.ts';
import { firstUploadProblem } from './song-upload-check.ts';
import { coverFromState } from './upload-cover.ts';

// Spec §8: every failure of a song upload, client check or server answer, has this title.
const FAILED = 'Upload Failed';

export default function UploadPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const ids = useId();
  const upload = useUpload();
  const [title, setTitle] = useState('');
  const [genre, setGenre] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [cover, setCover] = useState<File | null>(null);
  const [lyrics, setLyrics] = useState('');
  const { state } = useLocation();

  // A cover handed over by another screen (uploadWithCover) is chosen as if picked.
  useEffect(() => {
    const controller = new AbortController();
    coverFromState(state, controller.signal).then(
      (file) => file && setCover(file),
      (err: unknown) => {
        if (!controller.signal.aborted) toast.error(FAILED, { description: errorMessage(err) });
      },
    );
    return () => controller.abort();
  }, [state]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (upload.uploading) return;
    const problem = firstUploadProblem({ file, cover, title, genre, lyrics });
    if (problem || !file) {
      toast.error(FAILED, { description: problem ?? songMessages.fileRequired });
      return;
    }

    const body = new FormData();
    // Fields first: the server reads them before it streams the files.
    if (title.trim()) body.append(songUploadFields.title, title.trim());
    if (genre.trim()) body.append(songUploadFields.genre, genre.trim());
    if (lyrics.trim()) body.append(songUploadFields.lyrics, lyrics);
    body.append(songUploadFields.file, file);
    if (cover) body.append(songUploadFields.cover, cover);

    try {
      const song = await upload.send(songsApi.upload, {}, body);
      if (!song?.file_url) {
        toast.error(FAILED, { description: 'Music upload failed - no URL returned' });
        return;
      }
      toast.success('Song uploaded successfully!');
      void queryClient.invalidateQueries({ queryKey: ['songs'] });
      void queryClient.invalidateQueries({ queryKey: ['search'] });
      navigate('/');
    } catch (err) {
      if (isUploadStopped(err)) return;
      toast.error(FAILED, { description: errorMessage(err) });
    }
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
            <fieldset disabled={upload.uploading} className="space-y-6">
              <TitleField
                id={`${ids}-title`}
                value={title}
                onChange={setTitle}
                placeholder="Leave blank to use the file's own title"
              />
              <GenreField id={`${ids}-genre`} value={genre} onChange={setGenre} />
              <AudioField id={`${ids}-file`} name="file" file={file} onChange={setFile} />
              <CoverField
                id={`${ids}-cover`}
                label="Cover art (optional)"
                name="cover"
                file={cover}
                onChange={setCover}
                previewAlt="Chosen cover art"
              />
              <LyricsField id={`${ids}-lyrics`} value={lyrics} onChange={setLyrics} />
            </fieldset>

            {upload.percent !== null && <UploadProgressBar percent={upload.percent} />}

            <UploadButtons
              label="Upload Song"
              uploading={upload.uploading}
              onCancel={upload.cancel}
            />
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
