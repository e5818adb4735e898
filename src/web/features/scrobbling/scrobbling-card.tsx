// Scrobbling (docs/decisions/0038): the listener connects ListenBrainz with their user token
// and Last.fm by allowing Canto on last.fm; each connection shows its account and whether the
// service still accepts it. Plays are sent by the server; nothing here plays a part in it.
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ExternalLink, LoaderCircle } from 'lucide-react';
import type { ScrobbleConnection } from '@/contracts/scrobbling.contract.ts';
import {
  LISTENBRAINZ_TOKEN_MAX,
  type ScrobbleService,
} from '@/core/validation/scrobbling.rules.ts';
import { errorMessage } from '@/web/lib/api-client.ts';
import { Badge } from '@/web/components/ui/badge.tsx';
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
import { Skeleton } from '@/web/components/ui/skeleton.tsx';
import {
  useConnectListenBrainz,
  useDisconnectScrobbling,
  useFinishLastfm,
  useScrobblingSettings,
  useStartLastfm,
} from '@/web/features/scrobbling/use-scrobbling.ts';

const NAMES: Record<ScrobbleService, string> = { listenbrainz: 'ListenBrainz', lastfm: 'Last.fm' };

const Spinner = () => <LoaderCircle className="animate-spin" aria-hidden="true" />;

/** A connection's account, its status and what the listener can do about it. */
function ConnectionStatus({
  connection,
  onReconnect,
  reconnecting,
}: {
  connection: ScrobbleConnection;
  onReconnect: () => void;
  reconnecting: boolean;
}) {
  const disconnect = useDisconnectScrobbling();
  const name = NAMES[connection.service];
  const connected = connection.status === 'connected';
  return (
    <div className="grid gap-2" data-testid={`scrobbling-${connection.service}`}>
      <div className="flex flex-wrap items-center gap-2">
        <p className="min-w-0 flex-1 truncate">
          <span className="text-muted-foreground">Account </span>
          <span className="font-medium">{connection.account_name ?? name}</span>
        </p>
        <Badge variant={connected ? 'secondary' : 'destructive'}>
          {connected ? 'Connected' : 'Disconnected'}
        </Badge>
      </div>
      {!connected && (
        <p className="text-sm text-muted-foreground">
          {`${name} no longer accepts Canto's access. Reconnect to send your plays again`}
          {connection.held > 0
            ? ` (${connection.held} ${connection.held === 1 ? 'play waits' : 'plays wait'}).`
            : '.'}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {!connected && (
          <Button size="sm" onClick={onReconnect} disabled={reconnecting}>
            {reconnecting && <Spinner />}
            Reconnect
          </Button>
        )}
        <Button
          size="sm"
          variant="outline"
          aria-label={`Disconnect ${name}`}
          disabled={disconnect.isPending}
          onClick={() =>
            disconnect.mutate(connection.service, {
              onSuccess: () => toast.success(`${name} disconnected`),
              onError: (e) =>
                toast.error('Could not disconnect', {
                  description: errorMessage(e, 'Please try again.'),
                }),
            })
          }
        >
          {disconnect.isPending && <Spinner />}
          Disconnect
        </Button>
      </div>
    </div>
  );
}

function ListenBrainzSection({ connection }: { connection: ScrobbleConnection | null }) {
  const connect = useConnectListenBrainz();
  const [token, setToken] = useState('');
  const [editing, setEditing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    connect.mutate(token.trim(), {
      onSuccess: (made) => {
        setToken('');
        setEditing(false);
        toast.success(`ListenBrainz connected as ${made.account_name ?? 'you'}`);
      },
      onError: (err) => setProblem(errorMessage(err, 'Could not connect ListenBrainz.')),
    });
  };

  return (
    <section aria-labelledby="scrobbling-listenbrainz-heading" className="grid gap-3">
      <h3 id="scrobbling-listenbrainz-heading" className="font-semibold">
        ListenBrainz
      </h3>
      {connection && (
        <ConnectionStatus
          connection={connection}
          onReconnect={() => setEditing(true)}
          reconnecting={editing}
        />
      )}
      {(!connection || editing) && (
        <form className="grid gap-2" onSubmit={submit} noValidate>
          <Label htmlFor="listenbrainz-token">ListenBrainz user token</Label>
          <div className="flex flex-wrap gap-2">
            <Input
              id="listenbrainz-token"
              className="min-w-48 flex-1"
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={token}
              maxLength={LISTENBRAINZ_TOKEN_MAX}
              aria-invalid={problem !== null}
              aria-describedby="listenbrainz-token-help listenbrainz-token-problem"
              onChange={(e) => setToken(e.target.value)}
            />
            <Button type="submit" disabled={connect.isPending || token.trim() === ''}>
              {connect.isPending && <Spinner />}
              Connect
            </Button>
          </div>
          <p id="listenbrainz-token-help" className="text-xs text-muted-foreground">
            Find it on{' '}
            <a
              className="underline underline-offset-2"
              href="https://listenbrainz.org/settings/"
              target="_blank"
              rel="noreferrer"
            >
              your ListenBrainz settings page
            </a>
            .
          </p>
          <p id="listenbrainz-token-problem" className="text-sm text-destructive" role="alert">
            {problem}
          </p>
        </form>
      )}
    </section>
  );
}

function LastfmSection({
  connection,
  available,
  pending,
}: {
  connection: ScrobbleConnection | null;
  available: boolean;
  pending: boolean;
}) {
  const start = useStartLastfm();
  const finish = useFinishLastfm();
  const [authUrl, setAuthUrl] = useState<string | null>(null);
  const waiting = authUrl !== null || pending;

  const begin = () => {
    // Opened now, inside the click, so that no popup blocker stops it; pointed at Last.fm's
    // page once the server has its token.
    const tab = window.open('', '_blank');
    start.mutate(undefined, {
      onSuccess: ({ auth_url }) => {
        setAuthUrl(auth_url);
        if (tab) {
          tab.opener = null;
          tab.location.href = auth_url;
        }
      },
      onError: (e) => {
        tab?.close();
        toast.error('Could not start connecting Last.fm', {
          description: errorMessage(e, 'Please try again.'),
        });
      },
    });
  };

  const done = () =>
    finish.mutate(undefined, {
      onSuccess: (made) => {
        setAuthUrl(null);
        toast.success(`Last.fm connected as ${made.account_name ?? 'you'}`);
      },
      onError: (e) =>
        toast.error('Last.fm is not connected yet', {
          description: errorMessage(e, 'Please try again.'),
        }),
    });

  return (
    <section aria-labelledby="scrobbling-lastfm-heading" className="grid gap-3">
      <h3 id="scrobbling-lastfm-heading" className="font-semibold">
        Last.fm
      </h3>
      {!available ? (
        <p className="text-sm text-muted-foreground">Last.fm is not set up on this server.</p>
      ) : (
        <>
          {connection && (
            <ConnectionStatus
              connection={connection}
              onReconnect={begin}
              reconnecting={start.isPending}
            />
          )}
          {!connection && (
            <div>
              <Button onClick={begin} disabled={start.isPending}>
                {start.isPending && <Spinner />}
                Connect Last.fm
              </Button>
            </div>
          )}
          {waiting && (
            <div className="grid gap-2 rounded-md border p-3" role="status">
              <p className="text-sm">
                Allow Canto&apos;s access on the Last.fm page, then come back here.
              </p>
              <div className="flex flex-wrap gap-2">
                {authUrl && (
                  <Button asChild size="sm" variant="outline">
                    <a href={authUrl} target="_blank" rel="noreferrer">
                      <ExternalLink aria-hidden="true" />
                      Open Last.fm
                    </a>
                  </Button>
                )}
                <Button size="sm" onClick={done} disabled={finish.isPending}>
                  {finish.isPending && <Spinner />}
                  I&apos;ve allowed access
                </Button>
              </div>
            </div>
          )}
        </>
      )}
    </section>
  );
}

export function ScrobblingCard() {
  const settings = useScrobblingSettings();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Scrobbling</CardTitle>
        <CardDescription>
          Count the songs you play on Canto on your ListenBrainz or Last.fm profile: a song counts
          once you have heard half of it or 4 minutes.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {settings.isPending ? (
          <Skeleton className="h-24" />
        ) : settings.isError ? (
          <p className="text-sm text-destructive" role="alert">
            {errorMessage(settings.error, 'Could not load your scrobbling settings.')}
          </p>
        ) : (
          <>
            <ListenBrainzSection connection={settings.data.listenbrainz} />
            <LastfmSection
              connection={settings.data.lastfm}
              available={settings.data.lastfm_available}
              pending={settings.data.lastfm_pending}
            />
          </>
        )}
      </CardContent>
    </Card>
  );
}
