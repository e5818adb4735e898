// The companion's microphone and speakers in the browser (spec §9: 24 kHz mono 16-bit PCM,
// 4096-sample frames): one AudioContext at 24 kHz for both, the capture worklet feeding the
// framer, and the answer's deltas scheduled back to back so they join without gaps.
import { COMPANION_SAMPLE_RATE } from '@/contracts/companion.contract.ts';
import type { CompanionAudio } from './companion-session.ts';
import { decodeAudioDelta, encodeAudioFrame, FrameAssembler, Resampler } from './pcm.ts';

/** The worklet module, served from the app's origin (src/web/public). */
const CAPTURE_WORKLET_URL = '/companion-capture.worklet.js';
/** Scheduling slack: a delta that arrives after the previous one ended starts this much ahead. */
const LEAD_SECONDS = 0.05;

function newContext(): AudioContext {
  try {
    return new AudioContext({ sampleRate: COMPANION_SAMPLE_RATE, latencyHint: 'interactive' });
  } catch {
    // A browser that cannot run at 24 kHz runs at its own rate; capture is resampled.
    return new AudioContext({ latencyHint: 'interactive' });
  }
}

export function createBrowserAudio(): CompanionAudio {
  const context = newContext();
  // Made in Start's click: resuming now is allowed, later it might not be.
  void context.resume().catch(() => {});
  let closed = false;
  let stream: MediaStream | null = null;
  let capture: {
    source: MediaStreamAudioSourceNode;
    node: AudioWorkletNode;
    sink: GainNode;
  } | null = null;
  /** When the last scheduled delta ends, on the context's clock. */
  let playhead = 0;
  const playing = new Set<AudioBufferSourceNode>();

  const releaseMicrophone = () => {
    stream?.getTracks().forEach((track) => track.stop());
    stream = null;
    if (capture) {
      capture.node.port.onmessage = null;
      capture.source.disconnect();
      capture.node.disconnect();
      capture.sink.disconnect();
      capture = null;
    }
  };

  return {
    async startMicrophone(onFrame) {
      if (!navigator.mediaDevices?.getUserMedia) {
        throw new Error('This browser cannot use a microphone here');
      }
      const media = await navigator.mediaDevices.getUserMedia({
        audio: {
          channelCount: 1,
          echoCancellation: true,
          noiseSuppression: true,
          autoGainControl: true,
        },
      });
      if (closed) {
        media.getTracks().forEach((track) => track.stop());
        return;
      }
      stream = media;
      try {
        await context.audioWorklet.addModule(CAPTURE_WORKLET_URL);
      } catch (error) {
        releaseMicrophone();
        throw error;
      }
      if (closed) {
        releaseMicrophone();
        return;
      }
      const source = context.createMediaStreamSource(media);
      const node = new AudioWorkletNode(context, 'companion-capture', {
        numberOfInputs: 1,
        numberOfOutputs: 1,
        channelCount: 1,
        channelCountMode: 'explicit',
      });
      // Silent, but connected: a node nobody pulls may not be processed.
      const sink = context.createGain();
      sink.gain.value = 0;
      const resampler = new Resampler(context.sampleRate, COMPANION_SAMPLE_RATE);
      const framer = new FrameAssembler((frame) => onFrame(encodeAudioFrame(frame)));
      node.port.onmessage = (event: MessageEvent<Float32Array>) =>
        framer.push(resampler.process(event.data));
      source.connect(node).connect(sink).connect(context.destination);
      capture = { source, node, sink };
    },

    play(base64) {
      if (closed) return;
      const samples = decodeAudioDelta(base64);
      if (samples.length === 0) return;
      const buffer = context.createBuffer(1, samples.length, COMPANION_SAMPLE_RATE);
      buffer.copyToChannel(samples as Float32Array<ArrayBuffer>, 0);
      const node = context.createBufferSource();
      node.buffer = buffer;
      node.connect(context.destination);
      const startAt = Math.max(playhead, context.currentTime + LEAD_SECONDS);
      node.start(startAt);
      playhead = startAt + buffer.duration;
      playing.add(node);
      node.onended = () => playing.delete(node);
    },

    interrupt() {
      for (const node of playing) {
        node.onended = null;
        node.stop();
        node.disconnect();
      }
      playing.clear();
      playhead = 0;
    },

    close() {
      if (closed) return;
      this.interrupt();
      closed = true;
      releaseMicrophone();
      void context.close().catch(() => {});
    },
  };
}
