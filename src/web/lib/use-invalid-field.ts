// The one field a refused submit marked (aria-invalid), until the listener changes it.
import { useState } from 'react';

export function useInvalidField<F extends string>() {
  const [invalid, setInvalid] = useState<F | null>(null);
  return {
    invalid,
    setInvalid,
    /** Spread on the field's control. */
    invalidProps: (f: F) => (invalid === f ? { 'aria-invalid': true as const } : undefined),
    /** Call when field `f` changes: it is no longer the one marked. */
    edited: (f: F) => {
      if (invalid === f) setInvalid(null);
    },
  };
}
