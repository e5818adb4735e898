// The ad form's checks before anything is sent, with the server's messages
// (core/validation/ad.rules.ts). They mirror the server's; the server decides.
import { adFormProblem, adLimits, adMessages } from '@/core/validation/ad.rules.ts';
import type { UploadFile } from '@/web/components/upload/upload.ts';
import { namesKind, namesOtherKind } from '@/web/components/upload/file-kind.ts';

export type AdField = 'title' | 'description' | 'image' | 'audio' | 'duration' | 'target_url';

export function firstAdProblem(form: {
  title: string;
  description: string;
  image: UploadFile | null;
  audio: UploadFile | null;
  duration: string;
  targetUrl: string;
}): { field: AdField; message: string } | null {
  const text = adFormProblem(form);
  if (text && (text.field === 'title' || text.field === 'description')) return text;
  const { image, audio } = form;
  if (image && namesOtherKind(image, 'image'))
    return { field: 'image', message: adMessages.imageType };
  if (image && image.size > adLimits.imageMaxBytes)
    return { field: 'image', message: adMessages.imageTooLarge };
  if (audio && !namesKind(audio, 'audio')) return { field: 'audio', message: adMessages.audioType };
  if (audio && audio.size > adLimits.audioMaxBytes)
    return { field: 'audio', message: adMessages.audioTooLarge };
  return text;
}
