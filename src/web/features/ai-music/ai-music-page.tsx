// Spec §2 AI Music Creator: Generate Lyrics and Generate Cover Art tabs, each a labelled prompt
// and Generate; the result shown with Regenerate (a new seed); a cover can be downloaded or
// taken to the song upload as its cover art. Below, the user's recent generations (click one
// to see it again); skeletons while loading, a sentence when there are none.
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Download, FileText, Image as ImageIcon, RefreshCw, Sparkles, Upload } from 'lucide-react';
import type { GenerationDto } from '@/contracts/ai.contract.ts';
import { PROMPT_MAX, promptProblem, type AiKind } from '@/core/validation/ai.rules.ts';
import { Button } from '@/web/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs.tsx';
import { Textarea } from '@/web/components/ui/textarea.tsx';
import { LoadFailed } from '@/web/components/page-status.tsx';
import { useSession } from '@/web/session/use-session.ts';
import { uploadWithCover } from '@/web/features/upload/index.ts';
import { useGenerate, useGenerations } from './use-ai-music.ts';

const TABS: Record<AiKind, { label: string; placeholder: string; icon: typeof FileText }> = {
  lyrics: {
    label: 'Generate Lyrics',
    placeholder: 'A song about a night drive along the ocean…',
    icon: FileText,
  },
  'cover-art': {
    label: 'Generate Cover Art',
    placeholder: 'Neon city lights in the rain…',
    icon: ImageIcon,
  },
};

/** A download name from the prompt and the image's type: 'neon-city-lights.png'. */
const fileName = (prompt: string, url: string) =>
  `${
    prompt
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'cover'
  }.${url.slice(url.lastIndexOf('.') + 1)}`;

function PromptForm({
  kind,
  pending,
  onGenerate,
}: {
  kind: AiKind;
  pending: boolean;
  onGenerate: (prompt: string) => void;
}) {
  const id = useId();
  const [prompt, setPrompt] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = promptProblem(prompt);
    if (problem) {
      toast.error(problem);
      return;
    }
    onGenerate(prompt.trim());
  };
  return (
    <form noValidate onSubmit={submit} className="space-y-3">
      <Label htmlFor={id}>Prompt</Label>
      <Textarea
        id={id}
        value={prompt}
        maxLength={PROMPT_MAX}
        rows={3}
        placeholder={TABS[kind].placeholder}
        onChange={(e) => setPrompt(e.target.value)}
      />
      <Button type="submit" variant="brand" disabled={pending}>
        <Sparkles aria-hidden="true" />
        {pending ? 'Generating…' : 'Generate'}
      </Button>
    </form>
  );
}

function LyricsResult({ generation }: { generation: GenerationDto }) {
  return (
    // A region people can tab to: long lyrics scroll inside it.
    <pre
      role="region"
      tabIndex={0}
      aria-label="Generated lyrics"
      className="max-h-[32rem] overflow-auto rounded-lg border bg-card/60 p-4 font-sans text-sm leading-relaxed whitespace-pre-wrap"
    >
      {generation.text}
    </pre>
  );
}

function CoverResult({ generation }: { generation: GenerationDto }) {
  const navigate = useNavigate();
  const { isArtist } = useSession();
  const url = generation.imageUrl!;
  return (
    <div className="space-y-3">
      <img
        src={url}
        alt={`Generated cover art: ${generation.prompt}`}
        width={1400}
        height={1400}
        className="aspect-square w-full max-w-md rounded-lg border object-cover shadow"
      />
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline">
          <a href={url} download={fileName(generation.prompt, url)}>
            <Download aria-hidden="true" />
            Download
          </a>
        </Button>
        {isArtist && (
          <Button
            variant="outline"
            onClick={() => {
              const { to, state } = uploadWithCover(url);
              navigate(to, { state });
            }}
          >
            <Upload aria-hidden="true" />
            Use as cover for an upload
          </Button>
        )}
      </div>
    </div>
  );
}

function History({ onOpen }: { onOpen: (generation: GenerationDto) => void }) {
  const history = useGenerations();
  let body;
  if (history.isPending) {
    body = (
      <ul aria-busy="true" aria-label="Loading your generations" className="space-y-2">
        {Array.from({ length: 3 }, (_, i) => (
          <li key={i}>
            <Skeleton className="h-12 w-full" />
          </li>
        ))}
      </ul>
    );
  } else if (history.isError) {
    body = (
      <LoadFailed
        message="Failed to load your generations"
        retrying={history.isFetching}
        onRetry={() => void history.refetch()}
      />
    );
  } else if (history.data.generations.length === 0) {
    body = (
      <p className="text-sm text-muted-foreground">
        No generations yet. Write a prompt above to create your first lyrics or cover art.
      </p>
    );
  } else {
    body = (
      <ul className="space-y-2">
        {history.data.generations.map((g) => (
          <li key={g.id}>
            <button
              type="button"
              onClick={() => onOpen(g)}
              className="flex w-full items-center gap-3 rounded-lg border bg-card/60 p-2 text-left hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring/60 focus-visible:outline-none"
            >
              {g.imageUrl ? (
                <img src={g.imageUrl} alt="" className="size-10 shrink-0 rounded object-cover" />
              ) : (
                <FileText
                  aria-hidden="true"
                  className="size-10 shrink-0 p-2 text-muted-foreground"
                />
              )}
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium">{g.prompt}</span>
                <span className="block text-xs text-muted-foreground">
                  {g.type === 'lyrics' ? 'Lyrics' : 'Cover art'} ·{' '}
                  {new Date(g.created_at).toLocaleString()}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <section aria-labelledby="ai-history" className="space-y-3">
      <h2 id="ai-history" className="text-lg font-semibold">
        Your recent generations
      </h2>
      {body}
    </section>
  );
}

export default function AiMusicPage() {
  const [tab, setTab] = useState<AiKind>('lyrics');
  const [shown, setShown] = useState<Partial<Record<AiKind, GenerationDto>>>({});
  const show = (g: GenerationDto) => setShown((s) => ({ ...s, [g.type]: g }));
  const generate = useGenerate(show);
  const pendingKind = generate.isPending ? generate.variables.type : null;

  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <Tabs value={tab} onValueChange={(v) => setTab(v as AiKind)}>
        <TabsList>
          {(Object.keys(TABS) as AiKind[]).map((kind) => {
            const Icon = TABS[kind].icon;
            return (
              <TabsTrigger key={kind} value={kind}>
                <Icon aria-hidden="true" className="size-4" />
                {TABS[kind].label}
              </TabsTrigger>
            );
          })}
        </TabsList>
        {(Object.keys(TABS) as AiKind[]).map((kind) => {
          const current = shown[kind];
          return (
            <TabsContent key={kind} value={kind}>
              <Card>
                <CardHeader>
                  <CardTitle>{TABS[kind].label}</CardTitle>
                </CardHeader>
                <CardContent className="space-y-6">
                  <PromptForm
                    kind={kind}
                    pending={pendingKind === kind}
                    onGenerate={(prompt) => generate.mutate({ prompt, type: kind })}
                  />
                  {pendingKind === kind ? (
                    <div aria-busy="true" aria-label="Generating" className="space-y-2">
                      {kind === 'lyrics' ? (
                        Array.from({ length: 6 }, (_, i) => (
                          <Skeleton key={i} className="h-4 w-3/4" />
                        ))
                      ) : (
                        <Skeleton className="aspect-square w-full max-w-md" />
                      )}
                    </div>
                  ) : (
                    current && (
                      <div className="space-y-3">
                        {kind === 'lyrics' ? (
                          <LyricsResult generation={current} />
                        ) : (
                          <CoverResult generation={current} />
                        )}
                        <Button
                          variant="ghost"
                          disabled={generate.isPending}
                          onClick={() => generate.mutate({ prompt: current.prompt, type: kind })}
                        >
                          <RefreshCw aria-hidden="true" />
                          Regenerate
                        </Button>
                      </div>
                    )
                  )}
                </CardContent>
              </Card>
            </TabsContent>
          );
        })}
      </Tabs>
      <History
        onOpen={(g) => {
          show(g);
          setTab(g.type);
        }}
      />
    </div>
  );
}
