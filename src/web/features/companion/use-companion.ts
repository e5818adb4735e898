// The companion panel's conversation, wired: the state machine, the socket to
// GET /api/ai/companion (the session cookie authenticates it), the browser's audio, the tools
// on the real player and API, and the spec's toasts (§8). Leaving the panel disconnects.
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import { toast } from 'sonner';
import { COMPANION_PATH } from '@/contracts/companion.contract.ts';
import { companionReducer, initialCompanionState } from '@/core/ai/companion-state.ts';
import { errorMessage, refreshSession } from '@/web/lib/api-client.ts';
import { songToPlayable } from '@/web/player/playable.ts';
import { useNowPlaying, usePlayerControls } from '@/web/player/use-player.ts';
import { createBrowserAudio } from './browser-audio.ts';
import { CompanionSession } from './companion-session.ts';
import { catalogue } from './companion-catalogue.ts';
import { runCompanionTool } from './companion-tools.ts';

const companionUrl = () =>
  `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${COMPANION_PATH}`;

export function useCompanion() {
  const [state, dispatch] = useReducer(companionReducer, initialCompanionState);
  const nowPlaying = useNowPlaying();
  const controls = usePlayerControls();
  // Tools run after renders: they read the player as it is when they run.
  const player = useRef({ nowPlaying, controls });
  useLayoutEffect(() => {
    player.current = { nowPlaying, controls };
  });

  const [session] = useState(
    () =>
      new CompanionSession({
        openSocket: () => new WebSocket(companionUrl()),
        createAudio: createBrowserAudio,
        renewSession: refreshSession,
        runTool: (name, args) =>
          runCompanionTool(name, args, {
            catalogue,
            describeError: (e) => errorMessage(e),
            player: {
              nowPlaying: () => player.current.nowPlaying,
              play: (song) => {
                const item = songToPlayable(song);
                if (!item) return false;
                player.current.controls.load(item);
                // Until the next render the ref still holds the old item: a second tool call in
                // the same answer must see this one.
                player.current = {
                  ...player.current,
                  nowPlaying: { current: item, playing: true },
                };
                return true;
              },
              toggle: () => player.current.controls.toggle(),
              next: () => player.current.controls.next(),
              previous: () => player.current.controls.previous(),
            },
          }),
        dispatch,
        notices: {
          connected: () =>
            toast('AI Companion Connected', { description: 'Start talking to discover music!' }),
          connectionError: () =>
            toast.error('Connection Error', { description: 'Failed to connect to AI companion' }),
          startFailed: (message) =>
            toast.error('Error', { description: message || 'Failed to start AI companion' }),
        },
        log: (message, detail) => console.warn(message, detail ?? ''),
      }),
  );

  // The microphone and the socket end with the panel.
  useEffect(() => () => session.disconnect(), [session]);

  return {
    state,
    connect: () => session.connect(),
    disconnect: () => session.disconnect(),
    sendText: (text: string) => session.sendText(text),
  };
}
