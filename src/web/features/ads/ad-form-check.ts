// The ad form's checks before anything is sent (issue 12 §4), with the server's messages
// (core/validation/ad.rules.ts). They mirror the server's; the server decides.
import { adFormProblem, adLimits, adMessages } from '@/core/validation/ad.rules.ts';

/** What the checks read of a File (so they run without a DOM). */
export type FormFile = Pick<File, 'size' | 'type'>;

export type AdField = 'title' | 'description' | 'image' | 'audio' | 'duration' | 'target_url';

export function firstAdProblem(form: {
  title: string;
  description: string;
  image: FormFile | null;
  audio: FormFile | null;
  duration: string;
  targetUrl: string;
}): { field: AdField; message: string } | null {
  const text = adFormProblem(form);
  if (text && (text.field === 'title' || text.field === 'description')) return text;
  const { image, audio } = form;
  if (image?.type && !image.type.startsWith('image/'))
    return { field: 'image', message: adMessages.imageType };
  if (image && image.size > adLimits.imageMaxBytes)
    return { field: 'image', message: adMessages.imageTooLarge };
  if (audio && !audio.type.startsWith('audio/'))
    return { field: 'audio', message: adMessages.audioType };
  if (audio && audio.size > adLimits.audioMaxBytes)
    return { field: 'audio', message: adMessages.audioTooLarge };
  return text;
}
