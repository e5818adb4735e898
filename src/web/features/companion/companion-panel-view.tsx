// The AI music companion panel (spec §2), for subscribers: Start connects; the status says
// 'Not connected', 'Ready to help' or 'Listening...' in a polite live region, 'Speaking' shows
// while the answer's audio arrives, the transcript keeps the last 5 lines, a message can be
// typed, and Disconnect ends the conversation and releases the microphone.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { AudioLines, Bot, Mic, MicOff, PhoneOff, Send } from 'lucide-react';
import { companionStatusText, isTextOnly, type CompanionState } from '@/core/ai/companion-state.ts';
import { Badge } from '@/web/components/ui/badge.tsx';
import { Button } from '@/web/components/ui/button.tsx';
import { cn } from '@/web/components/ui/cn.ts';
import { Input } from '@/web/components/ui/input.tsx';
import { Label } from '@/web/components/ui/label.tsx';
import { useCompanion } from './use-companion.ts';

export default function CompanionPanelView() {
  const titleId = useId();
  const inputId = useId();
  const { state, connect, disconnect, sendText } = useCompanion();
  const [message, setMessage] = useState('');
  const startRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const connected = state.connection === 'connected';

  // The control that had focus is replaced by the next one (Start by the message box, the box
  // by Start when the conversation ends): keep keyboard focus in the panel. A removed control
  // leaves focus on the body without a blur, so 'inside' stays until focus goes elsewhere.
  const focusInside = useRef(false);
  useEffect(() => {
    // Connecting keeps Start (disabled) on screen: wait for the control that replaces it.
    if (state.connection === 'connecting' || !focusInside.current) return;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    if (state.connection === 'connected') inputRef.current?.focus();
    else startRef.current?.focus();
  }, [state.connection]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (sendText(message)) setMessage('');
  };

  return (
    <section
      aria-labelledby={titleId}
      data-testid="companion-panel"
      onFocus={() => (focusInside.current = true)}
      onBlur={(e) => {
        if (e.relatedTarget && !e.currentTarget.contains(e.relatedTarget)) {
          focusInside.current = false;
        }
      }}
      className="mt-6 rounded-2xl border bg-card p-5 text-card-foreground shadow-sm md:p-6"
    >
      <div className="flex flex-wrap items-center gap-3">
        <span className="grid size-10 place-items-center rounded-full bg-primary/15 text-primary">
          <Bot className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="text-lg font-semibold">
            AI Music Companion
          </h2>
          <p
            role="status"
            aria-label="Companion status"
            className="flex items-center gap-1.5 text-sm text-muted-foreground"
          >
            <StatusIcon state={state} />
            {companionStatusText(state)}
          </p>
        </div>
        {connected && state.microphone && <Badge variant="outline">Microphone on</Badge>}
        {connected && isTextOnly(state) && <Badge variant="secondary">text only</Badge>}
        <p
          role="status"
          aria-label="Assistant audio"
          className={cn(
            'flex items-center gap-1.5 text-sm font-medium text-primary',
            !state.speaking && 'sr-only',
          )}
        >
          {state.speaking && (
            <>
              <AudioLines className="size-4 animate-pulse" aria-hidden="true" />
              Speaking
            </>
          )}
        </p>
      </div>

      <div role="log" aria-label="Transcript" className="mt-4">
        {state.transcript.length > 0 ? (
          <ol className="space-y-2 text-sm">
            {state.transcript.map((line) => (
              <li
                key={line.id}
                className={cn(
                  'rounded-lg px-3 py-2',
                  line.role === 'user' ? 'bg-muted' : 'bg-primary/10',
                )}
              >
                <span className="font-medium">
                  {line.role === 'user' ? 'You: ' : 'Companion: '}
                </span>
                {line.text}
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-sm text-muted-foreground">
            {connected
              ? 'Ask for a song, an artist or a mood.'
              : 'Talk or type to find music, hear about artists and control playback.'}
          </p>
        )}
      </div>

      {connected ? (
        <div className="mt-4 flex flex-wrap items-end gap-3">
          <form onSubmit={submit} className="flex min-w-[16rem] flex-1 items-end gap-2">
            <div className="flex-1">
              <Label htmlFor={inputId} className="mb-1.5">
                Message
              </Label>
              <Input
                id={inputId}
                ref={inputRef}
                value={message}
                onChange={(e) => setMessage(e.target.value)}
                placeholder="Play something jazzy"
                autoComplete="off"
                maxLength={2000}
              />
            </div>
            <Button type="submit" disabled={!message.trim()}>
              <Send aria-hidden="true" />
              Send
            </Button>
          </form>
          <Button variant="outline" onClick={disconnect}>
            <PhoneOff aria-hidden="true" />
            Disconnect
          </Button>
        </div>
      ) : (
        <div className="mt-4">
          <Button ref={startRef} disabled={state.connection === 'connecting'} onClick={connect}>
            <Mic aria-hidden="true" />
            {state.connection === 'connecting' ? 'Connecting...' : 'Start AI Companion'}
          </Button>
        </div>
      )}
    </section>
  );
}

function StatusIcon({ state }: { state: CompanionState }) {
  if (state.connection !== 'connected') return <MicOff className="size-4" aria-hidden="true" />;
  return (
    <Mic
      className={cn('size-4', state.listening ? 'animate-pulse text-primary' : '')}
      aria-hidden="true"
    />
  );
}
