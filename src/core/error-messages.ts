// The shared mapper of spec §8: a failure becomes a user message by words in the error.
export const userMessages = {
  auth: 'Please log in to continue.',
  permission:
    'You do not have permission to perform this action. Please verify your account status.',
  storage: 'File upload failed. Please check the file format and size.',
  validation: 'Please check your input and try again.',
  duplicate: 'This item already exists.',
  network: 'Network error. Please check your connection and try again.',
  fallback: 'Operation failed. Please try again or contact support if the issue persists.',
} as const;

// Order matters: the first rule whose words appear wins, as the spec lists them.
const rules: ReadonlyArray<readonly [readonly string[], string]> = [
  [['auth', 'jwt'], userMessages.auth],
  [['artist', 'permission', 'denied', 'role'], userMessages.permission],
  [['storage', 'upload', 'bucket'], userMessages.storage],
  [['invalid', 'validation'], userMessages.validation],
  [['unique', 'duplicate'], userMessages.duplicate],
  [['network', 'fetch'], userMessages.network],
];

function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') {
    const parts: string[] = [];
    for (const key of ['message', 'code', 'name'] as const) {
      const v = (error as Record<string, unknown>)[key];
      if (typeof v === 'string') parts.push(v);
    }
    return parts.join(' ');
  }
  return '';
}

export function toUserMessage(error: unknown): string {
  const text = errorText(error).toLowerCase();
  for (const [words, message] of rules) {
    if (words.some((w) => text.includes(w))) return message;
  }
  return userMessages.fallback;
}
