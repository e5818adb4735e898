/* global AudioWorkletProcessor, registerProcessor */
// The AI companion's microphone tap (spec §9: 24 kHz mono PCM in 4096-sample frames): runs on
// the audio thread and hands each 128-sample block to the page, which resamples, frames and
// encodes it (features/companion/pcm.ts). A static file: the CSP allows scripts from 'self' only.
class CompanionCapture extends AudioWorkletProcessor {
  process(inputs) {
    const channel = inputs[0]?.[0];
    if (channel && channel.length > 0) this.port.postMessage(channel.slice(0));
    return true;
  }
}

registerProcessor('companion-capture', CompanionCapture);
